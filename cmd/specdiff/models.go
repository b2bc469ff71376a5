package main

import "github.com/getkin/kin-openapi/openapi3"

// models names the component schemas of a document. A resolved $ref points
// at its component's own value, so a schema met anywhere in an operation is
// recognised by its pointer.
type models map[*openapi3.Schema]string

func modelsOf(doc *openapi3.T) models {
	m := models{}
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

// objectLike reports whether a schema describes a JSON object with named
// properties: the kind of schema a finding's path is rooted at.
func objectLike(s *openapi3.Schema) bool {
	return s != nil && (s.Type.Is("object") || len(s.Properties) > 0)
}

// at is the path of schema s reached at path: an object model starts a
// path of its own (ApiProjectResponse), so a model used by several
// operations has one path; anything else stays where it was reached
// (ApiScenarioData.type).
func (m models) at(path string, s *openapi3.Schema) string {
	if name := m[s]; name != "" && objectLike(s) {
		return name
	}
	return path
}

// label is how a schema is named in a finding: its model name, else its
// type and format (integer/int64, array of ApiPage).
func (m models) label(s *openapi3.Schema) string {
	if s == nil {
		return "no schema"
	}
	if name := m[s]; name != "" && objectLike(s) {
		return name
	}
	if s.Type.Is("array") && s.Items != nil && s.Items.Value != nil {
		return "array of " + m.label(s.Items.Value)
	}
	return typeName(s)
}

// child is the path of property name under path.
func child(path, name string) string { return path + "." + name }

// elements is the path of the items of the array at path.
func elements(path string) string { return path + "[]" }
