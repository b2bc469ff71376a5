package extra

import (
	"encoding/json"
	"fmt"
)

// Get reads the property name of p as a T, the typed read of an unknown
// field: ok is false, with no error, when p has no such property; err says
// so when it has one that is not a T (a number where T is a string, an
// object where it is a number). A JSON null is T's zero value. T is any
// type encoding/json decodes into: string, float64, int64, bool, a struct,
// a slice, json.RawMessage.
//
//	progress, ok, err := extra.Get[float64](state.AdditionalProperties, "progress")
func Get[T any](p Properties, name string) (v T, ok bool, err error) {
	raw, ok := p.Get(name)
	if !ok {
		return v, false, nil
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		var zero T
		return zero, true, fmt.Errorf("extra: property %q is %s, not a %T", name, kindOf(raw), zero)
	}
	return v, true, nil
}

// kindOf names the JSON kind of a raw value, by its first byte.
func kindOf(raw json.RawMessage) string {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case '"':
			return "a string"
		case '{':
			return "an object"
		case '[':
			return "an array"
		case 't', 'f':
			return "a boolean"
		case 'n':
			return "null"
		}
		return "a number"
	}
	return "empty"
}
