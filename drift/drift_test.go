package drift_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/drift"
)

// A finding's JSON is that of specdiff's findings: the same names, file
// and line left out when empty.
func TestFindingJSON(t *testing.T) {
	f := drift.Finding{Kind: drift.KindType, Operation: "getProjects", Path: "ApiProjectResponse.id",
		Detail: "ApiProjectResponse.id is integer/int64; the answer has string", Drift: true}
	b, err := json.Marshal(f)
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"probe-type","operation":"getProjects","path":"ApiProjectResponse.id",
		"detail":"ApiProjectResponse.id is integer/int64; the answer has string","drift":true}`, string(b))
	var back drift.Finding
	require.NoError(t, json.Unmarshal([]byte(`{"kind":"probe-missing","operation":"x","detail":"d","file":"api/openapi.yaml","line":7,"drift":true}`), &back))
	assert.Equal(t, drift.Finding{Kind: drift.KindMissing, Operation: "x", Detail: "d", File: "api/openapi.yaml", Line: 7, Drift: true}, back)
}

// A finding is added once per kind, operation and path, the first one
// kept, from any number of goroutines; Findings sorts by kind in
// specdiff's order, then operation and path.
func TestCollectorKeepsEachFindingOnce(t *testing.T) {
	var c drift.Collector
	var wg sync.WaitGroup
	var added sync.Map
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				for _, f := range []drift.Finding{
					{Kind: drift.KindEnum, Operation: "getExperiments", Path: "ApiBasicRunConfiguration.status", Detail: fmt.Sprint("seen by ", g, i)},
					{Kind: drift.KindType, Operation: "getScenarios", Path: "ApiScenarioData.id", Detail: "d"},
					{Kind: drift.KindType, Operation: "getProjects", Path: "ApiProjectResponse.id", Detail: "d"},
					{Kind: drift.KindUnknownField, Operation: "getProjects", Path: "ApiProjectResponse.x", Detail: "d"},
					{Kind: drift.KindMissing, Operation: "getProjects", Path: "ApiProjectResponse.name", Detail: "d"},
				} {
					if c.Add(f) {
						if _, dup := added.LoadOrStore(f.Kind+f.Operation+f.Path, true); dup {
							t.Errorf("%v added twice", f)
						}
					}
				}
			}
		})
	}
	wg.Wait()
	got := c.Findings()
	require.Len(t, got, 5)
	assert.Equal(t, 5, c.Len())
	var order []string
	for _, f := range got {
		order = append(order, f.Kind+" "+f.Operation+" "+f.Path)
	}
	assert.Equal(t, []string{
		"probe-unknown-field getProjects ApiProjectResponse.x",
		"probe-missing getProjects ApiProjectResponse.name",
		"probe-type getProjects ApiProjectResponse.id",
		"probe-type getScenarios ApiScenarioData.id",
		"probe-enum getExperiments ApiBasicRunConfiguration.status",
	}, order)
	got[0].Detail = "changed"
	assert.NotEqual(t, "changed", c.Findings()[0].Detail, "Findings returns a copy")
}

// A value outside an enumeration is collected once per value: a second
// unknown value at the same operation and path is new, the same value
// again is not.
func TestCollectorKeepsEachEnumValue(t *testing.T) {
	var c drift.Collector
	enum := func(value string) drift.Finding {
		return drift.Finding{Kind: drift.KindEnum, Operation: "getExperimentStatus", Path: "ApiExperimentStatus.status",
			Detail: "the answer has " + value, Value: json.RawMessage(value)}
	}
	assert.True(t, c.Add(enum(`"PAUSED"`)))
	assert.True(t, c.Add(enum(`"ARCHIVED"`)), "a second unknown value at the same path is new")
	assert.False(t, c.Add(enum(`"PAUSED"`)))
	typed := drift.Finding{Kind: drift.KindType, Operation: "getExperimentStatus", Path: "ApiExperimentStatus.status", Detail: "d"}
	assert.True(t, c.Add(typed))
	typed.Detail = "other"
	assert.False(t, c.Add(typed), "other kinds stay once per operation, path and kind")
	var values []string
	for _, f := range c.Findings() {
		values = append(values, string(f.Value))
	}
	assert.Equal(t, []string{"", `"ARCHIVED"`, `"PAUSED"`}, values)
}

// A value kept raw is collected apart from one converted at the same
// operation and path, in either order, each once; the JSON says keptRaw
// only of the kept one.
func TestCollectorKeepsKeptRawApartFromConverted(t *testing.T) {
	const path = "ApiExperimentResult.experimentResultId"
	converted := drift.Finding{Kind: drift.KindType, Operation: "runExperimentSynchronously", Path: path,
		Detail: path + " is integer/int64; the answer has number", JSONType: "number"}
	kept := converted
	kept.Detail, kept.KeptRaw = path+" is integer/int64; the answer has 1e19, which is not an integer in its range: kept raw", true
	for name, order := range map[string][]drift.Finding{"converted first": {converted, kept}, "kept first": {kept, converted}} {
		t.Run(name, func(t *testing.T) {
			var c drift.Collector
			for _, f := range order {
				assert.True(t, c.Add(f), "%s is new", f.Detail)
			}
			for _, f := range order {
				f.Detail += " again"
				assert.False(t, c.Add(f), "%s is a repeat", f.Detail)
			}
			assert.ElementsMatch(t, []drift.Finding{converted, kept}, c.Findings())
		})
	}
	b, err := json.Marshal(kept)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"keptRaw":true`)
	b, err = json.Marshal(converted)
	require.NoError(t, err)
	assert.NotContains(t, string(b), `keptRaw`)
}

