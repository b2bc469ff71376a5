package dashboard

import (
	"context"
	"fmt"
	"io"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/xlsxpage"
	"github.com/scmodel/scmgo/internal/xlsxpage/pagedownload"
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
	if w == nil {
		return &facade.ValidationError{Operation: opExport, Field: "w", Reason: "is required"}
	}
	e := &export{lim: lim, report: opts.progress(), bufs: newBuffers(), budget: xlsxpage.NewBudget(lim.resultRows, lim.resultCells)}
	walk := &pagedownload.Walk{Package: "dashboard", MaxBytes: lim.pageBytes, Ahead: true, DownloadError: sharedError,
		Listed: func(pages []gen.ApiDashboardPage) (err error) {
			e.book, err = newWorkbook(w, sheetNames(pages))
			return err
		},
		Downloading: func(at pagedownload.At, received, size int64) {
			e.report(Progress{Page: at.Page, Index: at.Index, Total: at.Total, Stage: Downloading, Bytes: received, Size: size})
		},
		Use: func(ctx context.Context, at pagedownload.At, data []byte) (bool, error) {
			return true, e.merge(ctx, at, data)
		},
	}
	if err := walk.Run(ctx, c, resultID); err != nil {
		return err
	}
	return e.book.close()
}

// ErrNoPages is the error of [Export] for a result that lists no
// dashboard pages. It is resultdata.ErrNoPages too.
var ErrNoPages = xlsxpage.ErrNoPages

// opExport is the operation an export's errors name.
const opExport = string(gen.OpExportDashboardPage)

func (o *Options) progress() func(Progress) {
	if o == nil || o.Progress == nil {
		return func(Progress) {}
	}
	return o.Progress
}

// export is one call of Export: the pages are walked (downloaded, the
// next while one merges) by pagedownload.Walk, and merged here.
type export struct {
	book   *workbook
	lim    limits
	report func(Progress)
	bufs   *buffers
	budget *xlsxpage.Budget // the rows and cells copied from every page
}

// merge merges the page at, whose workbook is data, into its sheet,
// written to the workbook as it goes.
func (e *export) merge(ctx context.Context, at pagedownload.At, data []byte) error {
	p := Progress{Page: at.Page, Index: at.Index, Total: at.Total, Stage: Merging, Bytes: int64(len(data)), Size: int64(len(data))}
	e.report(p)
	w, tail, err := e.book.sheetStart(at.Index - 1)
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
