package dashboard

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/dashboard/dashboardtest"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/internal/testkit/ziptest"
	scmlimits "github.com/scmodel/scmgo/limits"
)

// A server that sends hostile page workbooks. Each case asserts that the
// export ends with the error that names the page, the limit and how to
// raise it (or what is wrong), within bounded memory and time, with no
// temporary file left, and with nothing silently wrong: w never holds a
// whole workbook after an error.

const (
	mib = 1 << 20
	gib = 1 << 30
	// hostileHeap bounds the heap growth of an export of one hostile page:
	// the page (a few MiB), the merge's buffers and compressor, the client.
	hostileHeap = 48 * mib
	// hostileTime bounds the time of an export that stops early: far more
	// than it takes (at most 0.8 s under the race detector, so a machine
	// ten times slower still meets it); the bounds of bytes are what tell
	// it from reading what the page inflates to.
	hostileTime = 15 * time.Second
)

// exportHostile exports the result of c with opts, measuring it, and
// returns the error and what was written.
func exportHostile(t *testing.T, c *facade.Client, opts *Options) (bounds, []byte, error) {
	t.Helper()
	var out bytes.Buffer
	var err error
	b := measured(t, func() { err = Export(testCtx(t), c, 5, &out, opts) })
	return b, out.Bytes(), err
}

// checkCutOff asserts that w holds no whole workbook.
func checkCutOff(t *testing.T, out []byte) {
	t.Helper()
	_, err := zip.NewReader(bytes.NewReader(out), int64(len(out)))
	assert.Error(t, err, "a workbook cut off is no zip")
}

// checkLimit asserts err is the *limits.Error of the option limit, naming
// page 1 (Data) and what went past it.
func checkLimit(t *testing.T, err error, limit string, max int64, fixed bool, what string) {
	t.Helper()
	var lerr *scmlimits.Error
	require.ErrorAs(t, err, &lerr)
	assert.Equal(t, "Options."+limit, lerr.Limit)
	assert.Equal(t, max, lerr.Max)
	assert.Equal(t, fixed, lerr.Fixed)
	assert.Equal(t, "dashboard", lerr.Package)
	assert.NotEmpty(t, lerr.Unit, "what %s counts", limit)
	assert.ErrorIs(t, err, scmlimits.ErrLimit)
	assert.Contains(t, err.Error(), "dashboard: page 1 (Data): ")
	assert.Contains(t, err.Error(), what)
	if fixed {
		assert.Contains(t, err.Error(), "the most a workbook holds")
	} else {
		assert.Contains(t, err.Error(), "exceeds dashboard's Options."+limit+" ("+strconv.FormatInt(max, 10)+" "+lerr.Unit+"): raise it")
	}
}

