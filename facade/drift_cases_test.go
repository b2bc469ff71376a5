package facade

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/gen"
)

// The answers of the drift table are built from the spec: a sample of each
// operation's answer with every property set, and variants of it that
// differ from the spec in one place each.

// loadSpecForDrift loads api/openapi.yaml.
func loadSpecForDrift(t testing.TB) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromFile("../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// answerSchema is the schema of an operation's JSON answer, nil when it
// has none.
func answerSchema(doc *openapi3.T, op gen.Operation) *openapi3.SchemaRef {
	item := doc.Paths.Value(op.Path)
	if item == nil || op.Response.Binary || len(op.Response.MediaTypes) == 0 {
		return nil
	}
	r := item.GetOperation(op.Method).Responses.Value(op.Response.Status)
	if r == nil || r.Value == nil {
		return nil
	}
	media := r.Value.Content.Get(op.Response.MediaTypes[0])
	if media == nil {
		return nil
	}
	return media.Schema
}

// sampler makes values that fit their schema, each scalar different.
type sampler struct{ n int }

func (g *sampler) value(ref *openapi3.SchemaRef, depth int) any {
	s := ref.Value
	g.n++
	switch {
	case len(s.OneOf) > 0:
		return g.oneOf(s, depth)
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Type.Is("string") && s.Format == "date-time":
		return fmt.Sprintf("2026-03-%02dT16:19:55.145394Z", 1+g.n%28)
	case s.Type.Is("string"):
		return fmt.Sprintf("s%d", g.n)
	case s.Type.Is("integer"):
		return json.Number(strconv.Itoa(g.n))
	case s.Type.Is("number"):
		return json.Number(strconv.Itoa(g.n) + ".5")
	case s.Type.Is("boolean"):
		return g.n%2 == 0
	case s.Type.Is("array") && s.Items != nil:
		return []any{g.value(s.Items, depth)}
	case len(s.Properties) > 0:
		o := map[string]any{}
		for name, prop := range s.Properties {
			if depth > 0 || slices.Contains(s.Required, name) {
				o[name] = g.value(prop, depth-1)
			}
		}
		return o
	}
	return map[string]any{"raw": json.Number(strconv.Itoa(g.n))} // any value: kept verbatim
}

// oneOf samples the first variant of a oneOf, its discriminator set to
// the value that names it.
func (g *sampler) oneOf(s *openapi3.Schema, depth int) any {
	v := g.value(s.OneOf[0], depth)
	if o, ok := v.(map[string]any); ok && s.Discriminator != nil {
		o[s.Discriminator.PropertyName] = refName(s.OneOf[0].Ref)
		for value, ref := range s.Discriminator.Mapping {
			if ref.Ref == s.OneOf[0].Ref {
				o[s.Discriminator.PropertyName] = value
			}
		}
	}
	return v
}

// variant is an answer that differs from the spec in one place.
type variant struct {
	name string
	doc  any   // the answer
	want any   // what the decoded answer encodes back to, with drop removed
	drop []any // a place left out of the comparison: a missing or null field
	// the finding expected, "" for none
	kind, path string
}

// place is where a property sits: its location in the document, and its
// model path as findings give it.
type place struct {
	loc    []any  // keys and indexes from the top of the document
	owner  string // the model path of the object that holds it
	name   string
	schema *openapi3.SchemaRef
	parent *openapi3.Schema
}

func (p place) path() string { return p.owner + "." + p.name }

// at is the model path of the property's value: a model's own name.
func (p place) at() string {
	if name := refName(p.schema.Ref); name != "" && objectLikeSchema(p.schema.Value) {
		return name
	}
	return p.path()
}

func refName(ref string) string { return ref[strings.LastIndex(ref, "/")+1:] }

func objectLikeSchema(s *openapi3.Schema) bool {
	return s.Type.Is("object") || len(s.Properties) > 0
}

// places lists the properties of the value v of schema ref found at loc,
// nested ones included, following the first element of arrays.
func places(ref *openapi3.SchemaRef, v any, loc []any, path string) []place {
	s := ref.Value
	if name := refName(ref.Ref); name != "" && objectLikeSchema(s) {
		path = name
	}
	var out []place
	switch v := v.(type) {
	case map[string]any:
		for _, name := range sortedKeysOf(v) {
			prop := s.Properties[name]
			if prop == nil {
				continue
			}
			at := append(slices.Clip(loc), name)
			p := place{loc: at, owner: path, name: name, schema: prop, parent: s}
			out = append(out, p)
			out = append(out, places(prop, v[name], at, p.path())...)
		}
	case []any:
		if s.Items != nil && len(v) > 0 {
			out = append(out, places(s.Items, v[0], append(slices.Clip(loc), 0), path+"[]")...)
		}
	}
	return out
}

// variants of the answer doc: for each property, retyped beyond
// conversion, retyped where conversion loses nothing, missing, null, and
// with an unknown field beside it.
func variants(root *openapi3.SchemaRef, doc any) []variant {
	var out []variant
	for _, p := range places(root, doc, nil, "") {
		s := p.schema.Value
		required := slices.Contains(p.parent.Required, p.name)
		out = append(out, variant{name: p.path() + " missing", doc: without(doc, p.loc), want: without(doc, p.loc), drop: p.loc,
			kind: when(required, drift.KindMissing), path: p.path()})
		out = append(out, variant{name: p.path() + " null", doc: replaced(doc, p.loc, nil), want: replaced(doc, p.loc, nil), drop: p.loc,
			kind: when(required && !s.Nullable, drift.KindNull), path: p.path()})
		unknown := append(slices.Clip(p.loc[:len(p.loc)-1]), "zzUnknown")
		withUnknown := replaced(doc, unknown, "u")
		out = append(out, variant{name: p.path() + " beside an unknown field", doc: withUnknown, want: withUnknown,
			kind: drift.KindUnknownField, path: p.owner + ".zzUnknown"})
		if retyped := retype(s); retyped != nil {
			d := replaced(doc, p.loc, retyped)
			out = append(out, variant{name: p.path() + " retyped", doc: d, want: d, kind: drift.KindType, path: p.at()})
		}
		if sent, got, ok := convertible(s, get(doc, p.loc)); ok {
			out = append(out, variant{name: p.path() + " converted", doc: replaced(doc, p.loc, sent), want: replaced(doc, p.loc, got),
				kind: drift.KindType, path: p.at()})
		}
	}
	return out
}

func when(b bool, kind string) string {
	if b {
		return kind
	}
	return ""
}

// retype is a value of another JSON type than s's that no conversion
// takes; nil when s takes any value.
func retype(s *openapi3.Schema) any {
	switch {
	case s.Type.Is("object") || s.Type.Is("array") || len(s.Properties) > 0:
		return "retyped"
	case s.Type.Is("string") || s.Type.Is("integer") || s.Type.Is("number") || s.Type.Is("boolean"):
		return map[string]any{"retyped": []any{true}}
	}
	return nil
}

// convertible returns a value of another JSON type that converts to the
// value v of schema s without loss, and the value it converts to.
func convertible(s *openapi3.Schema, v any) (sent, got any, ok bool) {
	switch {
	case len(s.Enum) > 0:
		return nil, nil, false
	case s.Type.Is("string") && s.Format == "":
		return json.Number("12345"), "12345", true
	case s.Type.Is("integer"), s.Type.Is("number"):
		return string(v.(json.Number)), v, true
	case s.Type.Is("boolean"):
		return strconv.FormatBool(v.(bool)), v, true
	}
	return nil, nil, false
}

// deep copies a JSON tree.
func deep(v any) any {
	switch v := v.(type) {
	case map[string]any:
		o := make(map[string]any, len(v))
		for k, e := range v {
			o[k] = deep(e)
		}
		return o
	case []any:
		o := make([]any, len(v))
		for i, e := range v {
			o[i] = deep(e)
		}
		return o
	}
	return v
}

func get(doc any, loc []any) any {
	for _, step := range loc {
		switch s := step.(type) {
		case string:
			doc = doc.(map[string]any)[s]
		case int:
			doc = doc.([]any)[s]
		}
	}
	return doc
}

// replaced is a copy of doc with the value at loc set to v.
func replaced(doc any, loc []any, v any) any {
	out := deep(doc)
	parent := get(out, loc[:len(loc)-1])
	switch last := loc[len(loc)-1].(type) {
	case string:
		parent.(map[string]any)[last] = v
	case int:
		parent.([]any)[last] = v
	}
	return out
}

// without is a copy of doc without the property at loc.
func without(doc any, loc []any) any {
	out := deep(doc)
	if m, ok := get(out, loc[:len(loc)-1]).(map[string]any); ok {
		delete(m, loc[len(loc)-1].(string))
	}
	return out
}

func sortedKeysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// normalized is a value encoded and decoded again, numbers as float64, so
// that two trees compare with reflect.DeepEqual.
func normalized(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
