package resultdata

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// cellRange is a merged range of a sheet, 0-based columns and 1-based rows.
type cellRange struct {
	col1, col2 int
	row1, row2 int64
	ref        string
	top        Value // the value of its first cell, once read
}

// mergedRanges finds a sheet's merged ranges. A sheet lists them after its
// rows, so they are looked for before the rows are read: the part is
// scanned for mergeCell elements as bytes, without decoding its XML.
func (wb *workbook) mergedRanges(ref sheetRef) ([]*cellRange, error) {
	p, err := wb.open(ref.part)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	br := p.src
	var out []*cellRange
	for {
		_, err := br.ReadSlice('<')
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		if err != nil || !isMergeCell(br) {
			continue
		}
		tag, err := br.ReadSlice('>')
		if err != nil {
			return nil, errors.New(ref.part + ": a mergeCell element does not end")
		}
		r, ok := parseRange(tagAttr(tag, "ref"))
		if !ok {
			continue
		}
		if r.col2 >= wb.lim.ColumnsPerRow {
			return nil, limitError("ColumnsPerRow", int64(wb.lim.ColumnsPerRow), int64(r.col2)+1, "columns", fmt.Sprintf("merged range %s of sheet %s, reaching column %d,", r.ref, ref.name, r.col2+1))
		}
		if len(out) >= wb.lim.MergedRanges {
			return nil, limitError("MergedRanges", int64(wb.lim.MergedRanges), 0, "merged ranges", "the merged ranges of sheet "+ref.name)
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *cellRange) int { return int(a.row1 - b.row1) })
	return out, nil
}

// isMergeCell tells whether the element after the '<' just read is a
// mergeCell, whatever its prefix.
func isMergeCell(br *bufio.Reader) bool {
	head, _ := br.Peek(32)
	if i := bytes.IndexByte(head, ':'); i >= 0 && i < 16 && !bytes.ContainsAny(head[:i], " />") {
		head = head[i+1:]
	}
	const name = "mergeCell"
	return len(head) > len(name) && string(head[:len(name)]) == name && strings.IndexByte(" \t\r\n/", head[len(name)]) >= 0
}

// tagAttr finds an attribute's value in the text of a tag.
func tagAttr(tag []byte, name string) string {
	for i := 0; ; {
		j := bytes.Index(tag[i:], []byte(name+"="))
		if j < 0 {
			return ""
		}
		j += i
		if j == 0 || strings.IndexByte(" \t\r\n", tag[j-1]) < 0 {
			i = j + 1
			continue
		}
		rest := tag[j+len(name)+1:]
		if len(rest) == 0 || (rest[0] != '"' && rest[0] != '\'') {
			return ""
		}
		end := bytes.IndexByte(rest[1:], rest[0])
		if end < 0 {
			return ""
		}
		return string(rest[1 : 1+end])
	}
}

// parseRange reads a range such as "A7:C9".
func parseRange(ref string) (*cellRange, bool) {
	a, b, ok := strings.Cut(ref, ":")
	if !ok {
		b = a
	}
	c1, r1, ok1 := parseCellRef(a)
	c2, r2, ok2 := parseCellRef(b)
	if !ok1 || !ok2 || r1 == 0 || r2 == 0 || c2 < c1 || r2 < r1 {
		return nil, false
	}
	return &cellRange{col1: c1, col2: c2, row1: r1, row2: r2, ref: ref}, true
}

// merger fills the cells of merged ranges, row by row, with the value of
// each range's first cell.
type merger struct {
	pending []*cellRange // ranges not started yet, by first row
	active  []*cellRange
	columns int     // ColumnsPerRow: no range goes past it
	at      []int32 // by column: 1 + the index of the row's cell there, 0 for none
}

// fill adds to the cells of row the values of the merged ranges covering
// it, keeping the cells in column order. Ranges that cover the same cell
// are malformed, as Excel makes none: the ranges of a row, together, are
// no wider than the row, so filling it costs at most ColumnsPerRow steps.
func (m *merger) fill(row int64, cells []cell) ([]cell, error) {
	for len(m.pending) > 0 && m.pending[0].row1 <= row {
		m.active = append(m.active, m.pending[0])
		m.pending = m.pending[1:]
	}
	m.active = slices.DeleteFunc(m.active, func(r *cellRange) bool { return r.row2 < row })
	width := 0
	for _, r := range m.active {
		if width += r.col2 - r.col1 + 1; width > m.columns {
			return cells, fmt.Errorf("%w: row %d: merged ranges that cover the same cells (%s among them)", ErrMalformed, row, r.ref)
		}
	}
	if m.at == nil {
		m.at = make([]int32, m.columns)
	}
	for i := len(cells) - 1; i >= 0; i-- { // the first cell of a column wins
		m.at[cells[i].col] = int32(i + 1)
	}
	n := len(cells)
	for _, r := range m.active {
		if i := m.at[r.col1]; r.row1 == row && i > 0 {
			r.top = cells[i-1].v
		}
		if r.top.Kind == Empty {
			continue
		}
		for col := r.col1; col <= r.col2; col++ {
			if (row != r.row1 || col != r.col1) && m.at[col] == 0 {
				cells = append(cells, cell{col: col, v: r.top})
				m.at[col] = int32(len(cells))
			}
		}
	}
	for _, c := range cells {
		m.at[c.col] = 0
	}
	if len(cells) > n {
		slices.SortFunc(cells, func(a, b cell) int { return a.col - b.col })
	}
	return cells, nil
}