// Finding 1: a page that is a zip bomb. A part whose size, as the zip
// says, goes past MaxInflatedBytes is refused before it is inflated; one
// that lies about its size stops where its size said it ends; a table of
// shared strings is held only up to MaxHeldBytes; a page of too many
// parts, or too long a download, is refused before it is read.
func TestHostileZipBombPage(t *testing.T) {
	sheet := `<worksheet ` + dashboardtest.MainNS + `><sheetData><row r="1"><c r="A1"><v>1</v></c></row>`
	for name, tc := range map[string]struct {
		book  func(t *testing.T) dashboardtest.Book
		opts  *Options
		check func(t *testing.T, err error)
	}{
		"a page of 1 MiB whose sheet inflates to 1 GiB": {
			book: func(t *testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: ""}}, Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t, "xl/worksheets/sheet1.xml", sheet, " ", gib, "</sheetData></worksheet>")}}
			},
			check: func(t *testing.T, err error) {
				checkLimit(t, err, "MaxInflatedBytes", 256*mib, false, "its workbook, inflated (by part xl/worksheets/sheet1.xml),")
			},
		},
		"a sheet that says it is 1 MiB and inflates to 1 GiB": {
			book: func(t *testing.T) dashboardtest.Book {
				p := dashboardtest.Bomb(t, "xl/worksheets/sheet1.xml", sheet, " ", gib, "</sheetData></worksheet>")
				p.Size = mib
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: ""}}, Raw: []dashboardtest.RawPart{p}}
			},
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, zip.ErrFormat, "the zip reader stops where the part said it ends")
				assert.ErrorIs(t, err, ErrMalformed, "a part that lies about its size is no readable workbook")
				assert.Contains(t, err.Error(), `dashboard: page 1 (Data): sheet "Data": malformed page workbook: part xl/worksheets/sheet1.xml: zip: not a valid zip file`)
			},
		},
		"a part that says it inflates to 1 GiB, refused before it is inflated": {
			book: func(*testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}},
					Raw: []dashboardtest.RawPart{{Name: "xl/worksheets/sheet1.xml", Data: []byte("no deflate stream"), Size: gib}}}
			},
			check: func(t *testing.T, err error) {
				checkLimit(t, err, "MaxInflatedBytes", 256*mib, false, "its workbook, inflated (by part xl/worksheets/sheet1.xml),")
			},
		},
		"shared strings inflating to 1 GiB": {
			book: func(t *testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(3))}},
					Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t, "xl/sharedStrings.xml", `<sst `+dashboardtest.MainNS+`><si><t>`, "a", gib, "</t></si></sst>")}}
			},
			check: func(t *testing.T, err error) {
				checkLimit(t, err, "MaxInflatedBytes", 256*mib, false, "its workbook, inflated (by part xl/sharedStrings.xml),")
			},
		},
		"shared strings held past MaxHeldBytes": {
			book: func(t *testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(3))}},
					Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t, "xl/sharedStrings.xml", `<sst `+dashboardtest.MainNS+`><si><t>`, "a", 200*mib, "</t></si></sst>")}}
			},
			opts: &Options{MaxHeldBytes: 8 * mib},
			check: func(t *testing.T, err error) {
				checkLimit(t, err, "MaxHeldBytes", 8*mib, false, "shared strings (xl/sharedStrings.xml): the text held")
			},
		},
		"a page of 20,000 parts": {
			book: func(*testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(3))}}, Extra: 20000}
			},
			check: func(t *testing.T, err error) {
				checkLimit(t, err, "MaxParts", 10000, false, "its workbook, of 20004 parts or more,")
			},
		},
	} {
		t.Run(name, func(t *testing.T) {
			data := tc.book(t).Bytes(t)
			require.Less(t, len(data), 3*mib, "a small page")
			b, out, err := exportHostile(t, onePage(t, data), tc.opts)
			tc.check(t, err)
			b.within(t, hostileHeap, hostileTime)
			checkCutOff(t, out)
		})
	}
}

// Finding 1: a page whose download is longer than MaxPageBytes, which
// would be held whole: refused on its Content-Length before it is read, or
// stopped as soon as it goes past when it has none.
func TestHostilePageDownloadTooLong(t *testing.T) {
	for name, withLength := range map[string]bool{"announced": true, "not announced": false} {
		t.Run(name, func(t *testing.T) {
			var served atomic.Int64
			c := bookStub(t, `[{"id":1,"name":"Data"}]`, func(w http.ResponseWriter, _ string) {
				const size = 512 * mib
				if withLength {
					w.Header().Set("Content-Length", strconv.Itoa(size))
				}
				chunk := make([]byte, 64<<10)
				for served.Load() < size {
					if _, err := w.Write(chunk); err != nil {
						return
					}
					served.Add(int64(len(chunk)))
				}
			})
			var received int64
			b, out, err := exportHostile(t, c, &Options{MaxPageBytes: 8 * mib, Progress: func(p Progress) { received = max(received, p.Bytes) }})
			checkLimit(t, err, "MaxPageBytes", 8*mib, false, "its workbook's download")
			if withLength {
				assert.Zero(t, received, "a download announced too long is refused before a byte of it is read")
			}
			// A download whose length is not announced is read into a buffer
			// that doubles as it grows, to 16 MiB for the 8 it may hold: with
			// the garbage of its growth not yet collected, the heap grew by
			// 40–52 MiB under the race detector (48 was exceeded about once
			// in forty runs), against the 512 MiB an unbounded read would take.
			heap := uint64(hostileHeap)
			if !withLength {
				heap = 64 * mib
			}
			b.within(t, heap, hostileTime)
			checkCutOff(t, out)
			assert.Less(t, served.Load(), int64(128*mib), "the download stops soon after the limit")
		})
	}
}

