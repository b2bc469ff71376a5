package probe

import (
	"encoding/json"
	"testing"
)

// A decoded value's JSON type is named as drift findings name it: by its
// JSON text, so a number written without a fraction or an exponent is an
// integer, whether it was decoded as json.Number (the probe's own walk) or
// float64 (kin-openapi's schema errors).
func TestJSONTypeOfDecodedValues(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{nil, "null"}, {"x", "string"}, {true, "boolean"}, {false, "boolean"},
		{json.Number("12"), "integer"}, {json.Number("1.5"), "number"}, {json.Number("1e3"), "number"},
		{float64(12), "integer"}, {1.5, "number"}, {1e21, "number"},
		{map[string]any{"a": json.Number("1")}, "object"}, {[]any{}, "array"},
	} {
		if got := jsonTypeOf(tc.v); got != tc.want {
			t.Errorf("jsonTypeOf(%#v) = %s, want %s", tc.v, got, tc.want)
		}
	}
}
