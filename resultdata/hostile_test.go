package resultdata_test

import (
	"bytes"
	"compress/flate"
	"context"
	"fmt"
	"hash/crc32"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/internal/testkit/heaptest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/dashboard/dashboardtest"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/limits"
	"github.com/scmodel/scmgo/resultdata"
)

// A server that sends hostile page workbooks. Each case asserts the named
// error, that the rows yielded before it are bounded, and (where a page
// could make the reader hold or do much) the heap and time it took.

const mib = 1 << 20

// hostileTime bounds a read that stops early: far above what it takes
// (well under a second under the race detector), so a machine ten times
// slower meets it; the bounds of rows and bytes tell a bounded read from
// an unbounded one.
const hostileTime = 15 * time.Second

// readAll reads a page workbook with opts and returns the rows yielded
// and the error that ended the iteration.
func readAll(ctx context.Context, data []byte, opts *resultdata.Options) (int, error) {
	if opts == nil {
		opts = &resultdata.Options{}
	}
	if opts.Notes == nil {
		opts.Notes = func(resultdata.Note) {}
	}
	rows := 0
	for _, err := range resultdata.ReadPage(ctx, bytes.NewReader(data), int64(len(data)), resultdata.Page{}, opts) {
		if err != nil {
			return rows, err
		}
		rows++
	}
	return rows, nil
}

// chartXML is a sheet in the recorded layout whose data rows are data.
func chartXML(data string) string {
	return dashboardtest.SheetXML(`<row r="1"><c r="A1" t="inlineStr"><is><t>Type:</t></is></c><c r="B1" t="inlineStr"><is><t>Table</t></is></c></row>` +
		`<row r="5"><c r="A5" t="inlineStr"><is><t>Name</t></is></c><c r="B5" t="inlineStr"><is><t>Value</t></is></c></row>` + data)
}

// Rows that all say r="6" are refused as the merge refuses them (rows
// must go down): before, they were read without end past RowsPerSheet.
func TestHostileRowsThatDoNotGoDown(t *testing.T) {
	row := `<row r="6"><c r="A6" t="inlineStr"><is><t>x</t></is></c><c r="B6"><v>1</v></c></row>`
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(strings.Repeat(row, 100000))}}}.Bytes(t)
	rows, err := readAll(testCtx(t), data, nil)
	require.ErrorIs(t, err, resultdata.ErrMalformed)
	require.ErrorIs(t, err, dashboard.ErrMalformed, "one sentinel for both packages")
	assert.Contains(t, err.Error(), "row 6 after row 6: rows must go down")
	assert.Equal(t, 1, rows, "the first row 6 only")
}

// A part named by 20 sheets is read once: the workbook is refused as
// malformed before any sheet is read (it was read 20 times).
func TestHostilePartNamedBySeveralSheets(t *testing.T) {
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(dashboardtest.NumberRows(0))}}}.Bytes(t)
	var sheets strings.Builder
	for i := range 20 {
		fmt.Fprintf(&sheets, `<sheet name="S%d" sheetId="%d" r:id="rId1"/>`, i, i+1)
	}
	data = rewritePart(t, data, "xl/workbook.xml", func(b []byte) []byte {
		s := string(b)
		return []byte(s[:strings.Index(s, "<sheets>")+len("<sheets>")] + sheets.String() + s[strings.Index(s, "</sheets>"):])
	})
	rows, err := readAll(testCtx(t), data, nil)
	require.ErrorIs(t, err, resultdata.ErrMalformed)
	assert.Contains(t, err.Error(), `sheets "S0" and "S1" name the same part xl/worksheets/sheet1.xml`)
	assert.Zero(t, rows)
}

// Every page that is not a readable workbook ends the reading with an
// error matching ErrMalformed: not a zip, half a zip, a sheet whose
// deflate stream is corrupt, a workbook part whose XML is broken.
func TestHostileNotAWorkbook(t *testing.T) {
	good := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(dashboardtest.NumberRows(0))}}}.Bytes(t)
	corrupt := dashboardtest.Book{
		Sheets: []dashboardtest.Sheet{{Name: "Data"}},
		Raw:    []dashboardtest.RawPart{{Name: "xl/worksheets/sheet1.xml", Data: bytes.Repeat([]byte{0xff}, 64), Size: 1000}},
	}.Bytes(t)
	cases := map[string][]byte{
		"not a zip":       []byte("<html>Service unavailable</html>"),
		"half a zip":      good[:len(good)/2],
		"corrupt deflate": corrupt,
		"broken XML":      rewritePart(t, good, "xl/workbook.xml", func(b []byte) []byte { return b[:len(b)/2] }),
		"empty":           {},
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := readAll(testCtx(t), data, nil)
			require.ErrorIs(t, err, resultdata.ErrMalformed)
			assert.NotErrorIs(t, err, limits.ErrLimit)
		})
	}
}