// Finding 1: a cell of 1 GiB, or of more than the 32,767 characters a cell
// holds, is an error naming the cell, never a cell cut short; so is a text
// longer than a MaxCellChars set lower.
func TestHostileHugeCell(t *testing.T) {
	big := strings.Repeat("ab", 20000)
	for name, tc := range map[string]struct {
		book  func(t *testing.T) dashboardtest.Book
		opts  *Options
		limit string
		max   int64
		what  string
	}{
		"a text of 1 GiB": {
			book: func(t *testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: ""}}, Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t, "xl/worksheets/sheet1.xml",
					`<worksheet `+dashboardtest.MainNS+`><sheetData><row r="1"><c r="B1" t="inlineStr"><is><t>`, "a", gib, "</t></is></c></row></sheetData></worksheet>")}}
			},
			opts: &Options{MaxInflatedBytes: 2 * gib}, limit: "MaxCellChars", max: 32767, what: `sheet "Data": the value of cell B1 exceeds 32767`,
		},
		"a number of 1 GiB": {
			book: func(t *testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: ""}}, Raw: []dashboardtest.RawPart{dashboardtest.Bomb(t, "xl/worksheets/sheet1.xml",
					`<worksheet `+dashboardtest.MainNS+`><sheetData><row r="1"><c r="C1"><v>`, "1", gib, "</v></c></row></sheetData></worksheet>")}}
			},
			opts: &Options{MaxInflatedBytes: 2 * gib}, limit: "MaxCellChars", max: 32767, what: `sheet "Data": the value of cell C1 exceeds 32767`,
		},
		"an inline text of 40,000 characters": {
			book: func(*testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="2"><c r="A2" t="inlineStr"><is><t>` + big + `</t></is></c></row>`)}}}
			},
			limit: "MaxCellChars", max: 32767, what: `sheet "Data": the value of cell A2, 40000 characters, exceeds 32767`,
		},
		"a shared string of 40,000 characters": {
			book: func(*testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="2"><c r="A2" t="s"><v>1</v></c></row>`)}},
					SST: `<sst ` + dashboardtest.MainNS + `><si><t>short</t></si><si><r><t>` + big[:20000] + `</t></r><r><t>` + big[20000:] + `</t></r></si></sst>`}
			},
			limit: "MaxCellChars", max: 32767, what: `sheet "Data": the value of cell A2, 40000 characters, exceeds 32767`,
		},
		"40,000 characters as 20,000 emoji (UTF-16 pairs)": {
			book: func(*testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="2"><c r="A2" t="inlineStr"><is><t>` + strings.Repeat("😀", 20000) + `</t></is></c></row>`)}}}
			},
			limit: "MaxCellChars", max: 32767, what: `the value of cell A2, 40000 characters, exceeds 32767`,
		},
		"a text longer than MaxCellChars set lower": {
			book: func(*testing.T) dashboardtest.Book {
				return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="2"><c r="A2" t="inlineStr"><is><t>` + strings.Repeat("x", 101) + `</t></is></c></row>`)}}}
			},
			opts: &Options{MaxCellChars: 100}, limit: "MaxCellChars", max: 100, what: `the value of cell A2, 101 characters,`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			data := tc.book(t).Bytes(t)
			require.Less(t, len(data), 2*mib, "a small page")
			b, out, err := exportHostile(t, onePage(t, data), tc.opts)
			checkLimit(t, err, tc.limit, tc.max, tc.max == WorkbookMaxCellChars, tc.what)
			b.within(t, hostileHeap, hostileTime)
			checkCutOff(t, out)
		})
	}
}

