package extra_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/extra"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// TestPropertiesBehaveAsAMap checks every operation against a map doing
// the same, at sizes below and above the one from which names are
// indexed.
func TestPropertiesBehaveAsAMap(t *testing.T) {
	for _, n := range []int{0, 1, 2, 8, 9, 40} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			var p extra.Properties
			want := map[string]json.RawMessage{}
			order := []string{}
			for i := range n {
				name := "f" + strconv.Itoa(i)
				p.Set(name, raw(strconv.Itoa(i)))
				want[name] = raw(strconv.Itoa(i))
				order = append(order, name)
			}
			// replacing keeps the place
			if n > 0 {
				p.Set("f0", raw(`"again"`))
				want["f0"] = raw(`"again"`)
			}
			// deleting keeps the order of the others
			if n > 2 {
				p.Delete("f1")
				delete(want, "f1")
				order = slices.DeleteFunc(order, func(s string) bool { return s == "f1" })
			}
			p.Delete("absent")
			assert.Equal(t, len(want), p.Len())
			assert.Equal(t, order, p.Names(), "the order names were first set in")
			for name, v := range want {
				got, ok := p.Get(name)
				assert.True(t, ok, name)
				assert.Equal(t, string(v), string(got), name)
			}
			_, ok := p.Get("absent")
			assert.False(t, ok)
			_, want1 := want["f1"]
			assert.Equal(t, want1, p.Has("f1"))
			if len(want) == 0 {
				assert.Nil(t, p.Map())
			} else {
				assert.Equal(t, want, p.Map())
			}
		})
	}
}

func TestZeroPropertiesAreEmptyAndUsable(t *testing.T) {
	var p extra.Properties
	assert.Zero(t, p.Len())
	_, ok := p.Get("x")
	assert.False(t, ok)
	for range p.All() {
		t.Fatal("the zero value yields nothing")
	}
	p.Delete("x")
	assert.Equal(t, "{}", p.String())
	p.Set("x", nil)
	assert.Equal(t, `{"x": null}`, p.String())
}

// Copies share the properties once there is one, as copies of a map do;
// Clone does not.
func TestCopiesShareAndClonesDoNot(t *testing.T) {
	var a extra.Properties
	a.Set("x", raw("1"))
	b := a
	b.Set("y", raw("2"))
	assert.True(t, a.Has("y"), "a copy shares the properties")
	c := a.Clone()
	c.Set("z", raw("3"))
	c.Delete("x")
	assert.False(t, a.Has("z"))
	assert.True(t, a.Has("x"), "a clone shares nothing")
	assert.True(t, c.Equal(extra.Of(map[string]json.RawMessage{"y": raw("2"), "z": raw("3")})))
}

func TestAllStopsWhenTheLoopDoes(t *testing.T) {
	p := extra.Of(map[string]json.RawMessage{"a": raw("1"), "b": raw("2"), "c": raw("3")})
	var seen []string
	for name := range p.All() {
		seen = append(seen, name)
		if name == "b" {
			break
		}
	}
	assert.Equal(t, []string{"a", "b"}, seen, "Of sets the names in their order, and the loop stops")
}

func TestEqual(t *testing.T) {
	ab := extra.Of(map[string]json.RawMessage{"a": raw("1"), "b": raw("2")})
	var ba extra.Properties
	ba.Set("b", raw("2"))
	ba.Set("a", raw("1"))
	assert.True(t, ab.Equal(ab.Clone()))
	assert.False(t, ab.Equal(ba), "the order counts: it is the order sent")
	assert.False(t, ab.Equal(extra.Properties{}))
	changed := ab.Clone()
	changed.Set("b", raw("3"))
	assert.False(t, ab.Equal(changed))
}

// A hostile answer may have very many distinct names in one object:
// setting them stays linear, and a broken index fails the test in seconds
// rather than spinning until go test's timeout (it takes well under a
// second; the bound leaves a slow machine thirty times that).
func TestManyNamesAreIndexed(t *testing.T) {
	var p extra.Properties
	const n = 200_000
	within(t, 30*time.Second, "setting and replacing 200,000 names", func() {
		for i := range n {
			p.Set(strconv.Itoa(i), raw("0"))
		}
		for i := range n {
			p.Set(strconv.Itoa(i), raw("1")) // each a replacement, found through the index
		}
	})
	require.Equal(t, n, p.Len())
	v, ok := p.Get(strconv.Itoa(n - 1))
	assert.True(t, ok)
	assert.Equal(t, "1", string(v))
	p.Delete("0")
	_, ok = p.Get("0")
	assert.False(t, ok)
	v, _ = p.Get("1")
	assert.Equal(t, "1", string(v), "the index is right after a delete")
}

// The first property costs one allocation; none cost none.
func TestFirstPropertyCostsOneAllocation(t *testing.T) {
	value := raw(`"k"`)
	allocs := testing.AllocsPerRun(100, func() {
		var p extra.Properties
		p.Set("rowKey", value)
		if p.Len() != 1 {
			panic("lost")
		}
	})
	assert.Equal(t, 1.0, allocs)
}

func ExampleProperties() {
	var row struct {
		Name                 string
		AdditionalProperties extra.Properties
	}
	row.AdditionalProperties.Set("addedLater", json.RawMessage(`{"unit":"kg"}`))
	row.AdditionalProperties.Set("note", json.RawMessage(`"checked"`))

	unit, ok := row.AdditionalProperties.Get("addedLater")
	fmt.Println(string(unit), ok)
	for name, value := range row.AdditionalProperties.All() {
		fmt.Println(name, string(value))
	}
	// Output:
	// {"unit":"kg"} true
	// addedLater {"unit":"kg"}
	// note "checked"
}

// Two Properties set alike are alike to reflect.DeepEqual (and so to
// testify), also once their names are indexed.
func TestPropertiesSetAlikeAreDeepEqual(t *testing.T) {
	for _, n := range []int{1, 8, 9, 100} {
		var a, b extra.Properties
		for i := range n {
			a.Set("f"+strconv.Itoa(i), raw(strconv.Itoa(i)))
			b.Set("f"+strconv.Itoa(i), raw(strconv.Itoa(i)))
		}
		assert.Equal(t, a, b, "%d names", n)
	}
}

// On its own, a Properties is a JSON object of its properties, in order,
// and reads one back.
func TestPropertiesAsJSON(t *testing.T) {
	var p extra.Properties
	p.Set("z", raw(`{"a":[1,2]}`))
	p.Set("a", raw(`"x"`))
	p.Set("empty", nil)
	b, err := json.Marshal(p)
	require.NoError(t, err)
	assert.Equal(t, `{"z":{"a":[1,2]},"a":"x","empty":null}`, string(b))

	var back extra.Properties
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, []string{"z", "a", "empty"}, back.Names())
	v, _ := back.Get("z")
	assert.JSONEq(t, `{"a":[1,2]}`, string(v))

	require.NoError(t, json.Unmarshal([]byte(`null`), &back))
	assert.Equal(t, 3, back.Len(), "null leaves it as it was")
	assert.Error(t, json.Unmarshal([]byte(`[1]`), &back))
	var bad extra.Properties
	bad.Set("x", raw(`{not json`))
	_, err = json.Marshal(bad)
	assert.ErrorContains(t, err, `"x"`)
}

// within runs f and fails the test, naming what, when it has not returned
// after d: a loop that no longer ends fails instead of hanging the binary.
// The goroutine of such an f is left behind; the test binary ends with it.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		t.Fatalf("%s did not end within %v", what, d)
	}
}
