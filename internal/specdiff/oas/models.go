package oas

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/internal/spec"
)

// Models names the component schemas of a document. A resolved $ref points
// at its component's own value, so a schema met anywhere in an operation is
// recognised by its pointer.
type Models map[*openapi3.Schema]string

// ModelsOf names the component schemas of doc; none when doc is nil.
func ModelsOf(doc *openapi3.T) Models {
	m := Models{}
	if doc == nil || doc.Components == nil {
		return m
	}
	for name, ref := range doc.Components.Schemas {
		if ref != nil && ref.Value != nil {
			m[ref.Value] = name
		}
	}
	return m
}

// ObjectLike reports whether a schema describes a JSON object with named
// properties: the kind of schema a finding's path is rooted at.
func ObjectLike(s *openapi3.Schema) bool {
	return s != nil && (s.Type.Is("object") || len(s.Properties) > 0)
}

// At is the path of schema s reached at path: an object model starts a
// path of its own (ApiProjectResponse), so a model used by several
// operations has one path; anything else stays where it was reached
// (ApiScenarioData.type).
func (m Models) At(path string, s *openapi3.Schema) string {
	if name := m[s]; name != "" && ObjectLike(s) {
		return name
	}
	return path
}

// Label is how a schema is named in a finding: its model name, else its
// type and format (integer/int64, array of ApiPage).
func (m Models) Label(s *openapi3.Schema) string {
	if s == nil {
		return "no schema"
	}
	if name := m[s]; name != "" && ObjectLike(s) {
		return name
	}
	if s.Type.Is("array") && s.Items != nil && s.Items.Value != nil {
		return "array of " + m.Label(s.Items.Value)
	}
	return spec.TypeName(s)
}

// Child is the path of property name under path.
func Child(path, name string) string { return path + "." + name }

// Elements is the path of the items of the array at path.
func Elements(path string) string { return path + "[]" }

// SchemaOf is the schema a reference resolved to; nil for none.
func SchemaOf(ref *openapi3.SchemaRef) *openapi3.Schema {
	if ref == nil {
		return nil
	}
	return ref.Value
}
