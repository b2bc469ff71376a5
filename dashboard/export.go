package dashboard

import (
	"context"
	"fmt"
	"io"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// Stage is how far the export of a page has come.
type Stage int

const (
	// Downloading: the page's workbook is arriving, Bytes of Size.
	Downloading Stage = iota + 1
	// Merging: the page's workbook is whole in memory; its rows are being
	// copied into its sheet, which reaches w compressed as it goes.
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
// Excel's 31 characters; a page without a name is "Page <id>", and a
// result without pages gives one empty sheet, "No pages". A page workbook
// of one worksheet is copied cell for cell; one of several is copied as
// sections, one after the other: a row naming the worksheet, its rows, an
// empty row. A cell keeps its value and its type (numbers stay numbers,
// text stays text, true/false and error values stay what they are); a
// formula gives the value it was saved with, and styles are not copied.
//
// Each page is read within the limits of opts ([Options]), checked as it
// is read; ctx is checked between pages, between rows and as each part is
// read. An error names the page it happened on; w then holds a workbook
// cut off. Export makes no temporary file.
func Export(ctx context.Context, c *facade.Client, resultID int64, w io.Writer, opts *Options) error {
	lim, err := opts.limits()
	if err != nil {
		return err
	}
	if err := validate(c, resultID, w); err != nil {
		return err
	}
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err != nil {
		return err
	}
	book, err := newWorkbook(w, sheetNames(pages))
	if err != nil {
		return err
	}
	e := &export{c: c, resultID: resultID, book: book, lim: lim, report: opts.progress(), bufs: newBuffers()}
	for i, page := range pages {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("dashboard: before page %d (%s): %w", page.Id, page.Name, context.Cause(ctx))
		}
		p := Progress{Page: page, Index: i + 1, Total: len(pages)}
		if err := e.page(ctx, i, p); err != nil {
			return fmt.Errorf("dashboard: page %d (%s): %w", page.Id, page.Name, err)
		}
	}
	return book.close()
}

// opExport is the operation an export's errors name.
const opExport = string(gen.OpExportDashboardPage)

func validate(c *facade.Client, resultID int64, w io.Writer) error {
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
	resultID int64
	book     *workbook
	lim      limits
	report   func(Progress)
	bufs     *buffers
}

// page reads page i whole and merges it into its sheet, written to the
// workbook as it goes.
func (e *export) page(ctx context.Context, i int, p Progress) error {
	data, err := e.download(ctx, p)
	if err != nil {
		return err
	}
	p.Stage = Merging
	e.report(p)
	w, tail, err := e.book.sheetStart(i)
	if err != nil {
		return err
	}
	out := newSheetWriter(w, e.bufs.write)
	if err := mergePage(ctx, data, e.lim, out, e.bufs); err != nil {
		return err
	}
	if err := e.book.sheetEnd(w, tail); err != nil {
		return err
	}
	p.Stage = Written
	e.report(p)
	return nil
}

// download reads a page's workbook whole, within MaxPageBytes: a download
// that says it is longer is stopped before it is read (ReadAll reports its
// length first), one that turns out to be as soon as it goes past.
func (e *export) download(ctx context.Context, p Progress) ([]byte, error) {
	tooLong := limitError("MaxPageBytes", e.lim.pageBytes, 0, "its workbook's download")
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	d, err := e.c.Dashboards.ExportPage(ctx, e.resultID, p.Page.Id)
	if err != nil {
		return nil, err
	}
	p.Stage = Downloading
	data, err := d.ReadAll(func(received, size int64) {
		p.Bytes, p.Size = received, size
		if received > e.lim.pageBytes || size > e.lim.pageBytes {
			stop(tooLong)
		}
		e.report(p)
	})
	if err != nil && context.Cause(ctx) == tooLong {
		return nil, tooLong
	}
	return data, err
}
