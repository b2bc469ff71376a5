package resultdata

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"

	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/xlsxpage"
	"github.com/scmodel/scmgo/limits"
)

// Page is the dashboard page a page workbook holds: what its rows are
// marked with.
type Page struct {
	ResultID ids.ExperimentResultID // experimentResultId
	ID       ids.PageID             // the page's id
	Name     string                 // the page's name
}

// ReadPage yields the rows of a dashboard page's workbook, as
// exportDashboardPage answers it: a sheet per chart, each laid out as the
// recorded layout says (see the package doc). Rows come chart by chart, in
// the order of the sheets. r holds the workbook's size bytes; opts may be
// nil.
//
// A workbook that cannot be opened (an error matching [ErrMalformed]), or
// is past one of the limits, ends the iteration with an error, as does
// the end of ctx, checked each time more of a part is read; a sheet whose
// XML cannot be read to its end is reported as a [Note] and the next one
// is read.
func ReadPage(ctx context.Context, r io.ReaderAt, size int64, page Page, opts *Options) iter.Seq2[Row, error] {
	base := Chart{ResultID: page.ResultID, PageID: page.ID, Page: page.Name}
	o := opts.orDefaults()
	return readWorkbook(ctx, r, size, base, false, o, newBudget(o.Limits))
}

// ReadMerged yields the rows of a merged dashboard workbook, as
// dashboard.Export writes it: a sheet per page, named after the page,
// holding the charts of the page's workbook one after the other, each
// under a row naming its sheet (a page of one chart has no such row). Each
// row is marked with resultID, and with its page's sheet name as the
// page's name; its PageID is 0, as the workbook does not say. opts may be
// nil. It reads as [ReadPage] does.
func ReadMerged(ctx context.Context, r io.ReaderAt, size int64, resultID ids.ExperimentResultID, opts *Options) iter.Seq2[Row, error] {
	o := opts.orDefaults()
	return readWorkbook(ctx, r, size, Chart{ResultID: resultID}, true, o, newBudget(o.Limits))
}

// newBudget is the budget of rows and cells of one result.
func newBudget(l Limits) *xlsxpage.Budget { return xlsxpage.NewBudget(l.ResultRows, l.ResultCells) }

func readWorkbook(ctx context.Context, r io.ReaderAt, size int64, base Chart, sections bool, o Options, budget *xlsxpage.Budget) iter.Seq2[Row, error] {
	return func(yield func(Row, error) bool) {
		wb, err := openWorkbook(ctx, r, size, o.Limits)
		if err != nil {
			yield(Row{}, err)
			return
		}
		var spent error
		counted := func(row Row, err error) bool {
			if ctx.Err() != nil {
				spent = context.Cause(ctx)
				return false
			}
			if spent = sharedError(budget.Row(len(row.Values))); spent != nil {
				return false
			}
			return yield(row, err)
		}
		for _, ref := range wb.sheets {
			b := base
			b.Sheet = ref.name
			if sections {
				b.Page = ref.name
			}
			more, err := wb.readSheet(ref, b, sections, o, counted)
			if err = cmp.Or(spent, err); err != nil {
				yield(Row{}, err)
				return
			}
			if !more {
				return
			}
		}
	}
}

// readSheet yields the rows of one sheet; false when yield asked to stop.
// A limit is an error; a sheet that cannot be read to its end is noted.
func (wb *workbook) readSheet(ref sheetRef, base Chart, sections bool, o Options, yield func(Row, error) bool) (bool, error) {
	notes := &noter{emit: o.Notes, page: base.Page, sheet: ref.name, limit: o.Limits.NotesPerSheet}
	defer notes.close()
	r := &sheetReader{opts: o, wb: wb, notes: notes, sections: sections, base: base, yield: yield}
	m, err := wb.merges(ref, notes)
	if err == nil {
		var sc *sheetScanner
		if sc, err = wb.scanSheet(ref); err == nil {
			defer sc.close()
			var more bool
			if more, err = r.scan(sc, m); !more {
				return false, nil
			}
		}
	}
	if fatal(err) || wb.ctx.Err() != nil {
		return false, cmp.Or(context.Cause(wb.ctx), err)
	}
	if err != nil {
		notes.add(Note{Kind: Unreadable, Chart: r.chartLabel(), Cells: unreadFrom(r.lastRow), Read: ReadPart,
			Text: fmt.Sprintf("the sheet could not be read from here on (%v); the rows before were read", err)})
	}
	return r.end(), nil
}

// fatal tells an error that ends the reading of the workbook, not only
// of the sheet: a limit, the context's end, a workbook that is not one.
func fatal(err error) bool {
	var le *limits.Error
	return errors.As(err, &le) || errors.Is(err, ErrMalformed) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

func unreadFrom(last int64) string {
	if last == 0 {
		return ""
	}
	return fmt.Sprintf("after row %d", last)
}

// merges finds a sheet's merged ranges and notes each; nil when none.
func (wb *workbook) merges(ref sheetRef, notes *noter) (*merger, error) {
	ranges, err := wb.mergedRanges(ref)
	if err != nil || len(ranges) == 0 {
		return nil, err
	}
	for _, rg := range ranges {
		notes.add(Note{Kind: Merged, Cells: rg.ref, Read: ReadAll,
			Text: fmt.Sprintf("merged cells: the value of %s, when it has one, is read in each of them", cellName(rg.col1, rg.row1))})
	}
	return &merger{pending: ranges, columns: wb.lim.ColumnsPerRow}, nil
}

// scan feeds the sheet's rows with cells to the layout; false when yield
// asked to stop.
func (r *sheetReader) scan(sc *sheetScanner, m *merger) (bool, error) {
	for {
		ok, err := sc.next()
		if err != nil || !ok {
			return true, err
		}
		cells := sc.cells
		if m != nil {
			var err error
			if cells, err = m.fill(sc.row, cells); err != nil {
				return true, err
			}
			sc.cells = cells
		}
		if !slices.IsSortedFunc(cells, func(a, b cell) int { return a.col - b.col }) {
			slices.SortStableFunc(cells, func(a, b cell) int { return a.col - b.col })
		}
		if len(cells) > 0 && !r.line(sc.row, cells) {
			return false, nil
		}
	}
}