// A text of exactly 32,767 characters is copied whole, emoji pairs counted
// as Excel counts them, and _xHHHH_ escapes as the one character each
// stands for.
func TestCellOfTheMostCharacters(t *testing.T) {
	texts := map[string]string{
		"letters": strings.Repeat("x", 32767),
		"emoji":   strings.Repeat("😀", 16383) + "x",
		"escapes": strings.Repeat("_x000D_", 32767),
	}
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="1"><c r="A1" t="inlineStr"><is><t>` + text + `</t></is></c></row>`)}}}.Bytes(t)
			var out bytes.Buffer
			require.NoError(t, Export(testCtx(t), onePage(t, data), 5, &out, nil))
			merged, err := excelize.OpenReader(&out)
			require.NoError(t, err)
			defer merged.Close()
			got, err := merged.GetCellValue("Data", "A1", excelize.Options{RawCellValue: true})
			require.NoError(t, err)
			want := text
			if name == "escapes" {
				want = strings.Repeat("\r", 32767)
			}
			assert.Equal(t, want, got, "the whole text")
		})
	}
}

// Finding 1: rows and columns past what a sheet holds, or past MaxRows and
// MaxColumns set lower, are errors naming the row or cell; so are the
// sections of a page's sheets that together go past a sheet's rows.
func TestHostileRowsAndColumns(t *testing.T) {
	for name, tc := range map[string]struct {
		Sheets []dashboardtest.Sheet
		opts   *Options
		limit  string
		max    int64
		what   string
	}{
		"row 1,048,577": {Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="1048577"><c r="A1048577"><v>1</v></c></row>`)}},
			limit: "MaxRows", max: WorkbookMaxRows, what: `sheet "Data": row 1048577`},
		"a row above MaxRows": {Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(11))}}, opts: &Options{MaxRows: 10},
			limit: "MaxRows", max: 10, what: `sheet "Data": row 11`},
		"column 16,385": {Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="1"><c r="XFE1"><v>1</v></c></row>`)}},
			limit: "MaxColumns", max: WorkbookMaxColumns, what: `sheet "Data": cell XFE1, in column 16385,`},
		"16,385 cells without positions": {Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="1">` + strings.Repeat(`<c><v>1</v></c>`, 16385) + `</row>`)}},
			limit: "MaxColumns", max: WorkbookMaxColumns, what: `cell XFE1, in column 16385,`},
		"a column above MaxColumns": {Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(`<row r="1"><c r="D1"><v>1</v></c></row>`)}}, opts: &Options{MaxColumns: 3},
			limit: "MaxColumns", max: 3, what: `cell D1, in column 4,`},
		"sections past a sheet's rows": {
			Sheets: []dashboardtest.Sheet{{Name: "One", XML: dashboardtest.SheetXML(`<row r="600000"><c r="A600000"><v>1</v></c></row>`)}, {Name: "Two", XML: dashboardtest.SheetXML(`<row r="600000"><c r="A600000"><v>1</v></c></row>`)}},
			limit:  "MaxRows", max: WorkbookMaxRows, what: `the merged sheet, its sheets one after the other (row 600000 is row 1200003)`},
	} {
		t.Run(name, func(t *testing.T) {
			b, out, err := exportHostile(t, onePage(t, dashboardtest.Book{Sheets: tc.Sheets}.Bytes(t)), tc.opts)
			checkLimit(t, err, tc.limit, tc.max, tc.max == WorkbookMaxRows || tc.max == WorkbookMaxColumns, tc.what)
			b.within(t, hostileHeap, hostileTime)
			checkCutOff(t, out)
		})
	}
}

// Finding 9: a page whose sheet XML breaks off (the zip whole, the XML
// cut) is an error, never a sheet merged with the rows before the cut;
// and so is a sheet whose XML is not what a workbook writes.
func TestHostileBrokenSheetXML(t *testing.T) {
	whole := dashboardtest.SheetXML(dashboardtest.NumberRows(50))
	at := strings.Index(whole, `<row r="25"`)
	for name, tc := range map[string]struct {
		xml  string
		want string
	}{
		"cut after 24 of 50 rows":          {whole[:at], "the XML breaks off after row 24, before the end of the rows (sheetData)"},
		"cut within a tag":                 {whole[:at+7], "the XML breaks off in a tag"},
		"cut within a value":               {whole[:strings.Index(whole, `25.5`)+2], "the XML breaks off in a value"},
		"cut after the rows":               {whole[:strings.Index(whole, `</sheetData>`)+len(`</sheetData>`)], "the XML breaks off after the rows, before the end of the worksheet"},
		"no end of the worksheet":          {strings.TrimSuffix(whole, "</worksheet>"), "the XML breaks off after the rows, before the end of the worksheet"},
		"rows going up":                    {dashboardtest.SheetXML(`<row r="2"><c r="A2"><v>1</v></c></row><row r="1"><c r="A1"><v>1</v></c></row>`), "row 1 after row 2: rows must go down"},
		"cells going left":                 {dashboardtest.SheetXML(`<row r="1"><c r="B1"><v>1</v></c><c r="A1"><v>1</v></c></row>`), "row 1: cell A1 after cell B1: cells must go right"},
		"a cell in another row":            {dashboardtest.SheetXML(`<row r="1"><c r="A2"><v>1</v></c></row>`), `row 1: a cell at "A2"`},
		"an unknown cell type":             {dashboardtest.SheetXML(`<row r="1"><c r="A1" t="x"><v>1</v></c></row>`), `cell A1: the type "x"`},
		"a shared string not in the table": {dashboardtest.SheetXML(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`), `cell A1: shared string "0" of 0`},
		"an unknown entity":                {dashboardtest.SheetXML(`<row r="1"><c r="A1" t="inlineStr"><is><t>&nbsp;</t></is></c></row>`), "the entity &nbsp;, which XML does not define"},
		"a DTD":                            {`<!DOCTYPE worksheet [<!ENTITY a "aaaa">]>` + whole, "a DTD or declaration"},
		"text after the worksheet":         {whole + "junk", "text after the root element"},
		"a control character":              {dashboardtest.SheetXML(`<row r="1"><c r="A1" t="inlineStr"><is><t>a&#1;b</t></is></c></row>`), "the character reference &#1;, which is no XML character"},
		"no rows element":                  {`<worksheet ` + dashboardtest.MainNS + `></worksheet>`, "the worksheet has no rows element (sheetData)"},
		"another root element":             {`<sst ` + dashboardtest.MainNS + `/>`, "the root element is not the one expected"},
	} {
		t.Run(name, func(t *testing.T) {
			b, out, err := exportHostile(t, onePage(t, dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: tc.xml}}}.Bytes(t)), nil)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrMalformed)
			assert.Contains(t, err.Error(), `dashboard: page 1 (Data): sheet "Data": `)
			assert.Contains(t, err.Error(), tc.want)
			b.within(t, hostileHeap, hostileTime)
			checkCutOff(t, out)
		})
	}
}

