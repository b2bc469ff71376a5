package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/internal/spec"
)

// Both names of every operation go into the index, an operation whose two
// names are one goes in once, and the table is an array the index points
// into.
func TestRenderIndexesBothNames(t *testing.T) {
	src, err := render([]spec.Operation{{ID: "getThings", SnakeName: "get_things"}, {ID: "translate", SnakeName: "translate"}})
	require.NoError(t, err)
	text := string(src)
	for _, line := range []string{`"getThings":  0,`, `"get_things": 0,`, `"translate":  1,`} {
		assert.Contains(t, text, line)
	}
	assert.Equal(t, 1, strings.Count(text, `"translate":`), "a name written twice would not compile")
	assert.Contains(t, text, "var operations = [...]Operation{")
}

// A name two operations share, as either name, is refused: a lookup by it
// could not choose.
func TestRenderRefusesASharedName(t *testing.T) {
	for name, ops := range map[string][]spec.Operation{
		"same id":                {{ID: "getThings", SnakeName: "get_things"}, {ID: "getThings", SnakeName: "get_things_2"}},
		"snake name is other id": {{ID: "getThings", SnakeName: "get_things"}, {ID: "get_things", SnakeName: "get_things_again"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := render(ops)
			require.Error(t, err)
			assert.Contains(t, err.Error(), `named "get`)
		})
	}
}
