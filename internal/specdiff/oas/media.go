package oas

import (
	"mime"
	"strings"
)

// IsJSONMediaType reports whether a media type is JSON: application/json
// or a +json type, parameters aside.
func IsJSONMediaType(mt string) bool {
	base, _, err := mime.ParseMediaType(mt)
	if err != nil {
		base = mt
	}
	return base == "application/json" || strings.HasSuffix(base, "+json")
}
