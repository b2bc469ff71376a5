package api_test

import (
	"encoding/json"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// scribble overwrites, in place, every string, bool and number reachable
// from v: the fields of structs, the elements of slices and what pointers
// point to. It changes what a value shares with others, never replaces a
// slice or pointer, so a lookup that hands out shared parts is caught.
func scribble(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			scribble(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			scribble(v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			scribble(v.Index(i))
		}
	case reflect.String:
		v.SetString("scribbled " + v.String())
	case reflect.Bool:
		v.SetBool(!v.Bool())
	default:
		panic("scribble: no case for " + v.Type().String())
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// Changing an operation that LookupOperation returned, down to its
// parameters' enumerations and its body's fields, changes nothing for the
// next lookup.
func TestLookupOperationReturnsACopy(t *testing.T) {
	for _, op := range gen.Operations() {
		for _, name := range []string{op.ID, op.SnakeName} {
			got, ok := gen.LookupOperation(name)
			require.True(t, ok, name)
			want := jsonOf(t, got)
			scribble(reflect.ValueOf(&got))
			require.NotEqual(t, want, jsonOf(t, got), "%s: scribble changed nothing", name)
			again, _ := gen.LookupOperation(name)
			if got := jsonOf(t, again); got != want {
				t.Fatalf("%s: changing a looked-up operation changed the table:\nbefore %s\nafter  %s", name, want, got)
			}
		}
	}
}

// The same holds for the list of every operation.
func TestOperationsReturnsCopies(t *testing.T) {
	ops := gen.Operations()
	want := jsonOf(t, ops)
	scribble(reflect.ValueOf(ops))
	assert.Equal(t, want, jsonOf(t, gen.Operations()), "changing the listed operations changed the table")
	shared, _ := gen.LookupSharedOperation(gen.OpImportDatabase)
	fresh, _ := gen.LookupOperation(gen.OpImportDatabase)
	assert.Equal(t, jsonOf(t, fresh), jsonOf(t, *shared), "the shared entry is untouched too")
}

// Clone leaves nothing shared between the copy and the original, whatever
// the operation has: parameters with enumerations, a multipart body, a
// job role, media types.
func TestCloneSharesNothing(t *testing.T) {
	for _, id := range []gen.OperationID{gen.OpGetExperimentRunResultChartTableData, gen.OpImportExcel, gen.OpRunExperiment,
		gen.OpImportDatabase, gen.OpGetNewVariableParameterTableData} {
		shared, ok := gen.LookupSharedOperation(id)
		require.True(t, ok, id)
		orig := *shared
		want := jsonOf(t, orig)
		clone := orig.Clone()
		scribble(reflect.ValueOf(&clone))
		assert.Equal(t, want, jsonOf(t, orig), "%s: the clone shares a part with the original", id)
	}
}

// LookupSharedOperation finds the table's own entry by either name without
// allocating, and the same entry every time.
func TestLookupSharedOperation(t *testing.T) {
	for _, op := range gen.Operations() {
		byID, ok := gen.LookupSharedOperation(op.ID)
		require.True(t, ok, op.ID)
		bySnake, ok := gen.LookupSharedOperation(op.SnakeName)
		require.True(t, ok, op.SnakeName)
		assert.Same(t, byID, bySnake, op.ID)
		assert.Equal(t, jsonOf(t, op), jsonOf(t, *byID), op.ID)
	}
	_, ok := gen.LookupSharedOperation("noSuchOperation")
	assert.False(t, ok)
	allocs := testing.AllocsPerRun(100, func() {
		if _, ok := gen.LookupSharedOperation(gen.OpGetExperimentRunResultChartTableData); !ok {
			t.Fatal("not found")
		}
	})
	assert.Zero(t, allocs, "allocations per shared lookup")
}

// scanLookup is how LookupOperation found an operation before the table
// had an index: a linear scan comparing both names, returning the entry
// with its parts shared. It is the baseline of BenchmarkLookupOperation.
func scanLookup(table []gen.Operation, name string) (gen.Operation, bool) {
	for _, op := range table {
		if op.ID == name || op.SnakeName == name {
			return op, true
		}
	}
	return gen.Operation{}, false
}

// lookupCost is the time and allocations of a number of lookups.
type lookupCost struct {
	d      time.Duration
	allocs uint64
}

func measureLookups(names []string, lookup func(string) bool) lookupCost {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for _, name := range names {
		if !lookup(name) {
			panic("not found: " + name)
		}
	}
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	return lookupCost{d, after.Mallocs - before.Mallocs}
}

// BenchmarkLookupOperation looks up every operation by both names, in spec
// order, three ways in the same iteration (in a rotated order): the linear
// scan LookupOperation was before the index (entries shared), today's
// LookupOperation (index and a deep copy) and LookupSharedOperation (index,
// shared entry). It reports each one's ns and allocations per lookup and
// the time ratios to the scan ("copy/scan", "shared/scan").
func BenchmarkLookupOperation(b *testing.B) {
	table := gen.Operations()
	var names []string
	for _, op := range table {
		names = append(names, op.ID, op.SnakeName)
	}
	ways := []struct {
		name   string
		lookup func(string) bool
	}{
		{"scan", func(n string) bool { _, ok := scanLookup(table, n); return ok }},
		{"copy", func(n string) bool { _, ok := gen.LookupOperation(n); return ok }},
		{"shared", func(n string) bool { _, ok := gen.LookupSharedOperation(n); return ok }},
	}
	sums := make([]lookupCost, len(ways))
	i := 0
	for b.Loop() {
		for j := range ways {
			k := (i + j) % len(ways)
			c := measureLookups(names, ways[k].lookup)
			sums[k].d += c.d
			sums[k].allocs += c.allocs
		}
		i++
	}
	lookups := float64(i * len(names))
	for k, w := range ways {
		b.ReportMetric(float64(sums[k].d.Nanoseconds())/lookups, w.name+"-ns/lookup")
		b.ReportMetric(float64(sums[k].allocs)/lookups, w.name+"-allocs/lookup")
	}
	b.ReportMetric(float64(sums[1].d)/float64(sums[0].d), "copy/scan")
	b.ReportMetric(float64(sums[2].d)/float64(sums[0].d), "shared/scan")
}