// Findings that differ only in KeptRaw (a string "42" converted and a
// string "x" kept at an integer say the same) are not equal to Compare, so
// a list compacted by it keeps both.
func TestCompareTellsKeptRawApart(t *testing.T) {
	converted := drift.Finding{Kind: drift.KindType, Operation: "getProjects", Path: "ApiProjectResponse.id",
		Detail: "ApiProjectResponse.id is integer/int64; the answer has string"}
	kept := converted
	kept.KeptRaw = true
	assert.Negative(t, drift.Compare(converted, kept))
	assert.Positive(t, drift.Compare(kept, converted))
	assert.Zero(t, drift.Compare(kept, kept))
}

func ExampleCollector() {
	var c drift.Collector
	for range 2 {
		c.Add(drift.Finding{Kind: drift.KindType, Operation: "getProjects", Path: "ApiProjectResponse.id",
			Detail: "ApiProjectResponse.id is integer/int64; the answer has string", Drift: true})
	}
	for _, f := range c.Findings() {
		fmt.Println(f)
	}
	// Output:
	// probe-type getProjects: ApiProjectResponse.id is integer/int64; the answer has string
}

// The same difference seen in the answers of two operations is two
// findings: each operation's spec entry is what to change.
func TestCollectorKeepsEachOperation(t *testing.T) {
	var c drift.Collector
	f := drift.Finding{Kind: drift.KindUnknownField, Path: "ApiScenarioData.color", Detail: "d"}
	for _, op := range []string{"getScenarios", "getScenarioById", "getScenarios"} {
		f.Operation = op
		c.Add(f)
	}
	var ops []string
	for _, f := range c.Findings() {
		ops = append(ops, f.Operation)
	}
	assert.Equal(t, []string{"getScenarioById", "getScenarios"}, ops)
}

// Past its bound a collector counts findings and keeps none; the first
// dropped says so, once; a finding kept before is still a repeat.
func TestCollectorBound(t *testing.T) {
	var c drift.Collector
	find := func(i int) drift.Finding {
		return drift.Finding{Kind: drift.KindUnknownField, Operation: "getScenarios", Path: fmt.Sprint("ApiScenarioData.f", i)}
	}
	for i := range 3 {
		require.Equal(t, drift.Kept, c.Offer(find(i), 3))
	}
	assert.Equal(t, drift.Repeated, c.Offer(find(1), 3))
	assert.Equal(t, drift.FirstDropped, c.Offer(find(3), 3))
	assert.Equal(t, drift.Dropped, c.Offer(find(4), 3))
	assert.Equal(t, drift.Dropped, c.Overflow(5))
	assert.Equal(t, 3, c.Len())
	assert.Equal(t, 7, c.Dropped())

	var d drift.Collector
	assert.Equal(t, drift.FirstDropped, d.Overflow(2), "the first overflow is the first drop")
	assert.Equal(t, drift.Dropped, d.Overflow(1))
	assert.True(t, d.Add(find(0)), "Add keeps any number")
}
