package pagedownload

import (
	"context"
	"errors"

	"github.com/scmodel/scmgo/internal/steps"
)

// pending is a page's download begun, inside the page's step, which end
// ends.
type pending struct {
	fetched <-chan fetched // receives the download once it ended
	end     func(error)
}

// drop waits for a download begun ahead to end (its context was
// cancelled) and ends its step as cancelled; it does nothing when none was
// begun.
func (p pending) drop() {
	if p.fetched != nil {
		<-p.fetched
		p.end(context.Canceled)
	}
}

// fetched is a page's workbook downloaded, or why it could not be, with
// the progress of a download ahead, reported when the page's turn comes.
type fetched struct {
	data   []byte
	err    error
	events []progress
}

// progress is a report of a download: bytes received of size.
type progress struct{ received, size int64 }

// begin starts page i's step and its download under ctx: on a goroutine
// of its own when ahead, its progress kept until the page's turn; here
// otherwise, its progress reported as it comes.
func (w *walk) begin(ctx context.Context, i int, ahead bool) pending {
	page := w.pages[i]
	ctx, end := steps.Start(w.c, ctx, "dashboard.page", page.Name, int64(page.Id), i+1)
	ch := make(chan fetched, 1)
	if !ahead {
		var f fetched
		f.data, f.err = w.download(ctx, i, func(received, size int64) { w.report(w.at(i), received, size) })
		ch <- f
		return pending{fetched: ch, end: end}
	}
	go func() {
		f := fetched{err: errFetchEnded}
		defer func() { ch <- f }() // also when a transport ends the goroutine
		f.data, f.err = w.download(ctx, i, f.record)
	}()
	return pending{fetched: ch, end: end}
}

// errFetchEnded is a download whose goroutine ended before it did.
var errFetchEnded = errors.New("the download ended before its answer did")

// download reads page i's workbook whole, within MaxBytes, its progress
// going to report, its error made the caller's.
func (w *walk) download(ctx context.Context, i int, report func(received, size int64)) ([]byte, error) {
	data, err := Read(ctx, w.c, w.resultID, w.pages[i].Id, w.MaxBytes, report)
	if err != nil && w.DownloadError != nil {
		err = w.DownloadError(err)
	}
	return data, err
}

func (w *walk) report(at At, received, size int64) {
	if w.Downloading != nil {
		w.Downloading(at, received, size)
	}
}

// record keeps a progress report of a download ahead. Of the reports
// between two starts of the download (a start at 0 bytes, again when it is
// fetched again) only the last is kept: they are replayed at once.
func (f *fetched) record(received, size int64) {
	if n := len(f.events); n > 0 && received > 0 && f.events[n-1].received > 0 {
		f.events[n-1] = progress{received, size}
		return
	}
	f.events = append(f.events, progress{received, size})
}

// replay makes the progress reports kept of page i's download.
func (w *walk) replay(i int, f fetched) {
	for _, p := range f.events {
		w.report(w.at(i), p.received, p.size)
	}
}