// Finding 1: a cancelled context, or a deadline that passes, stops the
// merge of a page where it is, and the next page is not fetched: within a
// page of a million rows (1 MiB inflating to 120 MiB), and within 120 MiB
// of a part that is no rows, which the merge reads past. The context is
// cancelled on the 20th time the merge asks it once the page is merging,
// so that the test does not hang on time.
func TestHostileMergeStopsOnCancel(t *testing.T) {
	row := `<row><c t="inlineStr"><is><t>x</t></is></c><c><v>1</v></c></row>`
	row = strings.Repeat(" ", 128-len(row)) + row
	for name, part := range map[string]dashboardtest.RawPart{
		"a million rows": dashboardtest.Bomb(t, "xl/worksheets/sheet1.xml",
			`<worksheet `+dashboardtest.MainNS+`><sheetData>`, row, 120*mib, "</sheetData></worksheet>"),
		"120 MiB read past": dashboardtest.Bomb(t, "xl/worksheets/sheet1.xml",
			`<worksheet `+dashboardtest.MainNS+`><sheetData/><extLst><ext>`, "z", 120*mib, "</ext></extLst></worksheet>"),
	} {
		t.Run(name, func(t *testing.T) { stopsOnCancel(t, part) })
	}
}

// armedCtx is a context that is cancelled, with cause errStopped, on the
// after-th call of Err once armed.
type armedCtx struct {
	context.Context
	armed atomic.Bool
	calls atomic.Int64
	after int64
	once  sync.Once
	done  chan struct{}
}

var errStopped = errors.New("stopped by the caller")

func (c *armedCtx) Err() error {
	if c.armed.Load() && c.calls.Add(1) >= c.after {
		c.once.Do(func() { close(c.done) })
		return errStopped
	}
	return c.Context.Err()
}

func (c *armedCtx) Done() <-chan struct{} { return c.done }

func stopsOnCancel(t *testing.T, part dashboardtest.RawPart) {
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{part}}.Bytes(t)
	require.Less(t, len(data), mib)
	var mu sync.Mutex
	fetched := map[string]int{}
	c := bookStub(t, `[{"id":1,"name":"Data"},{"id":2,"name":"More"}]`, func(w http.ResponseWriter, page string) {
		mu.Lock()
		fetched[page]++
		mu.Unlock()
		_, _ = w.Write(data)
	})
	ctx := &armedCtx{Context: testCtx(t), after: 20, done: make(chan struct{})}
	var out bytes.Buffer
	var err error
	var stages []string
	b := measured(t, func() {
		err = Export(ctx, c, 5, &out, &Options{Progress: func(p Progress) {
			stages = append(stages, fmt.Sprintf("%d %s", p.Index, p.Stage))
			if p.Stage == Merging {
				ctx.armed.Store(true)
			}
		}})
	})
	require.ErrorIs(t, err, errStopped)
	assert.Contains(t, err.Error(), "dashboard: page 1 (Data): ")
	assert.Equal(t, []string{"1 downloading", "1 merging"}, slices.Compact(stages), "the merge stopped within page 1")
	b.within(t, hostileHeap, hostileTime)
	checkCutOff(t, out.Bytes())
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 1, fetched["1"])
}

