package dashboard

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
)

// Page workbooks built part by part, as a server could send them: the
// parts the merge reads (package and workbook relationships, workbook,
// worksheets, shared strings), written with archive/zip.

const (
	mainNS = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	relNS  = `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	relTyp = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// book is a page workbook to build: its worksheets' XML by name, in order,
// and its shared strings part, if any.
type book struct {
	sheets []bookSheet
	sst    string
	raw    []rawPart // parts written as they are, compressed already
	extra  int       // empty parts added
}

type bookSheet struct{ name, xml string }

// rawPart is a part whose deflated bytes, checksum and size are given:
// the way to a part that inflates to GiBs.
type rawPart struct {
	name string
	data []byte
	crc  uint32
	size uint64
}

// sheetXML is the XML of a worksheet whose rows are rows.
func sheetXML(rows string) string {
	return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<worksheet ` + mainNS + ` ` + relNS + `><dimension ref="A1"/><sheetData>` + rows + `</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`
}

// numberRows are n rows of two cells, a text and a number.
func numberRows(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>row %d</t></is></c><c r="B%d"><v>%d.5</v></c></row>`, i, i, i, i, i)
	}
	return b.String()
}

// bytes builds the workbook.
func (b book) bytes(t testing.TB) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	put := func(name, content string) {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = w.Write([]byte(content))
		require.NoError(t, err)
	}
	put("_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="`+relTyp+`officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	var sheets, rels strings.Builder
	for i, s := range b.sheets {
		fmt.Fprintf(&sheets, `<sheet name=%q sheetId="%d" r:id="rId%d"/>`, s.name, i+1, i+1)
		fmt.Fprintf(&rels, `<Relationship Id="rId%d" Type="%sworksheet" Target="worksheets/sheet%d.xml"/>`, i+1, relTyp, i+1)
	}
	if b.sst != "" || b.hasRaw("xl/sharedStrings.xml") {
		fmt.Fprintf(&rels, `<Relationship Id="rIdS" Type="%ssharedStrings" Target="sharedStrings.xml"/>`, relTyp)
	}
	put("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook `+mainNS+` `+relNS+`><sheets>`+sheets.String()+`</sheets></workbook>`)
	put("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+rels.String()+`</Relationships>`)
	for i, s := range b.sheets {
		if !b.hasRaw(fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1)) {
			put(fmt.Sprintf("xl/worksheets/sheet%d.xml", i+1), s.xml)
		}
	}
	if b.sst != "" {
		put("xl/sharedStrings.xml", b.sst)
	}
	for _, p := range b.raw {
		w, err := zw.CreateRaw(&zip.FileHeader{Name: p.name, Method: zip.Deflate, CRC32: p.crc,
			CompressedSize64: uint64(len(p.data)), UncompressedSize64: p.size})
		require.NoError(t, err)
		_, err = w.Write(p.data)
		require.NoError(t, err)
	}
	for i := range b.extra {
		_, err := zw.CreateHeader(&zip.FileHeader{Name: "docProps/extra" + strconv.Itoa(i) + ".xml", Method: zip.Store})
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func (b book) hasRaw(name string) bool {
	for _, p := range b.raw {
		if p.name == name {
			return true
		}
	}
	return false
}

// bomb is a part that inflates to prefix, then fill repeated to n bytes
// (rounded up to MiB), then suffix, deflated without deflating all of it:
// one MiB of fill is deflated once, after enough fill that every
// back-reference in it lands on fill, and its bytes repeated. len(fill)
// must divide a MiB. About 1 KiB of the part inflates to a MiB.
func bomb(t testing.TB, name, prefix, fill string, n int64, suffix string) rawPart {
	t.Helper()
	const mib = 1 << 20
	require.Zero(t, mib%len(fill), "the fill divides a MiB")
	var out bytes.Buffer
	w, err := flate.NewWriter(&out, flate.BestCompression)
	require.NoError(t, err)
	chunk := bytes.Repeat([]byte(fill), mib/len(fill))
	write := func(b []byte) {
		_, err := w.Write(b)
		require.NoError(t, err)
		require.NoError(t, w.Flush())
	}
	write([]byte(prefix))
	write(chunk) // the window holds fill from here on
	from := out.Len()
	write(chunk)
	segment := bytes.Clone(out.Bytes()[from:])
	_, err = w.Write([]byte(suffix))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	data := bytes.Clone(out.Bytes()[:from+len(segment)])
	tail := out.Bytes()[from+len(segment):]

	mibs := max((n+mib-1)/mib, 2) // the two written
	data = append(data, bytes.Repeat(segment, int(mibs-2))...)
	data = append(data, tail...)
	crc := crc32.Update(0, crc32.IEEETable, []byte(prefix))
	for range mibs {
		crc = crc32.Update(crc, crc32.IEEETable, chunk)
	}
	crc = crc32.Update(crc, crc32.IEEETable, []byte(suffix))
	return rawPart{name: name, data: data, crc: crc, size: uint64(len(prefix)) + uint64(mibs)*mib + uint64(len(suffix))}
}

// bookStub serves a result whose pages are listed by list, each page's
// workbook given by serve.
func bookStub(t testing.TB, list string, serve func(w http.ResponseWriter, pageID string)) *facade.Client {
	return newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
			fmt.Fprint(w, list)
			return
		}
		w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
		serve(w, r.URL.Query().Get("pageId"))
	})
}

// onePage serves a result of one page, "Data", whose workbook is data.
func onePage(t testing.TB, data []byte) *facade.Client {
	return bookStub(t, `[{"id":1,"name":"Data"}]`, func(w http.ResponseWriter, _ string) {
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		_, _ = w.Write(data)
	})
}

// Bounded runs of Export: how long it took, how much the heap grew at its
// peak, and that it left no temporary file.

// bounds is what a run of Export cost.
type bounds struct {
	elapsed time.Duration
	peak    uint64 // heap growth at its peak, bytes
}

// measured runs f with TMPDIR an empty directory, sampling the heap, and
// checks that f left no file in it.
func measured(t *testing.T, f func()) bounds {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	stop := sampleHeap()
	start := time.Now()
	f()
	b := bounds{elapsed: time.Since(start), peak: stop()}
	entries, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, entries, "no temporary file outlives the export")
	return b
}

// within asserts the bounds of a hostile page: the heap grew by at most
// maxHeap, and it took at most maxTime (a bound far above what it takes,
// far below what an unbounded read of the page would).
func (b bounds) within(t *testing.T, maxHeap uint64, maxTime time.Duration) {
	t.Helper()
	t.Logf("peak heap growth %.1f MiB, %v", float64(b.peak)/(1<<20), b.elapsed.Round(time.Millisecond))
	assert.LessOrEqual(t, b.peak, maxHeap, "peak heap growth %.1f MiB", float64(b.peak)/(1<<20))
	assert.LessOrEqual(t, b.elapsed, maxTime, "time taken")
}

// sampleHeap samples the live heap every millisecond until the function it
// returns is called, which returns the peak above the heap at the start.
func sampleHeap() func() uint64 {
	runtime.GC()
	start := heapBytes()
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, heapBytes())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		peak = max(peak, heapBytes())
		return max(peak, start) - start
	}
}

// heapBytes is the bytes of the heap's objects, live or not yet swept.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
