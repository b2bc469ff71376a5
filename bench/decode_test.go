package bench

import (
	"encoding/json"
	"fmt"
	"runtime"
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
	{"jx-skip", func(page []byte) (int, error) { return pagebench.Rows, jx.DecodeBytes(page).Skip() }},
}

// decodePages is how many pages of pagebench.Rows rows each decoder reads
// per iteration.
const decodePages = 10

// BenchmarkDecode: pure decoding of pages held in memory (no transport),
// for each row shape, by the facade's decoders and by their peers in the
// same run: ogen's generated decoders, goccy/go-json, sonic and
// encoding/json into plain structs (unknown fields dropped), and jx's
// validating Skip, a floor no decoder can beat. It reports each one's
// ns/row and allocs/row and the facade's time ratio to each ("x-<name>",
// below 1 when the facade is faster).
func BenchmarkDecode(b *testing.B) {
	for _, shape := range pagebench.Shapes {
		pages := make([][]byte, decodePages)
		for p := range pages {
			pages[p] = shape.Page(p)
		}
		b.Run(shape.Name, func(b *testing.B) {
			for _, d := range decoders {
				if _, err := decodeAll(d, pages); err != nil {
					b.Fatalf("%s: %v", d.name, err)
				}
			}
			runDecoders(b, pages, decoders)
		})
	}
}

func runDecoders(b *testing.B, pages [][]byte, ds []decoder) {
	d := make([]time.Duration, len(ds))
	allocs := make([]uint64, len(ds))
	var bytes int
	for _, p := range pages {
		bytes += len(p)
	}
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for i := range b.N {
		for j := range ds {
			k := (i + j) % len(ds)
			t, a, err := measureDecode(ds[k], pages)
			if err != nil {
				b.Fatal(err)
			}
			d[k] += t
			allocs[k] += a
		}
	}
	b.StopTimer()
	rows := float64(b.N * len(pages) * pagebench.Rows)
	for k, dec := range ds {
		b.ReportMetric(float64(d[k].Nanoseconds())/rows, dec.name+"-ns/row")
		b.ReportMetric(float64(allocs[k])/rows, dec.name+"-allocs/row")
		if k > 0 {
			b.ReportMetric(float64(d[0])/float64(d[k]), "x-"+dec.name)
		}
	}
}

// measureDecode decodes every page once after a collection, so that no
// decoder pays for the garbage of the one before.
func measureDecode(d decoder, pages [][]byte) (time.Duration, uint64, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	n, err := decodeAll(d, pages)
	t := time.Since(start)
	runtime.ReadMemStats(&after)
	if err == nil && n != len(pages)*pagebench.Rows {
		err = fmt.Errorf("%s read %d rows, want %d", d.name, n, len(pages)*pagebench.Rows)
	}
	return t, after.Mallocs - before.Mallocs, err
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
func BenchmarkDecodeEach(b *testing.B) {
	for _, shape := range pagebench.Shapes {
		pages := make([][]byte, decodePages)
		for p := range pages {
			pages[p] = shape.Page(p)
		}
		for _, d := range decoders {
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
