package extra_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/extra"
)

// Get reads each JSON kind into its type, says ok false for a missing
// name, and names the kind a value of the wrong type has.
func TestGet(t *testing.T) {
	var p extra.Properties
	require.NoError(t, json.Unmarshal([]byte(`{"s":"x","n":2.5,"i":7,"b":true,"o":{"a":1},"l":[1,2],"z":null}`), &p))

	s, ok, err := extra.Get[string](p, "s")
	assert.Equal(t, "x", s)
	assert.True(t, ok)
	assert.NoError(t, err)
	f, _, err := extra.Get[float64](p, "n")
	assert.NoError(t, err)
	assert.InDelta(t, 2.5, f, 0)
	i, _, err := extra.Get[int64](p, "i")
	assert.NoError(t, err)
	assert.EqualValues(t, 7, i)
	b, _, err := extra.Get[bool](p, "b")
	assert.NoError(t, err)
	assert.True(t, b)
	o, _, err := extra.Get[map[string]int](p, "o")
	assert.NoError(t, err)
	assert.Equal(t, map[string]int{"a": 1}, o)
	l, _, err := extra.Get[[]int](p, "l")
	assert.NoError(t, err)
	assert.Equal(t, []int{1, 2}, l)
	z, ok, err := extra.Get[string](p, "z")
	assert.Equal(t, "", z, "null is the zero value")
	assert.True(t, ok)
	assert.NoError(t, err)

	_, ok, err = extra.Get[string](p, "missing")
	assert.False(t, ok)
	assert.NoError(t, err)

	for name, want := range map[string]string{"n": "a number", "s": "a string", "o": "an object", "l": "an array", "b": "a boolean"} {
		_, ok, err := extra.Get[int64](p, name)
		if name == "i" {
			continue
		}
		assert.True(t, ok, name)
		assert.EqualError(t, err, fmt.Sprintf("extra: property %q is %s, not a int64", name, want))
	}
	_, _, err = extra.Get[int64](p, "n")
	assert.Error(t, err, "2.5 is no integer")
}

// A property a newer server sends, read as what it is.
func ExampleGet() {
	var props extra.Properties
	if err := json.Unmarshal([]byte(`{"progress": 42.5, "phase": "routing"}`), &props); err != nil {
		panic(err)
	}
	progress, ok, err := extra.Get[float64](props, "progress")
	fmt.Println(progress, ok, err)
	_, ok, err = extra.Get[float64](props, "phase")
	fmt.Println(ok, err)
	_, ok, err = extra.Get[float64](props, "eta")
	fmt.Println(ok, err)
	// Output:
	// 42.5 true <nil>
	// true extra: property "phase" is a string, not a float64
	// false <nil>
}
