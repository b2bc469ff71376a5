package dashboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/xlsxpage/pagedownload"
)

// A chart's sheet in a page workbook, as the real product lays it out:
// rows 1 to 3 hold "Type:", "Statistics:" and "Chart name:" with their
// values in column B, row 4 is empty, row 5 is the header and the data
// starts at row 6.
const (
	headRows       = 5 // the rows read of a sheet: up to the header
	chartNameRow   = 3
	chartHeaderRow = 5
	chartNameLabel = "Chart name:"
)

// ErrNoChartSheet is the error of [ChartHeader] for a page workbook in
// which no sheet is the chart's.
var ErrNoChartSheet = errors.New("no sheet of the page workbook is the chart's")

// errRowsRead ends the read of a sheet's first rows at the row after them.
var errRowsRead = errors.New("the rows asked for are read")

// ChartHeader reads the names of a chart's columns from the workbook of
// the dashboard page that lists it: the table data of a chart
// (getExperimentRunResultChartTableData) names no columns, the page's
// workbook does, in row 5 of the chart's sheet. page is the page as
// [facade.DashboardsService.Pages] lists it, and chartID one of its
// charts. The chart's sheet is the one whose "Chart name:" (row 3) is the
// chart's name (or, in a sheet without that row, whose sheet name is),
// the n-th of them for the n-th chart of that name on the page; when no
// sheet is named so and the workbook has a sheet per chart, the sheet in
// the chart's place. A sheet without the chart's metadata rows has its
// header in row 1. An empty header cell is "" in the names.
//
// The page's workbook is downloaded whole, within opts' MaxPageBytes, and
// read within its other limits; only the first rows of its sheets are
// read. A page workbook without the chart's sheet is [ErrNoChartSheet]; a
// chart's sheet without its header row (or whose row names no column) is
// [ErrMalformed], naming the sheet and the row.
func ChartHeader(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, page gen.ApiDashboardPage, chartID int64, opts *Options) ([]string, error) {
	lim, err := opts.limits()
	if err != nil {
		return nil, err
	}
	charts := pageCharts(page)
	i := chartIndex(charts, chartID)
	if err := validateHeader(c, resultID, page, i, chartID); err != nil {
		return nil, err
	}
	data, err := pagedownload.Read(ctx, c, resultID, page.Id, lim.pageBytes, nil)
	if err == nil {
		var names []string
		if names, err = readChartHeader(ctx, data, lim, charts, i); err == nil {
			return names, nil
		}
	}
	return nil, fmt.Errorf("dashboard: page %d (%s), chart %d: %w", page.Id, page.Name, chartID, sharedError(err))
}

func validateHeader(c *facade.Client, resultID ids.ExperimentResultID, page gen.ApiDashboardPage, i int, chartID int64) error {
	switch {
	case c == nil:
		return &facade.ValidationError{Operation: opExport, Field: "c", Reason: "is required"}
	case resultID < 0:
		return &facade.ValidationError{Operation: opExport, Field: "experimentResultId", Reason: fmt.Sprintf("must not be negative, got %d", resultID)}
	case i < 0:
		return &facade.ValidationError{Operation: opExport, Field: "chartID",
			Reason: fmt.Sprintf("page %d (%s) lists no chart %d", page.Id, page.Name, chartID)}
	}
	return nil
}

func pageCharts(page gen.ApiDashboardPage) []gen.ApiDashboardChartData {
	if page.Charts == nil {
		return nil
	}
	return *page.Charts
}

// chartIndex is the place of chart id among charts, -1 when it is not
// there.
func chartIndex(charts []gen.ApiDashboardChartData, id int64) int {
	for i, ch := range charts {
		if ch.Id == id {
			return i
		}
	}
	return -1
}

// readChartHeader finds the sheet of chart i of charts, the charts of the
// page whose workbook is data, and returns its header.
func readChartHeader(ctx context.Context, data []byte, lim limits, charts []gen.ApiDashboardChartData, i int) ([]string, error) {
	p, err := openPage(ctx, data, lim)
	if err != nil {
		return nil, err
	}
	sheets, sstPart, err := p.contents()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, readChunk+maxTag)
	sst, err := p.readSharedStrings(ctx, sstPart, buf)
	if err != nil {
		return nil, err
	}
	name, rank := charts[i].Name, sameNameBefore(charts, i)
	for _, src := range sheets {
		h, err := p.readHead(ctx, src, sst, buf)
		if err != nil {
			return nil, err
		}
		if h.isChart(name) {
			if rank == 0 {
				return h.header()
			}
			rank--
		}
	}
	if len(sheets) == len(charts) {
		h, err := p.readHead(ctx, sheets[i], sst, buf)
		if err != nil {
			return nil, err
		}
		return h.header()
	}
	return nil, fmt.Errorf("%w: %d sheets for %d charts, none named %q", ErrNoChartSheet, len(sheets), len(charts), name)
}

