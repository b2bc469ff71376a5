package dashboard

import (
	"context"
	"fmt"

	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// buffers are the buffers a page's merge reads and writes through, kept
// from page to page.
type buffers struct {
	read  []byte
	write []byte
}

func newBuffers() *buffers {
	return &buffers{read: make([]byte, readChunk+maxTag), write: make([]byte, 0, 2*flushAt)}
}

// mergePage copies the worksheets of the page workbook data into out, the
// page's merged sheet: a workbook of one worksheet cell for cell, one of
// several as sections (a row naming the worksheet, its rows, an empty
// row). Every limit of lim is checked as the parts are read, and the rows
// and cells copied count against the export's budget.
func mergePage(ctx context.Context, data []byte, lim limits, budget *xlsxpage.Budget, out *sheetWriter, bufs *buffers) error {
	p, err := openPage(ctx, data, lim)
	if err != nil {
		return err
	}
	sheets, sstPart, err := p.contents()
	if err != nil {
		return err
	}
	sst, err := p.readSharedStrings(ctx, sstPart, bufs.read)
	if err != nil {
		return err
	}
	row := 1
	for _, src := range sheets {
		s := &sheetCopy{out: out, lim: lim, budget: budget, sst: sst, sheet: src.name}
		if len(sheets) > 1 {
			if err := s.title(row); err != nil {
				return err
			}
			row++
		}
		s.base = row
		last, err := p.copySheet(ctx, s, src, bufs)
		if err != nil {
			return fmt.Errorf("sheet %q: %w", src.name, err)
		}
		row += last
		if len(sheets) > 1 {
			row++ // an empty row between sections
		}
	}
	out.endRow()
	return out.flush(true)
}

// copySheet copies the worksheet src with s.
func (p *pageBook) copySheet(ctx context.Context, s *sheetCopy, src sourceSheet, bufs *buffers) (int, error) {
	rc, err := p.open(src.part)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	s.x = newXMLReader(ctx, rc, bufs.read)
	return s.copyRows()
}

// title writes the row naming the worksheet of a section, at row.
func (s *sheetCopy) title(row int) error {
	if row > WorkbookMaxRows {
		return limitError("MaxRows", WorkbookMaxRows, WorkbookMaxRows, int64(row), fmt.Sprintf("the merged sheet, its sheets one after the other (sheet %q begins at row %d),", s.sheet, row))
	}
	s.out.startRow(row)
	s.row = row
	units, ok := textUnits([]byte(s.sheet))
	if !ok || units > int(s.lim.cellChars) {
		return limitError("MaxCellChars", s.lim.cellChars, WorkbookMaxCellChars, 0, fmt.Sprintf("the name of sheet %.40q", s.sheet))
	}
	err := s.out.text(1, []byte(s.sheet))
	s.out.endRow()
	return err
}
