package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/bytedance/sonic"
	"github.com/go-faster/jx"
	gojson "github.com/goccy/go-json"

	"github.com/scmodel/scmgo/bench/internal/pagebench"
	"github.com/scmodel/scmgo/bench/ogenclient"
	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/gen"
)

// decoder decodes one page held in memory and returns its rows.
type decoder struct {
	name   string
	decode func(page []byte) (int, error)
}

// facadeDecoder decodes as the facade does every answer: the generated
// decoders, unknown fields kept, differences collected.
func facadeDecoder() decoder {
	var found drift.Collector
	note := func(f drift.Finding) {
		f.Operation = "getExperimentRunResultChartTableData"
		found.Add(f)
	}
	return decoder{"facade", func(page []byte) (int, error) {
		var p gen.ApiStrictTableChartData
		err := gen.DecodeAnswer(page, &p, "getExperimentRunResultChartTableData 200 response", note)
		return len(p.EntityList), err
	}}
}

func plainDecoder(name string, unmarshal func([]byte, any) error) decoder {
	return decoder{name, func(page []byte) (int, error) {
		var p pagebench.PlainPage
		err := unmarshal(page, &p)
		return len(p.EntityList), err
	}}
}

var decoders = []decoder{
	facadeDecoder(),
	{"ogen", func(page []byte) (int, error) {
		var p ogenclient.ApiStrictTableChartData
		err := p.Decode(jx.DecodeBytes(page))
		return len(p.EntityList), err
	}},
	plainDecoder("goccy", gojson.Unmarshal),
	plainDecoder("sonic", sonic.Unmarshal),
	plainDecoder("encoding-json", json.Unmarshal),
	jxSkip,
}

// jxSkip is jx's validating Skip: it keeps nothing, the floor of every
// decoder.
var jxSkip = decoder{"jx-skip", func(page []byte) (int, error) { return pagebench.Rows, jx.DecodeBytes(page).Skip() }}

// decodePages is how many pages of pagebench.Rows rows each decoder reads
// per iteration.
const decodePages = 10

// A regime is the state of the garbage collector while the decoders run.
type regime struct {
	name string
	// ballast is the live heap held while they run: with a large one the
	// collector rarely runs during a decode; with none, only the pages are
	// live and it runs several times per decode.
	ballast int
}

var regimes = []regime{{"small-heap", 0}, {"large-heap", 1 << 30}}

// BenchmarkDecode: pure decoding of pages held in memory (no transport),
// for each row shape and each regime of the garbage collector, by the
// facade's decoders and by their peers in the same run: ogen's generated
// decoders, goccy/go-json, sonic and encoding/json into plain structs
// (unknown fields dropped), and jx's validating Skip, a floor no decoder
// can beat, and that Skip followed by a copy of the rows the facade
// returns (skipCopyDecoder), the floor of a decoder that returns them. It
// reports each one's wall and CPU ns/row (CPU time is the process's: it
// counts the collector's work on the other core), allocs/row and B/row,
// and the facade's ratios to each, by wall time ("x-<name>") and by CPU
// time ("cpu-x-<name>"), below 1 when the facade is faster.
func BenchmarkDecode(b *testing.B) {
	for _, g := range regimes {
		for _, shape := range pagebench.Shapes {
			pages := shapePages(shape)
			b.Run(g.name+"/"+shape.Name, func(b *testing.B) {
				for _, d := range decoders {
					if _, err := decodeAll(d, pages); err != nil {
						b.Fatalf("%s: %v", d.name, err)
					}
				}
				runDecoders(b, g, [][][]byte{pages}, append(slices.Clone(decoders), skipCopyDecoder(pages)))
			})
		}
	}
}

// BenchmarkDecodeTolerant: the facade's decoders on pages whose every row
// has a value of the wrong type (pagebench.TolerantShapes: an object where
// a string belongs, an index sent as a string), against the same rows
// without it, in the same run and each regime. It reports the slow path's
// ratio to the clean one, by wall and CPU time ("x-clean", "cpu-x-clean"),
// and the same ratio of their bounds (skipCopyDecoder, "bound-cpu-x-clean"):
// what merely keeping the wrong-typed value costs.
func BenchmarkDecodeTolerant(b *testing.B) {
	clean := shapePages(pagebench.Shape{Name: "4cells", Cells: 4})
	for _, g := range regimes {
		for _, shape := range pagebench.TolerantShapes {
			odd := shapePages(shape)
			b.Run(g.name+"/"+shape.Name, func(b *testing.B) {
				f := facadeDecoder()
				oddBound, cleanBound := skipCopyDecoder(odd), skipCopyDecoder(clean)
				cleanBound.name = "jx-skip+copy-clean"
				sums := runDecoders(b, g, [][][]byte{odd, clean, odd, clean}, []decoder{f, {"clean", f.decode}, oddBound, cleanBound})
				b.ReportMetric(float64(sums[2].cpu)/float64(sums[3].cpu), "bound-cpu-x-clean")
			})
		}
	}
}