// A context cancelled between two pages ends the export before the next
// page is merged, naming it; the download of that page, begun while the
// page before was merged, ends with it.
func TestHostileCancelBetweenPages(t *testing.T) {
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(3))}}}.Bytes(t)
	var more atomic.Int32
	c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/dashboard-pages"):
			_, _ = w.Write([]byte(`[{"id":1,"name":"Data"},{"id":2,"name":"More"}]`))
		case r.URL.Query().Get("pageId") == "1":
			_, _ = w.Write(data)
		default: // page 2 answers only once the client gives up
			more.Add(1)
			<-r.Context().Done()
		}
	})
	ctx, cancel := context.WithCancelCause(testCtx(t))
	var stages []string
	var out bytes.Buffer
	err := Export(ctx, c, 5, &out, &Options{Progress: func(p Progress) {
		stages = append(stages, fmt.Sprintf("%d %s", p.Index, p.Stage))
		if p.Stage == Written {
			cancel(errStopped)
		}
	}})
	assert.ErrorIs(t, err, errStopped)
	assert.EqualError(t, err, "dashboard: before page 2 (More): stopped by the caller")
	assert.Equal(t, []string{"1 downloading", "1 merging", "1 written"}, slices.Compact(stages))
	assert.LessOrEqual(t, more.Load(), int32(1), "page 2 is asked for once at most, while page 1 merges")
	checkCutOff(t, out.Bytes())
}

// goexitOn ends the goroutine of the request for a page's export, as a
// transport that simulates a crash does.
type goexitOn struct {
	next http.RoundTripper
	page string
}

func (g goexitOn) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Query().Get("pageId") == g.page {
		runtime.Goexit()
	}
	return g.next.RoundTrip(r)
}

// A page downloaded ahead, whose download's goroutine ends before its
// answer (a transport ended it), fails the export naming the page; the
// export does not wait for it forever.
func TestExportSurvivesADownloadGoroutineThatEnds(t *testing.T) {
	data := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(3))}}}.Bytes(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
			_, _ = w.Write([]byte(`[{"id":1,"name":"Data"},{"id":2,"name":"More"}]`))
			return
		}
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	transport := goexitOn{next: http.DefaultTransport.(*http.Transport).Clone(), page: "2"}
	c := newClient(t, srv.URL+"/api/v1", facade.WithAPIKey("k"), facade.WithClock(faketest.NewInstantClock()),
		facade.WithHTTPClient(&http.Client{Transport: transport}))
	ctx := testCtx(t)
	done := make(chan error, 1)
	go func() { done <- Export(ctx, c, 5, io.Discard, nil) }()
	select {
	case err := <-done:
		assert.EqualError(t, err, "dashboard: page 2 (More): the download ended before its answer did")
	case <-ctx.Done():
		t.Fatal("Export did not return once page 2's download goroutine ended")
	}
}

// A page that is not a readable workbook ends the export with an error
// matching ErrMalformed, whatever is wrong with it: not a zip, half a zip,
// a sheet whose deflate stream is corrupt, and (read once, not copied
// twice) a part named by two sheets.
func TestHostilePageNotAReadableWorkbook(t *testing.T) {
	good := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(5))}}}.Bytes(t)
	twice := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(5))}, {Name: "Again", XML: dashboardtest.SheetXML("")}}}.Bytes(t)
	twice = ziptest.Rewrite(t, twice, func(name string, b []byte) []byte {
		return bytes.Replace(b, []byte(`r:id="rId2"`), []byte(`r:id="rId1"`), 1)
	})
	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"not a zip":  {[]byte("<html>Service unavailable</html>"), "not a zip"},
		"half a zip": {good[:len(good)/2], "malformed page workbook"},
		"corrupt deflate": {dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data"}}, Raw: []dashboardtest.RawPart{
			{Name: "xl/worksheets/sheet1.xml", Data: bytes.Repeat([]byte{0xff}, 64), Size: 1000}}}.Bytes(t), "part xl/worksheets/sheet1.xml"},
		"a part named by two sheets": {twice, `sheets "Data" and "Again" name the same part xl/worksheets/sheet1.xml`},
	} {
		t.Run(name, func(t *testing.T) {
			b, out, err := exportHostile(t, onePage(t, tc.data), nil)
			require.ErrorIs(t, err, ErrMalformed)
			assert.NotErrorIs(t, err, scmlimits.ErrLimit)
			assert.Contains(t, err.Error(), tc.want)
			b.within(t, hostileHeap, hostileTime)
			checkCutOff(t, out)
		})
	}
}
