package resultdata_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/scmodel/scmgo/dashboard/dashboardtest"
	"github.com/scmodel/scmgo/limits"
	"github.com/scmodel/scmgo/resultdata"
)

// FuzzReadPage reads any bytes as a page workbook within small limits: it
// never panics nor hangs, and every error it ends with is the workbook's
// (ErrMalformed) or a limit's (limits.ErrLimit), never another.
func FuzzReadPage(f *testing.F) {
	page := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(numberRowsFrom(6, 3))}}}.Bytes(f)
	shared := workbook(f, nil, sheetRows{name: "Costs", rows: rowsOf(meta("Table", "Costs", "Cost"), [][]any{{"Site", "Cost"}, {"Rome", 1}, {"Oslo", 2}})})
	for _, seed := range [][]byte{page, shared, page[:len(page)/2], shared[:len(shared)-30], {}, []byte("PK\x03\x04"), []byte("PK\x01\x02PK\x05\x06")} {
		f.Add(seed)
	}
	lim := resultdata.Limits{PartBytes: 1 << 20, SharedStringBytes: 256 << 10, TokenBytes: 16 << 10, RowsPerSheet: 2000,
		ColumnsPerRow: 64, Sheets: 50, MergedRanges: 100, NotesPerSheet: 10, PageBytes: 1 << 20, InflatedBytes: 2 << 20,
		Parts: 100, ResultRows: 5000, ResultCells: 20000}
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := &resultdata.Options{Limits: lim, Notes: func(resultdata.Note) {}}
		rows := 0
		for row, err := range resultdata.ReadPage(t.Context(), bytes.NewReader(data), int64(len(data)), resultdata.Page{}, opts) {
			if err != nil {
				if !errorsIsAny(err, resultdata.ErrMalformed, limits.ErrLimit) {
					t.Fatalf("an error that is neither ErrMalformed nor limits.ErrLimit: %v", err)
				}
				return
			}
			if rows++; rows > 5000 {
				t.Fatalf("more rows than ResultRows allows")
			}
			_ = row.Clone()
		}
	})
}

func errorsIsAny(err error, targets ...error) bool {
	for _, target := range targets {
		if errors.Is(err, target) {
			return true
		}
	}
	return false
}