// sameNameBefore counts the charts before chart i that have its name.
func sameNameBefore(charts []gen.ApiDashboardChartData, i int) int {
	n := 0
	for _, ch := range charts[:i] {
		if ch.Name == charts[i].Name {
			n++
		}
	}
	return n
}

// sheetHead is the first rows of a worksheet: the text of their cells by
// column, from column A.
type sheetHead struct {
	sheet string
	rows  [headRows][]string
}

// cell is the text of the cell in row and col, both from 1; "" when the
// cell is empty.
func (h *sheetHead) cell(row, col int) string {
	if r := h.rows[row-1]; col <= len(r) {
		return r[col-1]
	}
	return ""
}

// chartName is the value of the sheet's "Chart name:" row; ok is false
// when the sheet has none.
func (h *sheetHead) chartName() (name string, ok bool) {
	if h.cell(chartNameRow, 1) != chartNameLabel {
		return "", false
	}
	return h.cell(chartNameRow, 2), true
}

// isChart reports whether the sheet is that of a chart named name: by its
// "Chart name:" row, or by its sheet name (cut as a sheet name is) when it
// has no such row.
func (h *sheetHead) isChart(name string) bool {
	if got, ok := h.chartName(); ok {
		return got == strings.TrimSpace(name)
	}
	return strings.EqualFold(h.sheet, cutName(trimName(strings.Map(sheetNameRune, name)), maxSheetName))
}

// header is row 5 of a sheet laid out as a chart's, else row 1. A sheet
// without it, or whose row holds no name, has no header: an error matching
// ErrMalformed that names the sheet and the row.
func (h *sheetHead) header() ([]string, error) {
	row := 1
	if _, ok := h.chartName(); ok {
		row = chartHeaderRow
	}
	names := h.rows[row-1]
	if !slices.ContainsFunc(names, func(n string) bool { return n != "" }) {
		return nil, fmt.Errorf("%w: sheet %q, the chart's, has no header: row %d names no column", ErrMalformed, h.sheet, row)
	}
	return names, nil
}

// readHead reads rows 1 to 5 of the worksheet src, and no further: the
// read ends at the first row below them. The text kept counts against
// MaxHeldBytes.
func (p *pageBook) readHead(ctx context.Context, src sourceSheet, sst *sharedStrings, buf []byte) (*sheetHead, error) {
	rc, err := p.open(src.part)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	h := &sheetHead{sheet: src.name}
	s := &sheetCopy{x: newXMLReader(ctx, rc, buf), out: newSheetWriter(io.Discard, nil), lim: p.lim, sst: sst,
		sheet: src.name, base: 1, until: headRows}
	s.keep = func(col int, typ cellKind) error { return p.keepCell(s, h, col, typ) }
	err = s.toSheetData()
	if err == nil && s.t.kind == tagStart {
		err = s.rows()
	}
	if err != nil && !errors.Is(err, errRowsRead) {
		return nil, fmt.Errorf("sheet %q: %w", src.name, err)
	}
	return h, nil
}

// headCellBytes is what a kept cell holds besides its text.
const headCellBytes = 16

// keepCell keeps the text of the cell just read into h: a shared string
// looked up, any other value as the cell holds it, spaces trimmed.
func (p *pageBook) keepCell(s *sheetCopy, h *sheetHead, col int, typ cellKind) error {
	v := s.val
	if typ == typeShared {
		var err error
		if v, err = s.shared(col, v); err != nil {
			return err
		}
	}
	units, ok := textUnits(v)
	switch {
	case !ok:
		return s.x.malformed("cell %s: a text that is not UTF-8, or holds a character XML cannot carry", s.ref(col))
	case units > int(s.lim.cellChars):
		return s.cellTooLong(col, units)
	}
	row := &h.rows[s.row-1]
	if err := p.hold(int64(len(v))+headCellBytes*int64(col-len(*row)), fmt.Sprintf("header rows of sheet %q", h.sheet)); err != nil {
		return err
	}
	for len(*row) < col {
		*row = append(*row, "")
	}
	(*row)[col-1] = strings.TrimSpace(string(v))
	return nil
}
