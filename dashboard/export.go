package dashboard

import (
	"context"
	"fmt"
	"io"

	"github.com/scmodel/scmgo/internal/steps"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// Stage is how far the export of a page has come.
type Stage int

const (
	// Downloading: the page's workbook is arriving, Bytes of Size.
	Downloading Stage = iota + 1
	// Merging: the page's workbook is whole in memory (Bytes and Size are
	// its length); its rows are being copied into its sheet, which reaches
	// w compressed as it goes.
	Merging
	// Written: the page's sheet has been written to w, compressed. Only
	// the zip's directory follows the last page.
	Written
)

func (s Stage) String() string {
	switch s {
	case Downloading:
		return "downloading"
	case Merging:
		return "merging"
	case Written:
		return "written"
	}
	return fmt.Sprintf("Stage(%d)", int(s))
}

// Progress reports the export of one dashboard page.
type Progress struct {
	Page  gen.ApiDashboardPage
	Index int   // 1-based position of the page
	Total int   // number of pages
	Stage Stage // how far the page has come
	Bytes int64 // bytes of the page's workbook received so far
	Size  int64 // the page workbook's length, -1 when the server did not say
}

// Export writes every dashboard page of a result (the experimentResultId
// of a finished run) into one workbook, one sheet per page in the order
// facade.DashboardsService.Pages lists them, and writes the workbook to w
// as it goes: the parts that name the sheets first, then each page's sheet
// as the page is merged (see the package doc). opts may be nil.
//
// A sheet is named after its page, made unique ignoring case and cut to
// Excel's 31 characters; a page without a name is "Page <id>". A result
// without pages is the error [ErrNoPages], with nothing written to w. A page workbook
// of one worksheet is copied cell for cell; one of several is copied as
// sections, one after the other: a row naming the worksheet, its rows, an
// empty row. A cell keeps its value and its type (numbers stay numbers,
// text stays text, true/false and error values stay what they are); a
// formula gives the value it was saved with, and styles are not copied.
//
// Each page is read within the limits of opts ([Options]), checked as it
// is read; ctx is checked between pages and as each part is read, every
// 64 KiB of its XML at most. The next page downloads while one merges. An
// error names the page it happened on; w then holds a workbook cut off.
// Export makes no temporary file.
func Export(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, w io.Writer, opts *Options) error {
	lim, err := opts.limits()
	if err != nil {
		return err
	}
	if err := validate(c, resultID, w); err != nil {
		return err
	}
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err == nil && len(pages) == 0 {
		err = fmt.Errorf("dashboard: %w: experimentResultId %d", ErrNoPages, resultID)
	}
	if err != nil {
		return err
	}
	book, err := newWorkbook(w, sheetNames(pages))
	if err != nil {
		return err
	}
	e := &export{c: c, resultID: resultID, book: book, lim: lim, report: opts.progress(), bufs: newBuffers(),
		budget: xlsxpage.NewBudget(lim.resultRows, lim.resultCells)}
	if err := e.pages(ctx, pages); err != nil {
		return err
	}
	return book.close()
}

// ErrNoPages is the error of [Export] for a result that lists no
// dashboard pages. It is resultdata.ErrNoPages too.
var ErrNoPages = xlsxpage.ErrNoPages

// opExport is the operation an export's errors name.
const opExport = string(gen.OpExportDashboardPage)

func validate(c *facade.Client, resultID ids.ExperimentResultID, w io.Writer) error {
	switch {
	case c == nil:
		return &facade.ValidationError{Operation: opExport, Field: "c", Reason: "is required"}
	case resultID < 0:
		return &facade.ValidationError{Operation: opExport, Field: "experimentResultId", Reason: fmt.Sprintf("must not be negative, got %d", resultID)}
	case w == nil:
		return &facade.ValidationError{Operation: opExport, Field: "w", Reason: "is required"}
	}
	return nil
}

func (o *Options) progress() func(Progress) {
	if o == nil || o.Progress == nil {
		return func(Progress) {}
	}
	return o.Progress
}

// export is one call of Export.
type export struct {
	c        *facade.Client
	resultID ids.ExperimentResultID
	book     *workbook
	lim      limits
	report   func(Progress)
	bufs     *buffers
	budget   *xlsxpage.Budget // the rows and cells copied from every page
}

// pages merges the pages in order, each downloaded while the one before
// it is merged: the download of page i+1 begins as the merge of page i
// does, its progress reported once page i is written.
func (e *export) pages(ctx context.Context, pages []gen.ApiDashboardPage) error {
	if len(pages) == 0 {
		return nil
	}
	ahead, cancel := context.WithCancel(ctx) // the downloads, which a failed merge ends
	defer cancel()
	progress := func(i int) Progress { return Progress{Page: pages[i], Index: i + 1, Total: len(pages)} }
	// A page is a step from the start of its download to the end of its
	// merge; the next page's download starts while this one is merged.
	step := func(ctx context.Context, i int) (context.Context, func(error)) {
		return steps.Start(e.c, ctx, "dashboard.page", pages[i].Name, int64(pages[i].Id), i+1)
	}
	stepCtx, end := step(ctx, 0)
	next := e.fetchNow(stepCtx, progress(0))
	for i, page := range pages {
		f := <-next
		if err := ctx.Err(); err != nil {
			end(context.Cause(ctx))
			return fmt.Errorf("dashboard: before page %d (%s): %w", page.Id, page.Name, context.Cause(ctx))
		}
		f.replay(e.report)
		if f.err != nil {
			end(f.err)
			return fmt.Errorf("dashboard: page %d (%s): %w", page.Id, page.Name, f.err)
		}
		endNext := func(error) {}
		if i+1 < len(pages) {
			stepCtx, endNext = step(ahead, i+1)
			next = e.fetch(stepCtx, progress(i+1))
		}
		if err := e.merge(ctx, i, progress(i), f.data); err != nil {
			end(err)
			cancel()
			if i+1 < len(pages) {
				<-next // the download ahead ends with it
				endNext(context.Canceled)
			}
			return fmt.Errorf("dashboard: page %d (%s): %w", page.Id, page.Name, err)
		}
		end(nil)
		end = endNext
	}
	return nil
}

// merge merges page i, whose workbook is data, into its sheet, written to
// the workbook as it goes.
func (e *export) merge(ctx context.Context, i int, p Progress, data []byte) error {
	p.Stage, p.Bytes, p.Size = Merging, int64(len(data)), int64(len(data))
	e.report(p)
	w, tail, err := e.book.sheetStart(i)
	if err != nil {
		return err
	}
	out := newSheetWriter(w, e.bufs.write)
	if err := mergePage(ctx, data, e.lim, e.budget, out, e.bufs); err != nil {
		return err
	}
	if err := e.book.sheetEnd(w, tail); err != nil {
		return err
	}
	p.Stage = Written
	e.report(p)
	return nil
}
