package dashboard

import (
	"context"
	"fmt"
	"io"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// Options are the optional inputs of [Export].
type Options struct {
	// Progress, when set, is called on the caller's goroutine as each page
	// goes through the stages of [Stage]: at 0 bytes when its workbook's
	// download is answered (and again at 0 when it is fetched again after
	// it broke off), as its bytes arrive, when it is merged, and once its
	// sheet is written to w. Nil means no reports.
	Progress func(Progress)
}

// Stage is how far the export of a page has come.
type Stage int

const (
	// Downloading: the page's workbook is arriving, Bytes of Size.
	Downloading Stage = iota + 1
	// Merging: the page's workbook is whole in memory; its rows are being
	// streamed into its sheet. Nothing of the page has reached w yet.
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
// once the page is merged (see the package doc). opts may be nil.
//
// A sheet is named after its page, made unique ignoring case and cut to
// Excel's 31 characters; a page without a name is "Page <id>", and a
// result without pages gives one empty sheet, "No pages". A page workbook
// of one sheet is copied cell for cell; one of several sheets is copied as
// sections, one after the other: a row naming the sheet, its rows, an
// empty row. Numbers stay numbers.
//
// An error names the page it happened on; w then holds a workbook cut off
// after the last page written.
func Export(ctx context.Context, c *facade.Client, resultID int64, w io.Writer, opts *Options) error {
	if err := validate(c, resultID, w); err != nil {
		return err
	}
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err != nil {
		return err
	}
	names := sheetNames(pages)
	book, err := newWorkbook(w, names)
	if err != nil {
		return err
	}
	report := opts.progress()
	for i, page := range pages {
		p := Progress{Page: page, Index: i + 1, Total: len(pages)}
		pageCtx, end := c.StartStep(ctx, facade.StepInfo{Kind: "dashboard.page", Name: page.Name, ID: page.Id, Index: i + 1})
		err := exportPage(pageCtx, c, resultID, book, i, p, report)
		if end(err); err != nil {
			return fmt.Errorf("dashboard: page %d (%s): %w", page.Id, page.Name, err)
		}
	}
	return book.close()
}

func validate(c *facade.Client, resultID int64, w io.Writer) error {
	const op = string(gen.OpExportDashboardPage)
	switch {
	case c == nil:
		return &facade.ValidationError{Operation: op, Field: "c", Reason: "is required"}
	case resultID < 0:
		return &facade.ValidationError{Operation: op, Field: "experimentResultId", Reason: fmt.Sprintf("must not be negative, got %d", resultID)}
	case w == nil:
		return &facade.ValidationError{Operation: op, Field: "w", Reason: "is required"}
	}
	return nil
}

func (o *Options) progress() func(Progress) {
	if o == nil || o.Progress == nil {
		return func(Progress) {}
	}
	return o.Progress
}

// exportPage reads page i whole, merges it into its sheet and writes the
// sheet to the workbook.
func exportPage(ctx context.Context, c *facade.Client, resultID int64, book *workbook, i int, p Progress, report func(Progress)) error {
	d, err := c.Dashboards.ExportPage(ctx, resultID, p.Page.Id)
	if err != nil {
		return err
	}
	p.Stage = Downloading
	data, err := d.ReadAll(func(received, size int64) {
		p.Bytes, p.Size = received, size
		report(p)
	})
	if err != nil {
		return err
	}
	p.Stage = Merging
	report(p)
	part, err := mergePage(data, i == 0)
	if err != nil {
		return err
	}
	if err := book.writeSheet(i, part); err != nil {
		return err
	}
	p.Stage = Written
	report(p)
	return nil
}
