package resultdata

import (
	"bytes"
	"context"
	"fmt"
	"iter"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/xlsxpage"
	"github.com/scmodel/scmgo/internal/xlsxpage/pagedownload"
)

// ResultOptions are the optional settings of [Result].
type ResultOptions struct {
	Options
	// Progress, when set, is called on the iterating goroutine as each page
	// goes through the stages of [Stage]. Nil means no reports.
	Progress func(PageProgress)
}

// Stage is how far a page has come.
type Stage int

const (
	// Downloading: the page's workbook is arriving, Bytes of Size.
	Downloading Stage = iota + 1
	// Reading: the workbook is whole in memory; Rows rows were yielded.
	Reading
	// Done: every row of the page was yielded.
	Done
)

func (s Stage) String() string {
	switch s {
	case Downloading:
		return "downloading"
	case Reading:
		return "reading"
	case Done:
		return "done"
	}
	return fmt.Sprintf("Stage(%d)", int(s))
}

// PageProgress reports the reading of one dashboard page.
type PageProgress struct {
	Page  gen.ApiDashboardPage
	Index int   // 1-based position of the page
	Total int   // number of pages
	Stage Stage // how far the page has come
	Bytes int64 // bytes of the page's workbook received so far
	Size  int64 // the workbook's length, -1 when the server did not say
	Rows  int64 // rows of the page yielded so far
}

// Result yields the rows of every dashboard page of a result (the
// experimentResultId of a finished run): it lists the pages
// (facade.DashboardsService.Pages), then for each in turn downloads its
// workbook whole, within [Limits.PageBytes] (facade.DashboardsService.ExportPage,
// so a download that breaks off is fetched again within the client's
// retry policy) and yields its rows as [ReadPage] does. Memory holds one
// page's workbook at a time. The budget of rows and cells
// ([Limits.ResultRows], [Limits.ResultCells]) counts the rows of all the
// pages. ctx bounds the whole: it is checked each time more of a page is
// read. opts may be nil.
//
// A result that lists no pages is the error [ErrNoPages]. An error names
// the page it happened on and ends the iteration.
func Result(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, opts *ResultOptions) iter.Seq2[Row, error] {
	return func(yield func(Row, error) bool) {
		if err := validate(c, resultID); err != nil {
			yield(Row{}, err)
			return
		}
		var o ResultOptions
		if opts != nil {
			o = *opts
		}
		if o.Progress == nil {
			o.Progress = func(PageProgress) {}
		}
		o.Options = o.Options.orDefaults()
		pages, err := c.Dashboards.Pages(ctx, resultID)
		if err == nil && len(pages) == 0 {
			err = fmt.Errorf("resultdata: %w: experimentResultId %d", ErrNoPages, resultID)
		}
		if err != nil {
			yield(Row{}, err)
			return
		}
		budget := newBudget(o.Limits)
		for i, page := range pages {
			p := PageProgress{Page: page, Index: i + 1, Total: len(pages)}
			more, err := o.page(ctx, c, resultID, p, budget, yield)
			if err != nil {
				yield(Row{}, fmt.Errorf("resultdata: page %d (%s): %w", page.Id, page.Name, err))
				return
			}
			if !more {
				return
			}
		}
	}
}

func validate(c *facade.Client, resultID ids.ExperimentResultID) error {
	const op = string(gen.OpExportDashboardPage)
	switch {
	case c == nil:
		return &facade.ValidationError{Operation: op, Field: "c", Reason: "is required"}
	case resultID < 0:
		return &facade.ValidationError{Operation: op, Field: "experimentResultId", Reason: fmt.Sprintf("must not be negative, got %d", resultID)}
	}
	return nil
}

// page downloads one page and yields its rows; false when yield asked to
// stop.
func (o *ResultOptions) page(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, p PageProgress, budget *xlsxpage.Budget, yield func(Row, error) bool) (bool, error) {
	p.Stage = Downloading
	data, err := pagedownload.Read(ctx, c, resultID, p.Page.Id, o.Limits.PageBytes, func(received, size int64) {
		p.Bytes, p.Size = received, size
		o.Progress(p)
	})
	if err != nil {
		return false, sharedError(err)
	}
	p.Stage = Reading
	o.Progress(p)
	base := Chart{ResultID: resultID, PageID: p.Page.Id, Page: p.Page.Name}
	for row, err := range readWorkbook(ctx, bytes.NewReader(data), int64(len(data)), base, false, o.Options, budget) {
		if err != nil {
			return false, err
		}
		if !yield(row, nil) {
			return false, nil
		}
		if p.Rows++; p.Rows%10000 == 0 {
			o.Progress(p)
		}
	}
	p.Stage = Done
	o.Progress(p)
	return true, nil
}
