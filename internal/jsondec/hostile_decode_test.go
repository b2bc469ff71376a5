package jsondec

import (
	"context"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/extra"
)

// A hostile server's answers: many distinct differences, huge names, huge
// documents. Each case bounds the memory and the time the decode takes,
// and names what it stops with.

// readModel reads an object as a generated decoder of a model with one
// known field "id" does: unknown fields kept and noted.
func readModel(r *Reader, props *extra.Properties) Status {
	if st := r.Object(); st != OK {
		return st
	}
	for key, ok := r.FirstKey(); ok; key, ok = r.NextKey() {
		if string(key) == "id" {
			var id int64
			if !r.Field(Int(r, &id), &testSite, props) {
				return Failed
			}
			continue
		}
		if r.Unknown(props, key, "M") == Failed {
			return Failed
		}
	}
	if r.Failed() {
		return Failed
	}
	return OK
}

// manyNames is an object of n distinct unknown fields.
func manyNames(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"id":1`)
	for i := range n {
		b.WriteString(`,"field` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	b.WriteString("}")
	return []byte(b.String())
}

type decoded struct {
	props   extra.Properties
	found   int
	dropped int
	took    time.Duration
	alloc   uint64 // bytes allocated
	err     error
}

func decodeModel(ctx context.Context, doc []byte, o Options) decoded {
	var d decoded
	o.Context = ctx
	o.Note = func(drift.Finding) { d.found++ }
	o.Dropped = func(n int) { d.dropped += n }
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	r := Begin(doc, &o)
	d.err = r.Finish(readModel(r, &d.props), &testSite)
	d.took = time.Since(start)
	runtime.ReadMemStats(&after)
	d.alloc = after.TotalAlloc - before.TotalAlloc
	return d
}

// 100,000 distinct unknown field names (1.8 MiB) decode in time linear in
// the document. A client that keeps every difference decodes them within
// 20 s, a hundred times what it takes (eight times under the race
// detector); a scan of every earlier note for each name takes minutes, and
// is stopped by the deadline. The findings
// of a client with the default bound stop there and the rest are counted;
// the memory is a few times the document.
func TestHostileManyUnknownNamesDecodeInLinearTime(t *testing.T) {
	large := manyNames(100_000)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	all := decodeModel(ctx, large, Options{MaxFindings: 1 << 30})
	require.NoError(t, all.err, "decoding 100,000 unknown names, every one noted, within 20 s")
	assert.Equal(t, 100_000, all.found)
	t.Logf("100,000 names noted in %v", all.took)

	d := decodeModel(t.Context(), large, Options{MaxFindings: 1000})
	require.NoError(t, d.err)
	assert.Equal(t, 100_000, d.props.Len(), "every unknown field is kept")
	assert.Equal(t, 1000, d.found, "findings stop at the bound")
	assert.Equal(t, 100_000-1000, d.dropped, "the rest are counted")
	t.Logf("allocated %.1f bytes per byte of the document", float64(d.alloc)/float64(len(large)))
	assert.Less(t, d.alloc, uint64(12*len(large)), "allocated %d bytes for a %d-byte document", d.alloc, len(large))
}

// BenchmarkManyUnknownNames decodes an answer of n distinct unknown field
// names, with the default bound on findings and, for 100,000 names, with
// every finding kept: the hostile answers of BENCHMARKS.md.
//
//	go test -run '^$' -bench BenchmarkManyUnknownNames -benchtime 3x -benchmem ./internal/jsondec
func BenchmarkManyUnknownNames(b *testing.B) {
	for _, c := range []struct {
		name           string
		n, maxFindings int
	}{
		{"100000/default-bound", 100_000, 0},
		{"100000/every-finding", 100_000, 1 << 30},
		{"1000000/default-bound", 1_000_000, 0},
	} {
		doc := manyNames(c.n)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			var kept, counted int
			for b.Loop() {
				kept, counted = 0, 0
				o := &Options{MaxFindings: c.maxFindings, Note: func(drift.Finding) { kept++ }, Dropped: func(n int) { counted += n }}
				var props extra.Properties
				r := Begin(doc, o)
				if err := r.Finish(readModel(r, &props), &testSite); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(kept), "findings-kept")
			b.ReportMetric(float64(counted), "findings-counted")
			b.ReportMetric(float64(len(doc))/(1<<20), "doc-MiB")
		})
	}
}

