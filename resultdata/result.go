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
	// Reading: the workbook is whole in memory (Bytes and Size are its
	// length); Rows rows were yielded.
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
// read, and between pages. opts may be nil. Each page is a step of the
// client's observer ("dashboard.page", a span of package scmotel), from
// the start of its download until its last row is yielded or the loop
// stops, as each page of dashboard.Export is.
//
// A result that lists no pages is the error [ErrNoPages]. An error names
// the page it happened on and ends the iteration.
func Result(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, opts *ResultOptions) iter.Seq2[Row, error] {
	return func(yield func(Row, error) bool) {
		var o ResultOptions
		if opts != nil {
			o = *opts
		}
		if o.Progress == nil {
			o.Progress = func(PageProgress) {}
		}
		o.Options = o.Options.orDefaults()
		budget := newBudget(o.Limits)
		walk := &pagedownload.Walk{Package: "resultdata", MaxBytes: o.Limits.PageBytes, DownloadError: sharedError,
			Downloading: func(at pagedownload.At, received, size int64) {
				o.Progress(PageProgress{Page: at.Page, Index: at.Index, Total: at.Total, Stage: Downloading, Bytes: received, Size: size})
			},
			Use: func(ctx context.Context, at pagedownload.At, data []byte) (bool, error) {
				return o.page(ctx, resultID, at, data, budget, yield)
			},
		}
		if err := walk.Run(ctx, c, resultID); err != nil {
			yield(Row{}, err)
		}
	}
}

// page yields the rows of the page at, whose workbook is data; false when
// yield asked to stop.
func (o *ResultOptions) page(ctx context.Context, resultID ids.ExperimentResultID, at pagedownload.At, data []byte, budget *xlsxpage.Budget, yield func(Row, error) bool) (bool, error) {
	p := PageProgress{Page: at.Page, Index: at.Index, Total: at.Total, Stage: Reading, Bytes: int64(len(data)), Size: int64(len(data))}
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
