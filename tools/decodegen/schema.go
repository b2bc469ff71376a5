package main

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"

	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/oas"
)

// site is what the spec says of the place of a value, as jsondec.Site
// holds it: the names and types a finding about it gives.
type site struct {
	name, path, at, named, typ, label string
	required, nullable                bool
	elem                              *site
}

// schemas are the component schemas of the spec, by the name of the Go
// type oapi-codegen made of each.
type schemas struct {
	refs   map[string]*openapi3.SchemaRef
	names  map[string]string // the component's own name
	models oas.Models        // the components by schema, as specdiff names them
}

func newSchemas(doc *openapi3.T) *schemas {
	s := &schemas{refs: map[string]*openapi3.SchemaRef{}, names: map[string]string{}, models: oas.ModelsOf(doc)}
	if doc == nil || doc.Components == nil {
		return s
	}
	for name, ref := range doc.Components.Schemas {
		goName := codegen.SchemaNameToTypeName(name)
		s.refs[goName], s.names[goName] = ref, name
	}
	return s
}

// modelName is the spec's name of the model of Go type goName.
func (s *schemas) modelName(goName string) string {
	if name, ok := s.names[goName]; ok {
		return name
	}
	return goName
}

// modelSite is the site of a whole model: an answer, or an array's element.
func (s *schemas) modelSite(goName string) *site {
	name := s.modelName(goName)
	return &site{path: name, at: name, typ: "object", label: name}
}

// fieldSite is the site of the property jsonName of the model goName.
func (s *schemas) fieldSite(goName, jsonName string) *site {
	path := s.modelName(goName) + "." + jsonName
	var prop *openapi3.SchemaRef
	required := false
	if ref := s.refs[goName]; ref != nil && ref.Value != nil {
		prop = ref.Value.Properties[jsonName]
		required = slices.Contains(ref.Value.Required, jsonName)
	}
	st := s.valueSite(prop, path)
	st.name, st.path, st.required = jsonName, path, required
	st.nullable = prop != nil && prop.Value != nil && prop.Value.Nullable
	return st
}

// valueSite is the site of a value of schema ref reached at path: a model
// starts a path of its own, and is named, as in specdiff's findings
// (oas.Models).
func (s *schemas) valueSite(ref *openapi3.SchemaRef, path string) *site {
	st := &site{path: path, at: path, typ: "any", label: "any"}
	if ref == nil || ref.Value == nil {
		return st
	}
	v := ref.Value
	st.at = s.models.At(path, v)
	if name := refName(ref.Ref); name != "" && !oas.ObjectLike(v) {
		st.named = name
	}
	st.typ, st.label = spec.TypeName(v), s.models.Label(v)
	if v.Type.Is("array") && v.Items != nil {
		st.elem = s.valueSite(v.Items, st.at+"[]")
	}
	return st
}

// elemSite is the site of the elements of an array at st, whatever the
// spec says of it.
func (st *site) elemSite() *site {
	if st.elem == nil {
		st.elem = &site{path: st.at + "[]", at: st.at + "[]", typ: "any", label: "any"}
	}
	return st.elem
}

func refName(ref string) string {
	if ref == "" {
		return ""
	}
	return ref[strings.LastIndex(ref, "/")+1:]
}