// A decode stops within CheckEvery bytes of a cancelled context, in known
// fields, in unknown ones and inside one huge unknown value, with an error
// that names the offset and wraps the context's error.
func TestHostileHugeDocumentIsCancelled(t *testing.T) {
	huge := "[" + strings.Repeat("1,", 2<<20) + "1]"
	const nameLen = 4 << 20 // a single name is read whole before the next check
	for name, c := range map[string]struct {
		doc   []byte
		token int // the longest token
	}{
		"many fields":        {manyNames(300_000), 20},
		"one huge value":     {[]byte(`{"id":1,"x":` + huge + `}`), 2},
		"one huge name":      {[]byte(`{"` + strings.Repeat("n", nameLen) + `":1,` + string(manyNames(100_000)[1:])), nameLen + 2},
		"elements of a list": {[]byte(huge), 2},
		"objects of a list":  {[]byte("[" + strings.Repeat(`{"id":1},`, 500_000) + `{"id":1}]`), 9},
	} {
		doc := c.doc
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		var d decoded
		if doc[0] == '[' {
			var v []json.RawMessage
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			r := Begin(doc, &Options{Context: ctx})
			d.err = r.Finish(readList(r, &v), &testSite)
			runtime.ReadMemStats(&after)
			d.alloc = after.TotalAlloc - before.TotalAlloc
		} else {
			d = decodeModel(ctx, doc, Options{})
		}
		assert.Less(t, d.alloc, uint64(64*(CheckEvery+c.token)), "%s: allocated %d bytes before it stopped", name, d.alloc)
		var e *Error
		require.ErrorAs(t, d.err, &e, name)
		assert.ErrorIs(t, d.err, context.Canceled, name)
		assert.LessOrEqual(t, e.Offset, int64(CheckEvery+c.token+8), "%s: stopped at byte %d of %d", name, e.Offset, len(doc))
		assert.Contains(t, d.err.Error(), "JSON decoding stopped at byte", name)
	}
}

// readList reads an array of raw values, as a generated decoder of a list
// does.
func readList(r *Reader, v *[]json.RawMessage) Status {
	if st := r.Array(); st != OK {
		return st
	}
	for ok := r.FirstElem(); ok; ok = r.NextElem() {
		var raw json.RawMessage
		if r.Elem(readModelOrRaw(r, &raw), &testSite) == Failed {
			return Failed
		}
		*v = append(*v, raw)
	}
	if r.Failed() {
		return Failed
	}
	return OK
}

func readModelOrRaw(r *Reader, raw *json.RawMessage) Status {
	if r.ws() == '{' {
		var props extra.Properties
		return readModel(r, &props)
	}
	return r.Raw(raw)
}

// A 10 MB field name and a 10 MB value outside an enumeration are cut to
// MaxReportedLen in their findings, and marked; the value itself is kept
// whole.
func TestHostileHugeNamesAreCutInFindings(t *testing.T) {
	name := strings.Repeat("é", 5<<20)
	var found []drift.Finding
	r := Begin([]byte(`{"`+name+`":1}`), &Options{MaxReportedLen: 100, Note: func(f drift.Finding) { found = append(found, f) }})
	var props extra.Properties
	require.NoError(t, r.Finish(readModel(r, &props), &testSite))
	require.Len(t, found, 1)
	assert.True(t, props.Has(name), "the field is kept under its whole name")
	f := found[0]
	assert.LessOrEqual(t, len(f.Path), len("M.")+100+len("…(+10485760 bytes)"))
	assert.Contains(t, f.Path, "…(+", "the cut is marked")
	assert.LessOrEqual(t, len(f.Detail), 2*len(f.Path)+40)

	site := Site{Path: "M.status", At: "M.status", Named: "Status", Type: "string"}
	found = nil
	r = Begin([]byte(`"`+name+`"`), &Options{MaxReportedLen: 100, Note: func(f drift.Finding) { found = append(found, f) }})
	var s string
	st := Str(r, &s)
	r.Enum(&site, s)
	require.NoError(t, r.Finish(st, &site))
	require.Len(t, found, 1)
	assert.LessOrEqual(t, len(found[0].Value), 100+len(`"…(+10485760 bytes)"`))
	assert.LessOrEqual(t, len(found[0].Detail), 200)
	assert.Equal(t, name, s, "the value is kept whole")
}