// The end of the context ends the reading at once: no row is yielded
// after it, and the error is the context's.
func TestHostileReadStopsWithTheContext(t *testing.T) {
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(numberRowsFrom(6, 200000))}}}.Bytes(t)
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	rows := 0
	var err error
	for _, e := range resultdata.ReadPage(ctx, bytes.NewReader(data), int64(len(data)), resultdata.Page{}, &resultdata.Options{Notes: func(resultdata.Note) {}}) {
		if err = e; err != nil {
			break
		}
		if rows++; rows == 10 {
			cancel()
		}
	}
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 10, rows, "no row after the cancel")
}

// numberRowsFrom are rows first to first+n-1 of two cells, a text and a
// number.
func numberRowsFrom(first, n int) string {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		fmt.Fprintf(&b, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>r%d</t></is></c><c r="B%d"><v>%d</v></c></row>`, i, i, i, i, i)
	}
	return b.String()
}

// The budget of rows and cells of a result ends the reading with a
// *limits.Error matching ErrResultTooLarge, counted over a whole ReadPage.
func TestHostileResultBudget(t *testing.T) {
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{
		{Name: "A", XML: chartXML(numberRowsFrom(6, 30))}, {Name: "B", XML: chartXML(numberRowsFrom(6, 30))},
	}}.Bytes(t)
	for limit, l := range map[string]resultdata.Limits{"ResultRows": {ResultRows: 40}, "ResultCells": {ResultCells: 80}} {
		t.Run(limit, func(t *testing.T) {
			rows, err := readAll(testCtx(t), data, &resultdata.Options{Limits: l})
			require.ErrorIs(t, err, resultdata.ErrResultTooLarge)
			require.ErrorIs(t, err, limits.ErrLimit)
			var le *limits.Error
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "Limits."+limit, le.Limit)
			assert.Contains(t, err.Error(), "Limits."+limit)
			assert.Equal(t, 40, rows, "the rows within the budget, over both sheets")
		})
	}
	rows, err := readAll(testCtx(t), data, &resultdata.Options{Limits: resultdata.Limits{ResultRows: 60, ResultCells: 120}})
	require.NoError(t, err, "a budget the result fits")
	assert.Equal(t, 60, rows)
}

// Result counts its budget over all the pages of the result: the page
// that goes past it is named.
func TestHostileResultBudgetSpansPages(t *testing.T) {
	c := newFake(t, 3, 2, 4)
	result := runResult(t, c)
	rows := 0
	var err error
	for _, e := range resultdata.Result(testCtx(t), c, result, &resultdata.ResultOptions{Options: resultdata.Options{Limits: resultdata.Limits{ResultRows: 40}}}) {
		if err = e; err != nil {
			break
		}
		rows++
	}
	require.ErrorIs(t, err, resultdata.ErrResultTooLarge)
	assert.Equal(t, 40, rows)
	assert.Contains(t, err.Error(), "Costs", "the second page goes past it")
}

// The limits shared with dashboard: a workbook of more parts, or whose
// parts inflate to more, than the limits is refused before it is read.
func TestHostileSharedLimits(t *testing.T) {
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(numberRowsFrom(6, 100))}}, Extra: 20}.Bytes(t)
	for limit, l := range map[string]resultdata.Limits{"Parts": {Parts: 10}, "InflatedBytes": {InflatedBytes: 2000}} {
		t.Run(limit, func(t *testing.T) {
			rows, err := readAll(testCtx(t), data, &resultdata.Options{Limits: l})
			var le *limits.Error
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "Limits."+limit, le.Limit)
			assert.ErrorIs(t, err, limits.ErrLimit, "the sentinel of every limit, dashboard's and facade's too")
			assert.Zero(t, rows)
		})
	}
}

// A zip bomb: a sheet that inflates to 512 MiB is refused on the size its
// zip declares (InflatedBytes), and one that lies about its size stops
// where its size said it ends, as malformed; within bounded heap and time.
func TestHostileZipBombSheet(t *testing.T) {
	bomb := dashboardtest.Bomb(t, "xl/worksheets/sheet1.xml", `<worksheet><sheetData><row r="6"><c t="inlineStr"><is><t>`, "x", 512*mib, "</t></is></c></row></sheetData></worksheet>")
	honest := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{bomb}}.Bytes(t)
	bomb.Size = mib
	lying := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{bomb}}.Bytes(t)
	for name, tc := range map[string]struct {
		data  []byte
		check func(t *testing.T, err error)
	}{
		"declared": {honest, func(t *testing.T, err error) {
			var le *limits.Error
			require.ErrorAs(t, err, &le)
			assert.Equal(t, "Limits.InflatedBytes", le.Limit)
		}},
		"lying": {lying, func(t *testing.T, err error) { require.ErrorIs(t, err, resultdata.ErrMalformed) }},
	} {
		t.Run(name, func(t *testing.T) {
			var err error
			peak, took := heaptest.Peak(func() { _, err = readAll(testCtx(t), tc.data, nil) })
			tc.check(t, err)
			assert.Less(t, peak, uint64(48*mib), "peak heap growth")
			assert.Less(t, took, hostileTime)
		})
	}
}

// 1 M empty shared strings are held in what they take, four bytes each
// (4 M took 274 MiB as strings counted 16 bytes each): the count of
// SharedStringBytes is the memory allocated.
func TestHostileManyEmptySharedStrings(t *testing.T) {
	const n = 1 << 20
	sst := dashboardtest.Bomb(t, "xl/sharedStrings.xml", `<sst `+dashboardtest.MainNS+`>`, "<si/>   ", n*8, "</sst>")
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(numberRowsFrom(6, 3))}}, Raw: []dashboardtest.RawPart{sst}}.Bytes(t)
	var rows int
	var err error
	peak, _ := heaptest.Peak(func() { rows, err = readAll(testCtx(t), data, nil) })
	require.NoError(t, err)
	assert.Equal(t, 3, rows)
	t.Logf("peak heap growth %.1f MiB", float64(peak)/mib)
	assert.Less(t, peak, uint64(32*mib), "1 M strings of 4 bytes, and the decoder's garbage")

	_, err = readAll(testCtx(t), data, &resultdata.Options{Limits: resultdata.Limits{SharedStringBytes: 2 * mib}})
	var le *limits.Error
	require.ErrorAs(t, err, &le, "1 M strings take more than 2 MiB")
	assert.Equal(t, "Limits.SharedStringBytes", le.Limit)
}

// Result holds a page within PageBytes: a download longer is stopped as it
// goes past, whatever the server says of its length.
func TestHostileResultPageTooLong(t *testing.T) {
	c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/dashboard-pages"):
			fmt.Fprint(w, `[{"id":1,"name":"Data"}]`)
		case strings.HasSuffix(r.URL.Path, "/export-page"):
			w.Header().Set("Content-Type", "application/octet-stream")
			chunk := bytes.Repeat([]byte("PK"), 32<<10)
			for range 512 { // 32 MiB, unless the client stops first
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		default:
			http.NotFound(w, r)
		}
	})
	var err error
	peak, took := heaptest.Peak(func() {
		for _, e := range resultdata.Result(testCtx(t), c, 5, &resultdata.ResultOptions{Options: resultdata.Options{Limits: resultdata.Limits{PageBytes: 2 * mib}}}) {
			if err = e; err != nil {
				break
			}
		}
	})
	var le *limits.Error
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "Limits.PageBytes", le.Limit)
	assert.Contains(t, err.Error(), "page 1 (Data)")
	assert.Less(t, peak, uint64(24*mib), "peak heap growth")
	assert.Less(t, took, hostileTime)
}

// A result that lists no pages is ErrNoPages, not an empty result.
func TestResultWithoutPages(t *testing.T) {
	c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
			fmt.Fprint(w, `[]`)
			return
		}
		http.NotFound(w, r)
	})
	var err error
	for _, e := range resultdata.Result(testCtx(t), c, 5, nil) {
		err = e
	}
	require.ErrorIs(t, err, resultdata.ErrNoPages)
}

// newStub serves handler under /api/v1 and returns a client of it on an
// instant clock, for answers the fake does not give.
func newStub(t testing.TB, handler http.HandlerFunc) *facade.Client {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", handler)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := facade.New(srv.URL+"/api/v1", facade.WithAPIKey("k"), facade.WithClock(faketest.NewInstantClock()))
	require.NoError(t, err)
	return c
}

// The context is checked each time more of a part is read, not only
// between rows yielded: a sheet of 200,000 rows of empty cells, which
// yields none, stops once the context ends.
func TestHostileReadOfNothingStopsWithTheContext(t *testing.T) {
	var rows strings.Builder
	for i := 1; i <= 200000; i++ {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d"/></row>`, i, i)
	}
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(rows.String())}}}.Bytes(t)
	ctx := &armedCtx{Context: testCtx(t), after: 20}
	n, err := readAll(ctx, data, nil)
	require.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, n)
	assert.Less(t, ctx.calls, 40, "it stopped soon after the context ended")
}

