package facade

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/gen"
)

// ExportDashboardOptions are the optional inputs of
// [ResultsService.ExportDashboard].
type ExportDashboardOptions struct {
	// Progress, when set, is called as each page downloads: once when its
	// download starts, as its bytes arrive, and once when its sheet is
	// written; a page fetched again after its answer broke off starts
	// over, at 0 bytes. It runs on the caller's goroutine. Nil means no
	// reports.
	Progress func(PageProgress)
}

// PageProgress reports the export of one dashboard page.
type PageProgress struct {
	Page  gen.ApiDashboardPage
	Index int   // 1-based position of the page
	Total int   // number of pages
	Bytes int64 // bytes of the page's workbook received so far
	Size  int64 // the page workbook's length, -1 when the server did not say
	Done  bool  // the page's sheet is written
}

// maxSheetName is Excel's limit on the length of a sheet name.
const maxSheetName = 31

// ExportDashboard writes every dashboard page of a result into one
// workbook, one sheet per page in the order
// [ResultsService.DashboardPages] lists them, and streams it to w. The
// server exports one page at a time (exportDashboardPage); this is the
// loop real clients write, done once.
//
// A sheet is named after its page, made unique and cut to Excel's 31
// characters. A page workbook of one sheet is copied cell for cell; one of
// several sheets is copied as sections, one after the other: a row naming
// the sheet, its rows, an empty row. Numbers stay numbers. opts may be
// nil.
//
// Each page's workbook is read whole before it is merged, so a page whose
// answer stalls or breaks off is fetched again, like any read, within the
// attempts of the retry policy.
//
//scm:helper
func (s *ResultsService) ExportDashboard(ctx context.Context, experimentResultID int64, w io.Writer, opts *ExportDashboardOptions) error {
	const op = gen.OpExportDashboardPage
	if err := check(op).id("experimentResultId", experimentResultID).ok("w", w != nil, "is required").done(); err != nil {
		return err
	}
	pages, err := s.DashboardPages(ctx, experimentResultID)
	if err != nil {
		return err
	}
	out := excelize.NewFile()
	defer out.Close()
	names := sheetNamer{}
	for i, page := range pages {
		name := names.name(page.Name, page.Id)
		if err := s.exportPage(ctx, out, i == 0, name, experimentResultID, PageProgress{Page: page, Index: i + 1, Total: len(pages)}, opts); err != nil {
			return fmt.Errorf("facade: ExportDashboard: page %d (%s): %w", page.Id, page.Name, err)
		}
	}
	if len(pages) == 0 {
		if err := out.SetSheetName("Sheet1", "No pages"); err != nil {
			return err
		}
	}
	_, err = out.WriteTo(w)
	return err
}

// exportPage downloads one page and writes it as the sheet name of out.
func (s *ResultsService) exportPage(ctx context.Context, out *excelize.File, first bool, name string, resultID int64, p PageProgress, opts *ExportDashboardOptions) error {
	report := func(PageProgress) {}
	if opts != nil && opts.Progress != nil {
		report = opts.Progress
	}
	data, err := s.pageWorkbook(ctx, resultID, &p, report)
	if err != nil {
		return err
	}
	page, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("reading the page workbook: %w", err)
	}
	defer page.Close()
	if first {
		err = out.SetSheetName("Sheet1", name)
	} else {
		_, err = out.NewSheet(name)
	}
	if err != nil {
		return err
	}
	if err := copySheets(out, name, page); err != nil {
		return err
	}
	p.Done = true
	p.Bytes = max(p.Bytes, p.Size)
	report(p)
	return nil
}

// pageWorkbook reads the workbook of a page whole (exportDashboardPage),
// reporting its bytes as they arrive. The page is read into memory before
// it is merged, so a page whose body stalls or breaks off is simply fetched
// again, within the call's attempt budget; its progress then starts over.
func (s *ResultsService) pageWorkbook(ctx context.Context, resultID int64, p *PageProgress, report func(PageProgress)) ([]byte, error) {
	params := &gen.ExportDashboardPageParams{ExperimentResultId: resultID, PageId: p.Page.Id}
	cl := newCall(gen.OpExportDashboardPage, func(srv string) (*http.Request, error) {
		return gen.NewExportDashboardPageRequest(srv, params)
	})
	var buf bytes.Buffer
	_, err := s.c.do(ctx, cl, func(resp *http.Response) error {
		buf.Reset()
		p.Bytes, p.Size = 0, resp.ContentLength
		report(*p)
		_, err := buf.ReadFrom(&progressReader{r: resp.Body, p: p, report: report})
		return err
	})
	return buf.Bytes(), err
}

// progressReader reports the bytes read through it.
type progressReader struct {
	r      io.Reader
	p      *PageProgress
	report func(PageProgress)
}

func (r *progressReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	if n > 0 {
		r.p.Bytes += int64(n)
		r.report(*r.p)
	}
	return n, err
}

// copySheets streams every sheet of page into the sheet name of out.
func copySheets(out *excelize.File, name string, page *excelize.File) error {
	sw, err := out.NewStreamWriter(name)
	if err != nil {
		return err
	}
	sources := page.GetSheetList()
	row := 1
	for _, src := range sources {
		if len(sources) > 1 {
			if err := setRow(sw, row, []any{src}); err != nil {
				return err
			}
			row++
		}
		if row, err = copyRows(sw, row, page, src); err != nil {
			return fmt.Errorf("sheet %q: %w", src, err)
		}
		if len(sources) > 1 {
			row++ // an empty row between sections
		}
	}
	return sw.Flush()
}

// copyRows copies the rows of sheet src, keeping their positions relative
// to row, and returns the row after the last.
func copyRows(sw *excelize.StreamWriter, row int, page *excelize.File, src string) (int, error) {
	rows, err := page.Rows(src)
	if err != nil {
		return row, err
	}
	defer rows.Close()
	for rows.Next() {
		cols, err := rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return row, err
		}
		if len(cols) > 0 {
			if err := setRow(sw, row, cellValues(cols)); err != nil {
				return row, err
			}
		}
		row++
	}
	return row, rows.Error()
}

func setRow(sw *excelize.StreamWriter, row int, values []any) error {
	cell, err := excelize.CoordinatesToCellName(1, row)
	if err != nil {
		return err
	}
	return sw.SetRow(cell, values)
}

// cellValues turns raw cell values into what the stream writer writes: a
// number when the text is a number written canonically, so "00123" stays
// text, an empty cell as nil.
func cellValues(cols []string) []any {
	out := make([]any, len(cols))
	for i, v := range cols {
		switch f, err := strconv.ParseFloat(v, 64); {
		case v == "":
			out[i] = nil
		case err == nil && strconv.FormatFloat(f, 'f', -1, 64) == v:
			out[i] = f
		default:
			out[i] = v
		}
	}
	return out
}

// sheetNamer gives each page a sheet name Excel accepts: without the
// characters it forbids, at most 31 characters, and unique ignoring case.
type sheetNamer map[string]bool

func (n sheetNamer) name(pageName string, pageID int64) string {
	base := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) {
			return '_'
		}
		return r
	}, strings.Trim(strings.TrimSpace(pageName), "'"))
	if base == "" {
		base = "Page " + strconv.FormatInt(pageID, 10)
	}
	name := truncateRunes(base, maxSheetName)
	for i := 2; n[strings.ToLower(name)]; i++ {
		suffix := " (" + strconv.Itoa(i) + ")"
		name = truncateRunes(base, maxSheetName-utf8.RuneCountInString(suffix)) + suffix
	}
	n[strings.ToLower(name)] = true
	return name
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
