package spec

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Operation mirrors gen.Operation field for field.
type Operation struct {
	ID           string
	SnakeName    string
	Tag          string
	Method       string
	Path         string
	Summary      string
	ChangesState bool
	Paged        bool
	PagedItems   string
	Inferred     bool
	HeldOpen     bool
	Async        *Async
	Params       []Param
	Body         *Body
	Response     Response
}

// Async mirrors gen.Async.
type Async struct {
	Role   string
	Poll   string
	Cancel string
	ID     string
}

// Param mirrors gen.Param.
type Param struct {
	Name     string
	Type     string
	Format   string
	Array    bool
	Required bool
	Default  string
	Enum     []string
	EnumType string
	Inferred bool
}

// Body mirrors gen.Body.
type Body struct {
	MediaType string
	Schema    string
	Required  bool
	Fields    []Field
	Sensitive []string
}

// Field mirrors gen.Field.
type Field struct {
	Name     string
	Type     string
	Format   string
	Array    bool
	Required bool
}

// Response mirrors gen.Response.
type Response struct {
	Status     string
	MediaTypes []string
	Schema     string
	Type       string
	Array      bool
	Binary     bool
}

// Load reads and validates an OpenAPI document.
func Load(path string) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", path, err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validating %s: %w", path, err)
	}
	return doc, nil
}

// LoadOperations loads the document at path and returns its operations in
// path order, then method order.
func LoadOperations(path string) ([]Operation, error) {
	doc, err := Load(path)
	if err != nil {
		return nil, err
	}
	_, top, err := ReadYAML(path)
	if err != nil {
		return nil, err
	}
	ops, err := Operations(doc)
	if err != nil {
		return nil, err
	}
	lines := OperationLines(top)
	sort.SliceStable(ops, func(i, j int) bool {
		return lines[ops[i].Method+" "+ops[i].Path] < lines[ops[j].Method+" "+ops[j].Path]
	})
	return ops, nil
}

var methodOrder = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// Operations reads the operation metadata of a loaded document, grouped by
// area. It fails when an operation lacks a required extension.
func Operations(doc *openapi3.T) ([]Operation, error) {
	var ops []Operation
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		for _, method := range methodOrder {
			o := item.GetOperation(method)
			if o == nil {
				continue
			}
			op, err := operation(method, path, o)
			if err != nil {
				return nil, fmt.Errorf("%s %s: %w", method, path, err)
			}
			ops = append(ops, op)
		}
	}
	sort.SliceStable(ops, func(i, j int) bool { return tagRank(ops[i].Tag) < tagRank(ops[j].Tag) })
	return ops, nil
}

// Tags lists the areas of the interface in the reference's order.
var Tags = []string{"Projects", "Scenarios", "Import", "Experiments", "Results", "Variations", "Last mile optimization", "User"}

func tagRank(tag string) int {
	if i := slices.Index(Tags, tag); i >= 0 {
		return i
	}
	return len(Tags)
}

func operation(method, path string, o *openapi3.Operation) (Operation, error) {
	op := Operation{ID: o.OperationID, Method: method, Path: path, Summary: o.Summary}
	if len(o.Tags) != 1 {
		return op, fmt.Errorf("operation %s: want exactly one tag, have %d", o.OperationID, len(o.Tags))
	}
	op.Tag = o.Tags[0]
	var err error
	if op.SnakeName, err = stringExt(o.Extensions, "x-snake-case-name"); err != nil {
		return op, fmt.Errorf("operation %s: %w", o.OperationID, err)
	}
	if op.ChangesState, err = boolExt(o.Extensions, "x-changes-state", true); err != nil {
		return op, fmt.Errorf("operation %s: %w", o.OperationID, err)
	}
	if op.Paged, err = boolExt(o.Extensions, "x-paging", true); err != nil {
		return op, fmt.Errorf("operation %s: %w", o.OperationID, err)
	}
	if op.Paged {
		if op.PagedItems, err = stringExt(o.Extensions, "x-paged-items"); err != nil {
			return op, fmt.Errorf("operation %s: %w", o.OperationID, err)
		}
	}
	op.Inferred, _ = boolExt(o.Extensions, "x-inferred", false)
	if op.HeldOpen, err = boolExt(o.Extensions, "x-held-open", false); err != nil {
		return op, fmt.Errorf("operation %s: %w", o.OperationID, err)
	}
	if raw, ok := o.Extensions["x-async"]; ok {
		if op.Async, err = asyncExt(raw); err != nil {
			return op, fmt.Errorf("operation %s: x-async: %w", o.OperationID, err)
		}
	}
	for _, pr := range o.Parameters {
		op.Params = append(op.Params, param(pr.Value))
	}
	if o.RequestBody != nil && o.RequestBody.Value != nil {
		op.Body = body(o.RequestBody.Value)
	}
	op.Response = response(o.Responses)
	return op, nil
}