// armedCtx is a context whose Err says it was cancelled from its after-th
// call on.
type armedCtx struct {
	context.Context
	after, calls int
}

func (c *armedCtx) Err() error {
	if c.calls++; c.calls >= c.after {
		return context.Canceled
	}
	return nil
}

// Merged ranges cost at most a row's columns per row: a range past
// ColumnsPerRow is refused as a cell there is, ranges that cover the same
// cells (which Excel never writes) are malformed, and the widest ranges a
// sheet may have fill 200 rows of 16,384 columns in bounded time (each row took 268 M steps).
func TestHostileMergedRanges(t *testing.T) {
	sheet := func(merges string) []byte {
		rows := numberRowsFrom(6, 2000) + `<mergeCells>` + merges + `</mergeCells>`
		return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(rows)}}}.Bytes(t)
	}
	var le *limits.Error
	_, err := readAll(testCtx(t), sheet(`<mergeCell ref="A6:ZZZ2005"/>`), nil)
	require.ErrorAs(t, err, &le, "column ZZZ is past XFD")
	assert.Equal(t, "Limits.ColumnsPerRow", le.Limit)

	var overlapping strings.Builder
	for range 50 {
		overlapping.WriteString(`<mergeCell ref="A6:XFD2005"/>`)
	}
	rows, err := readAll(testCtx(t), sheet(overlapping.String()), nil)
	require.ErrorIs(t, err, resultdata.ErrMalformed)
	assert.Contains(t, err.Error(), "merged ranges that cover the same cells")
	assert.Zero(t, rows)

	var took time.Duration
	_, took = heaptest.Peak(func() { rows, err = readAll(testCtx(t), sheet(`<mergeCell ref="B6:XFD205"/>`), nil) })
	require.NoError(t, err)
	assert.Equal(t, 2000, rows)
	assert.Less(t, took, hostileTime)
}

