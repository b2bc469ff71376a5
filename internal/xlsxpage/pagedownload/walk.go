package pagedownload

import (
	"context"
	"fmt"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// At is where a walk is: a page, its 1-based position and the number of
// pages.
type At struct {
	Page  gen.ApiDashboardPage
	Index int
	Total int
}

// Walk is the walk of a result's dashboard pages that package dashboard
// and package resultdata share: the pages listed, then each page's
// workbook downloaded whole (as [Read] does) and handed to Use, in the
// order the server lists them. Each page is a step of the client's
// observer ("dashboard.page"), from the start of its download to the end
// of its use.
type Walk struct {
	// Package names the caller in the errors: "dashboard", "resultdata".
	Package string
	// MaxBytes bounds each page's workbook, as Read's max does.
	MaxBytes int64
	// Ahead downloads the next page while Use has the one before it (two
	// workbooks are then in memory at most); otherwise each page downloads
	// once Use is done with the one before it.
	Ahead bool
	// Listed, when set, is given the pages once they are listed, before any
	// is downloaded; its error ends the walk as it is.
	Listed func(pages []gen.ApiDashboardPage) error
	// Downloading, when set, reports a page's download: the bytes received
	// and the length the server said, -1 when it did not. It is called on
	// the walk's goroutine: as the bytes come for a page downloaded there,
	// once the page's turn comes for one downloaded ahead (then only the
	// last report of each start of its download is kept).
	Downloading func(at At, received, size int64)
	// Use is given each page's workbook, on the walk's goroutine, under the
	// walk's ctx; false ends the walk without an error.
	Use func(ctx context.Context, at At, workbook []byte) (bool, error)
	// DownloadError, when set, turns the error of a page's download into
	// the caller's own (a limit's error into its package's).
	DownloadError func(error) error
}

// Run walks the dashboard pages of resultID's result. Bad input is a
// *facade.ValidationError of exportDashboardPage, before anything is sent;
// a result without pages is an error matching [xlsxpage.ErrNoPages]. An
// error of a page names it, after Package ("dashboard: page 3
// (Costs): ..."); ctx ended between pages is "before page N". A failed
// Use stops the download ahead and waits for it to end.
func (w *Walk) Run(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID) error {
	if err := Validate(c, resultID); err != nil {
		return err
	}
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err == nil && len(pages) == 0 {
		err = fmt.Errorf("%s: %w: experimentResultId %d", w.Package, xlsxpage.ErrNoPages, resultID)
	}
	if err != nil {
		return err
	}
	if w.Listed != nil {
		if err := w.Listed(pages); err != nil {
			return err
		}
	}
	return (&walk{Walk: w, c: c, resultID: resultID, pages: pages}).run(ctx)
}

// Validate refuses what Run cannot walk: no client, a negative result id.
func Validate(c *facade.Client, resultID ids.ExperimentResultID) error {
	const op = string(gen.OpExportDashboardPage)
	switch {
	case c == nil:
		return &facade.ValidationError{Operation: op, Field: "c", Reason: "is required"}
	case resultID < 0:
		return &facade.ValidationError{Operation: op, Field: "experimentResultId", Reason: fmt.Sprintf("must not be negative, got %d", resultID)}
	}
	return nil
}

// walk is one call of Run.
type walk struct {
	*Walk
	c        *facade.Client
	resultID ids.ExperimentResultID
	pages    []gen.ApiDashboardPage
}

// run takes the pages in turn, the download of each begun before its turn
// comes: by the turn before it when downloading ahead, here otherwise.
func (w *walk) run(ctx context.Context) error {
	ahead, cancel := context.WithCancel(ctx) // the download ahead, which a failed Use ends
	defer cancel()
	cur := w.begin(ctx, 0, false)
	for i := range w.pages {
		next, more, err := w.turn(ctx, ahead, i, cur)
		if err != nil || !more {
			cancel()
			next.drop()
			return err
		}
		if cur = next; cur.fetched == nil && i+1 < len(w.pages) {
			cur = w.begin(ctx, i+1, false)
		}
	}
	return nil
}

// turn is page i's turn: it waits for the download cur began, begins the
// next page's when downloading ahead, hands the page to Use and ends the
// page's step. next is the download ahead, begun or not.
func (w *walk) turn(ctx, ahead context.Context, i int, cur pending) (next pending, more bool, err error) {
	f := <-cur.fetched
	if err := ctx.Err(); err != nil {
		cur.end(context.Cause(ctx))
		return next, false, fmt.Errorf("%s: before page %d (%s): %w", w.Package, w.pages[i].Id, w.pages[i].Name, context.Cause(ctx))
	}
	w.replay(i, f)
	if f.err != nil {
		cur.end(f.err)
		return next, false, w.pageError(i, f.err)
	}
	if w.Ahead && i+1 < len(w.pages) {
		next = w.begin(ahead, i+1, true)
	}
	more, err = w.Use(ctx, w.at(i), f.data)
	if err != nil {
		cur.end(err)
		return next, false, w.pageError(i, err)
	}
	cur.end(nil)
	return next, more, nil
}

func (w *walk) at(i int) At { return At{Page: w.pages[i], Index: i + 1, Total: len(w.pages)} }

func (w *walk) pageError(i int, err error) error {
	return fmt.Errorf("%s: page %d (%s): %w", w.Package, w.pages[i].Id, w.pages[i].Name, err)
}