// BenchmarkDecodeSpaced: the facade's decoders on the four-cell pages
// written with whitespace between fields, against the same pages compact,
// in the same run and each regime, with jx Skip's ratio for the same two
// pages beside it: what passing over the whitespace costs a decoder that
// keeps nothing. Two layouts: "spaced", a space after each comma and colon
// (as the recorded answers of the real server are written), and
// "indented", a line and an indent per field (json.Indent). It reports the
// facade's ratio ("cpu-x-compact") and jx Skip's ("skip-cpu-x-compact").
func BenchmarkDecodeSpaced(b *testing.B) {
	compact := shapePages(pagebench.Shape{Name: "4cells", Cells: 4})
	layouts := []struct {
		name   string
		layout func([]byte) []byte
	}{{"spaced", spaceOut}, {"indented", indent}}
	for _, l := range layouts {
		pages := make([][]byte, len(compact))
		for i, p := range compact {
			pages[i] = l.layout(p)
		}
		for _, g := range regimes {
			b.Run(g.name+"/"+l.name, func(b *testing.B) {
				f := facadeDecoder()
				sums := runDecoders(b, g, [][][]byte{pages, compact, pages, compact},
					[]decoder{f, {"compact", f.decode}, jxSkip, {"skip-compact", jxSkip.decode}})
				b.ReportMetric(float64(sums[2].cpu)/float64(sums[3].cpu), "skip-cpu-x-compact")
			})
		}
	}
}

// spaceOut writes compact JSON with a space after each comma and colon
// outside strings.
func spaceOut(compact []byte) []byte {
	out := make([]byte, 0, len(compact)*5/4)
	inString, escaped := false, false
	for _, c := range compact {
		out = append(out, c)
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ',' || c == ':'):
			out = append(out, ' ')
		}
	}
	return out
}

func indent(compact []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, compact, "", "  "); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

func shapePages(shape pagebench.Shape) [][]byte {
	pages := make([][]byte, decodePages)
	for p := range pages {
		pages[p] = shape.Page(p)
	}
	return pages
}

// totals are what one decoder took over a benchmark.
type totals struct {
	wall, cpu     time.Duration
	allocs, bytes uint64
}

// runDecoders runs each decoder ds[k] over pages[k] (or pages[0] when
// there is one set for all) b.N times, in an order rotated every
// iteration, in regime g, and reports their figures and the first one's
// ratios to the others.
func runDecoders(b *testing.B, g regime, pages [][][]byte, ds []decoder) []totals {
	ballast := make([]byte, g.ballast) // pointer-free: held, never scanned, never touched
	sums := make([]totals, len(ds))
	var bytes int
	for _, p := range pages[0] {
		bytes += len(p)
	}
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for i := range b.N {
		for j := range ds {
			k := (i + j) % len(ds)
			t, err := measureDecode(ds[k], pages[min(k, len(pages)-1)])
			if err != nil {
				b.Fatal(err)
			}
			sums[k].wall += t.wall
			sums[k].cpu += t.cpu
			sums[k].allocs += t.allocs
			sums[k].bytes += t.bytes
		}
	}
	b.StopTimer()
	runtime.KeepAlive(ballast)
	report(b, ds, sums)
	return sums
}

func report(b *testing.B, ds []decoder, sums []totals) {
	rows := float64(b.N * decodePages * pagebench.Rows)
	for k, dec := range ds {
		b.ReportMetric(float64(sums[k].wall.Nanoseconds())/rows, dec.name+"-ns/row")
		b.ReportMetric(float64(sums[k].cpu.Nanoseconds())/rows, dec.name+"-cpu-ns/row")
		b.ReportMetric(float64(sums[k].allocs)/rows, dec.name+"-allocs/row")
		b.ReportMetric(float64(sums[k].bytes)/rows, dec.name+"-B/row")
		if k > 0 {
			b.ReportMetric(float64(sums[0].wall)/float64(sums[k].wall), "x-"+dec.name)
			b.ReportMetric(float64(sums[0].cpu)/float64(sums[k].cpu), "cpu-x-"+dec.name)
		}
	}
}

// measureDecode decodes every page once after a collection, so that no
// decoder pays for the garbage of the one before, and returns the wall
// time, the process's CPU time, and the allocations and bytes it took.
func measureDecode(d decoder, pages [][]byte) (totals, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := cpuTime()
	start := time.Now()
	n, err := decodeAll(d, pages)
	t := totals{wall: time.Since(start), cpu: cpuTime() - cpu}
	runtime.ReadMemStats(&after)
	if err == nil && n != len(pages)*pagebench.Rows {
		err = fmt.Errorf("%s read %d rows, want %d", d.name, n, len(pages)*pagebench.Rows)
	}
	t.allocs = after.Mallocs - before.Mallocs
	t.bytes = after.TotalAlloc - before.TotalAlloc
	return t, err
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func decodeAll(d decoder, pages [][]byte) (int, error) {
	n := 0
	for _, p := range pages {
		rows, err := d.decode(p)
		if err != nil {
			return n, fmt.Errorf("%s: %w", d.name, err)
		}
		n += rows
	}
	return n, nil
}

// BenchmarkDecodeEach decodes the pages of each shape with one decoder at a
// time, for profiling: go test -bench 'DecodeEach/4cells/facade' -cpuprofile.
// The tolerant shapes are decoded by the facade only.
func BenchmarkDecodeEach(b *testing.B) {
	for _, shape := range append(slices.Clone(pagebench.Shapes), pagebench.TolerantShapes...) {
		pages := shapePages(shape)
		for _, d := range decoders {
			if shape.Retyped != "" && d.name != "facade" {
				continue
			}
			b.Run(shape.Name+"/"+d.name, func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					if _, err := decodeAll(d, pages); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