// Result ends with its context too: a page of 200 MiB of rows (within
// every limit) read through a stub server stops at the cancel, no row
// after it, where a Result with a 10 s context ran on past 40 s.
func TestHostileResultStopsWithTheContext(t *testing.T) {
	row := `<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c></row>`
	row = strings.Repeat(" ", 1024-len(row)) + row
	page := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t,
		"xl/worksheets/sheet1.xml", `<worksheet `+dashboardtest.MainNS+`><sheetData>`, row, 200*mib, "</sheetData></worksheet>")}}.Bytes(t)
	c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/dashboard-pages"):
			fmt.Fprint(w, `[{"id":1,"name":"Data"}]`)
		case strings.HasSuffix(r.URL.Path, "/export-page"):
			_, _ = w.Write(page)
		default:
			http.NotFound(w, r)
		}
	})
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	rows := 0
	var err error
	_, took := heaptest.Peak(func() {
		for _, e := range resultdata.Result(ctx, c, 5, &resultdata.ResultOptions{Options: resultdata.Options{Notes: func(resultdata.Note) {}}}) {
			if err = e; err != nil {
				break
			}
			if rows++; rows == 1000 {
				cancel()
			}
		}
	})
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1000, rows, "no row after the cancel")
	assert.Less(t, took, hostileTime)
}

// A styles part of 70,000 number formats, each its own id, is refused past
// Excel's 64,000 cell formats, as malformed, rather than held in a map
// (a part of 256 MiB would make millions of them).
func TestHostileManyNumberFormats(t *testing.T) {
	var styles strings.Builder
	styles.WriteString(`<styleSheet ` + dashboardtest.MainNS + `><numFmts>`)
	for i := range 70000 {
		fmt.Fprintf(&styles, `<numFmt numFmtId="%d" formatCode="yyyy"/>`, 164+i)
	}
	styles.WriteString(`</numFmts></styleSheet>`)
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: chartXML(numberRowsFrom(6, 3))}},
		Raw: []dashboardtest.RawPart{deflated(t, "xl/styles.xml", styles.String())}}.Bytes(t)
	rows, err := readAll(testCtx(t), data, nil)
	require.ErrorIs(t, err, resultdata.ErrMalformed)
	assert.Contains(t, err.Error(), "more than 64000 number formats")
	assert.Zero(t, rows)
}

// deflated is a part of content, deflated, for dashboardtest.Book.Raw.
func deflated(t *testing.T, name, content string) dashboardtest.RawPart {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestSpeed)
	require.NoError(t, err)
	_, err = w.Write([]byte(content))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return dashboardtest.RawPart{Name: name, Data: buf.Bytes(), CRC: crc32.ChecksumIEEE([]byte(content)), Size: uint64(len(content))}
}