func param(p *openapi3.Parameter) Param {
	out := Param{Name: p.Name, Required: p.Required}
	out.Inferred, _ = boolExt(p.Extensions, "x-inferred", false)
	s := p.Schema
	if s.Value.Type.Is("array") {
		out.Array = true
		s = s.Value.Items
	}
	out.Type, out.Format = typeOf(s.Value), s.Value.Format
	if p.Schema.Value.Default != nil {
		b, _ := json.Marshal(p.Schema.Value.Default)
		out.Default = string(b)
	}
	if s.Ref != "" {
		out.EnumType = refName(s.Ref)
	}
	for _, v := range s.Value.Enum {
		out.Enum = append(out.Enum, fmt.Sprint(v))
	}
	return out
}

func body(rb *openapi3.RequestBody) *Body {
	out := &Body{Required: rb.Required}
	for _, mt := range []string{"application/json", "multipart/form-data"} {
		media := rb.Content.Get(mt)
		if media == nil {
			continue
		}
		out.MediaType = mt
		if mt == "application/json" {
			out.Schema = refName(media.Schema.Ref)
			out.Sensitive = sensitive(media.Schema.Value)
			continue
		}
		s := media.Schema.Value
		for _, name := range sortedKeys(s.Properties) {
			f := s.Properties[name].Value
			field := Field{Name: name, Required: slices.Contains(s.Required, name)}
			if f.Type.Is("array") {
				field.Array = true
				f = f.Items.Value
			}
			field.Type, field.Format = typeOf(f), f.Format
			out.Fields = append(out.Fields, field)
		}
	}
	return out
}

func response(rs *openapi3.Responses) Response {
	status := "200"
	r := rs.Value(status)
	if r == nil {
		status = "default"
		r = rs.Default()
	}
	out := Response{Status: status}
	out.MediaTypes = append(out.MediaTypes, sortedKeys(r.Value.Content)...)
	if len(out.MediaTypes) == 0 {
		return out
	}
	media := r.Value.Content.Get(out.MediaTypes[0])
	s := media.Schema
	if s.Value.Type.Is("array") {
		out.Array = true
		s = s.Value.Items
	}
	if s.Ref != "" {
		out.Schema = refName(s.Ref)
	} else {
		out.Type = typeOf(s.Value)
	}
	out.Binary = s.Value.Format == "binary"
	return out
}

// sensitive lists the properties of s (and of the objects it holds) that
// carry x-sensitive: true.
func sensitive(s *openapi3.Schema) []string {
	var out []string
	for _, name := range sortedKeys(s.Properties) {
		p := s.Properties[name].Value
		if v, _ := boolExt(p.Extensions, "x-sensitive", false); v {
			out = append(out, name)
		}
	}
	return out
}

func typeOf(s *openapi3.Schema) string {
	if s.Type == nil || len(s.Type.Slice()) == 0 {
		return ""
	}
	return s.Type.Slice()[0]
}

func refName(ref string) string { return ref[strings.LastIndex(ref, "/")+1:] }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func stringExt(ext map[string]any, name string) (string, error) {
	v, ok := ext[name]
	if !ok {
		return "", fmt.Errorf("missing %s", name)
	}
	s, ok := v.(string)
	if !ok || s == "" {
		return "", fmt.Errorf("%s must be a non-empty string, have %v", name, v)
	}
	return s, nil
}

func boolExt(ext map[string]any, name string, required bool) (bool, error) {
	v, ok := ext[name]
	if !ok {
		if required {
			return false, fmt.Errorf("missing %s", name)
		}
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("%s must be a boolean, have %v", name, v)
	}
	return b, nil
}

func asyncExt(raw any) (*Async, error) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a mapping, have %T", raw)
	}
	get := func(k string) string { s, _ := m[k].(string); return s }
	a := &Async{Role: get("role"), Poll: get("poll"), Cancel: get("cancel"), ID: get("id")}
	switch a.Role {
	case "start":
		if a.Poll == "" || a.Cancel == "" || a.ID == "" {
			return nil, fmt.Errorf("role start needs poll, cancel and id")
		}
	case "poll", "cancel":
		if a.ID == "" {
			return nil, fmt.Errorf("role %s needs id", a.Role)
		}
	default:
		return nil, fmt.Errorf("unknown role %q", a.Role)
	}
	return a, nil
}

// TypeName is a schema's type as drift findings and specdiff name it: its
// type and format (integer/int64), "array of" its items' (array of
// string), "any" when it has no type.
func TypeName(s *openapi3.Schema) string {
	if s.Type.Is("array") && s.Items != nil && s.Items.Value != nil {
		return "array of " + TypeName(s.Items.Value)
	}
	t := strings.Join(s.Type.Slice(), ",")
	if t == "" {
		t = "any"
	}
	if s.Format != "" {
		t += "/" + s.Format
	}
	return t
}
