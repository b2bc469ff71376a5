package probe

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/internal/jsondec"
	"github.com/scmodel/scmgo/internal/specdiff/oas"
)

// answerWalker walks a decoded answer along its schema. It reports the
// fields an object has that its model lacks (kin-openapi accepts them: our
// oas.Models allow additional properties so that clients keep them), required
// fields missing or null, and a missing required field whose place a
// single unknown field of the same JSON type took, as renamed. On the way
// it names the model path of every JSON pointer, for kin-openapi's errors.
type answerWalker struct {
	models   oas.Models
	pointers map[string]string // JSON pointer -> model path
	report   func(observation)
}

func (w *answerWalker) walk(v any, s *openapi3.Schema, path, pointer string) {
	if s == nil {
		return
	}
	path = w.models.At(path, s)
	w.pointers[pointer] = path
	switch t := v.(type) {
	case map[string]any:
		if len(s.Properties) > 0 {
			w.object(t, s, path, pointer)
		}
	case []any:
		if s.Items != nil {
			for i, e := range t {
				w.walk(e, s.Items.Value, oas.Elements(path), pointer+"/"+strconv.Itoa(i))
			}
		}
	}
}

func (w *answerWalker) object(o map[string]any, s *openapi3.Schema, path, pointer string) {
	var missing, unknown []string
	for _, name := range s.Required {
		v, ok := o[name]
		switch {
		case !ok:
			missing = append(missing, name)
		case v == nil && !propertyNullable(s, name):
			at := oas.Child(path, name)
			w.report(observation{kind: "probe-null", path: at, detail: fmt.Sprintf("%s is required; the answer has null", at), jsonType: "null"})
		}
	}
	types := map[string]string{} // the JSON types of the unknown fields
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if s.Properties[k] == nil {
			unknown = append(unknown, k)
			types[k] = jsonTypeOf(o[k])
		}
	}
	slices.Sort(missing)
	renamed := oas.PairRenames(missing, unknown, func(old, nu string) bool {
		return oas.CompatibleJSONType(schemaJSONType(oas.SchemaOf(s.Properties[old])), types[nu])
	})
	for _, name := range missing {
		prop, at := w.models.Label(oas.SchemaOf(s.Properties[name])), oas.Child(path, name)
		if nu, ok := renamed[name]; ok {
			w.report(observation{kind: "probe-renamed", path: at, jsonType: types[nu], renamedTo: nu,
				detail: fmt.Sprintf("%s (%s) is missing; the answer has %s (%s) instead", at, prop, nu, types[nu])})
			continue
		}
		w.report(observation{kind: "probe-missing", path: at, detail: fmt.Sprintf("%s (%s) is required; the answer lacks it", at, prop)})
	}
	taken := slices.Collect(maps.Values(renamed))
	for _, k := range unknown {
		if !slices.Contains(taken, k) {
			at := oas.Child(path, k)
			w.report(observation{kind: "probe-unknown-field", path: at, jsonType: types[k],
				detail: fmt.Sprintf("%s (%s) is not in the spec", at, types[k])})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if prop := s.Properties[k]; prop != nil && o[k] != nil {
			w.walk(o[k], prop.Value, oas.Child(path, k), pointer+"/"+escapePointer(k))
		}
	}
}

// pathOf is the model path of a JSON pointer's segments: that of the
// deepest walked value on the way.
func (w *answerWalker) pathOf(segments []string) string {
	for n := len(segments); n >= 0; n-- {
		pointer := ""
		for _, s := range segments[:n] {
			pointer += "/" + escapePointer(s)
		}
		if path, ok := w.pointers[pointer]; ok {
			return path
		}
	}
	return ""
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func propertyNullable(s *openapi3.Schema, name string) bool {
	p := oas.SchemaOf(s.Properties[name])
	return p != nil && p.Nullable
}

// jsonTypeOf names the JSON type of a decoded value as drift findings name
// it: jsondec.TypeOf of its JSON text, so that a number is an integer when
// it is written without a fraction or an exponent.
func jsonTypeOf(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%T", v)
	}
	return jsondec.TypeOf(raw)
}

// schemaJSONType is the JSON type a schema asks for, "" when any.
func schemaJSONType(s *openapi3.Schema) string {
	switch {
	case s == nil:
		return ""
	case oas.ObjectLike(s):
		return "object"
	case len(s.Type.Slice()) == 1:
		return s.Type.Slice()[0]
	}
	return ""
}

// shortJSON is a value as JSON, cut to 60 bytes.
func shortJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}
