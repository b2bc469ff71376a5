package oas

import (
	"maps"
	"testing"
)

// A missing property pairs with an unknown one only when each is the
// other's only candidate.
func TestPairRenamesPairsOnlyTheOnlyCandidates(t *testing.T) {
	types := map[string]string{"name": "string", "title": "string", "id": "integer", "key": "integer", "count": "integer", "size": "number"}
	same := func(old, nu string) bool { return types[old] == types[nu] }
	for name, tc := range map[string]struct {
		missing, unknown []string
		want             map[string]string
	}{
		"one of one":           {[]string{"name"}, []string{"title"}, map[string]string{"name": "title"}},
		"two candidates":       {[]string{"id"}, []string{"key", "count"}, map[string]string{}},
		"two missing, one new": {[]string{"id", "count"}, []string{"key"}, map[string]string{}},
		"of another type":      {[]string{"name"}, []string{"size"}, map[string]string{}},
		"each its own":         {[]string{"name", "id"}, []string{"title", "key"}, map[string]string{"name": "title", "id": "key"}},
	} {
		if got := PairRenames(tc.missing, tc.unknown, same); !maps.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", name, got, tc.want)
		}
	}
}

func TestCompatibleJSONType(t *testing.T) {
	for _, tc := range []struct {
		schema, value string
		want          bool
	}{
		{"string", "string", true}, {"number", "integer", true}, {"integer", "number", false},
		{"object", "array", false}, {"", "string", false}, {"", "", false},
	} {
		if got := CompatibleJSONType(tc.schema, tc.value); got != tc.want {
			t.Errorf("CompatibleJSONType(%q, %q) = %v, want %v", tc.schema, tc.value, got, tc.want)
		}
	}
}
