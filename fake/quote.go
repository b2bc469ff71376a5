package fake

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/getkin/kin-openapi/openapi3"
)

// maxQuoted bounds a value quoted in an error message: a longer one is cut
// there, with its length said.
const maxQuoted = 200

// clip cuts s at maxQuoted bytes, on a character boundary, saying how
// many bytes it left out (textcut.Cut).
func clip(s string) string { return textcut.Cut(s, maxQuoted) }

// quoteText quotes s for an error message, cut at maxQuoted bytes.
func quoteText(s string) string { return textcut.Quote(s, maxQuoted) }

// quoteValue shows a rejected value in an error message. A list or an
// object is named by its kind, never quoted (it can hold anything, and be
// any size); so is every value of a sensitive field. Other values are
// quoted and cut at maxQuoted bytes.
func quoteValue(v any, sensitive bool) string {
	kind := kindOf(v)
	switch {
	case sensitive:
		return kind + " (not shown: the field is sensitive)"
	case kind == "a list" || kind == "an object":
		return kind
	}
	if s, ok := v.(string); ok {
		return quoteText(s)
	}
	return clip(fmt.Sprint(v))
}

// kindOf names the JSON kind of a decoded value.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case json.Number, float64, float32, int, int32, int64, uint64:
		return "a number"
	}
	return "a value"
}

// sensitive tells whether a schema is marked x-sensitive: its values must
// never be logged nor shown.
func sensitive(s *openapi3.Schema) bool {
	if s == nil {
		return false
	}
	marked, _ := s.Extensions["x-sensitive"].(bool)
	return marked
}

// sensitivePath tells whether the field at path of a body of schema root is
// sensitive or lies within a sensitive field.
func sensitivePath(root *openapi3.Schema, path []string) bool {
	s := root
	for _, name := range path {
		if s == nil || sensitive(s) {
			return sensitive(s)
		}
		s = fieldSchema(s, name)
	}
	return sensitive(s)
}

// fieldSchema is the schema of a property or item of s, nil when unknown.
func fieldSchema(s *openapi3.Schema, name string) *openapi3.Schema {
	switch {
	case s.Properties[name] != nil:
		return s.Properties[name].Value
	case s.Items != nil:
		return s.Items.Value
	case s.AdditionalProperties.Schema != nil:
		return s.AdditionalProperties.Schema.Value
	}
	return nil
}

// syntaxProblem says where a JSON body stops being JSON, without quoting
// any of it.
func syntaxProblem(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("syntax error at byte offset %d", se.Offset)
	}
	var ue *json.UnmarshalTypeError
	if errors.As(err, &ue) {
		return fmt.Sprintf("%s where %s was expected, at byte offset %d", ue.Value, ue.Type, ue.Offset)
	}
	return clip(firstLine(err.Error()))
}
