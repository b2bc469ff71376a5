package dashboard

import (
	"context"
	"errors"

	"github.com/scmodel/scmgo/internal/xlsxpage/pagedownload"
)

// fetched is a page's workbook downloaded, or why it could not be, with
// the progress of its download, reported on the caller's goroutine when
// the page comes up.
type fetched struct {
	data   []byte
	err    error
	events []Progress
}

// fetch downloads a page's workbook on a goroutine of its own; the channel
// receives it once the download ended, as ctx ends it at the latest, or
// the goroutine did (a transport may end it, as one that simulates a
// crash does).
func (e *export) fetch(ctx context.Context, p Progress) <-chan fetched {
	ch := make(chan fetched, 1)
	go func() {
		f := fetched{err: errFetchEnded}
		defer func() { ch <- f }()
		f.data, f.err = e.download(ctx, p, f.record)
	}()
	return ch
}

// errFetchEnded is a download whose goroutine ended before it did.
var errFetchEnded = errors.New("the download ended before its answer did")

// fetchNow downloads a page's workbook on the caller's goroutine, as the
// first page is: nothing is merged meanwhile.
func (e *export) fetchNow(ctx context.Context, p Progress) <-chan fetched {
	ch := make(chan fetched, 1)
	var f fetched
	f.data, f.err = e.download(ctx, p, f.record)
	ch <- f
	return ch
}

// record keeps a progress report of the download. Of the reports between
// two starts of the download (a start at 0 bytes, again when it is
// fetched again) only the last is kept: they are replayed at once.
func (f *fetched) record(p Progress) {
	if n := len(f.events); n > 0 && p.Bytes > 0 && f.events[n-1].Bytes > 0 {
		f.events[n-1] = p
		return
	}
	f.events = append(f.events, p)
}

// replay makes the progress reports kept.
func (f *fetched) replay(report func(Progress)) {
	for _, p := range f.events {
		report(p)
	}
}

// download reads a page's workbook whole, within MaxPageBytes (as
// pagedownload.Read does for resultdata too). Its progress goes to report.
func (e *export) download(ctx context.Context, p Progress, report func(Progress)) ([]byte, error) {
	p.Stage = Downloading
	data, err := pagedownload.Read(ctx, e.c, e.resultID, p.Page.Id, e.lim.pageBytes, func(received, size int64) {
		p.Bytes, p.Size = received, size
		report(p)
	})
	return data, sharedError(err)
}
