package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"
)

// union is a oneOf schema with a discriminator whose Go type the spec
// names with x-go-type: oapi-codegen declares the schema an alias of that
// type, and decodegen writes the type. It holds one pointer per variant,
// set for the variant the discriminator names, and Raw for an object whose
// discriminator names none.
type union struct {
	goName   string // the Go type, x-go-type
	schema   string // the component's name
	prop     string // the discriminator's JSON name
	variants []variant
}

type variant struct {
	value  string // the discriminator's value
	goType string // the variant's Go type
	field  string // the union's field that holds it
}

// loadUnions finds the unions of the spec, by Go type name.
func loadUnions(doc *openapi3.T) (map[string]*union, error) {
	out := map[string]*union{}
	if doc == nil || doc.Components == nil {
		return out, nil
	}
	for name, ref := range doc.Components.Schemas {
		if ref == nil || ref.Value == nil {
			continue // unresolved: the spec's validation reports it
		}
		s := ref.Value
		if len(s.OneOf) == 0 || s.Discriminator == nil {
			continue
		}
		goName, _ := s.Extensions["x-go-type"].(string)
		if goName == "" {
			continue
		}
		u, err := newUnion(name, goName, s)
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		out[goName] = u
	}
	return out, nil
}

func newUnion(name, goName string, s *openapi3.Schema) (*union, error) {
	u := &union{goName: goName, schema: name, prop: s.Discriminator.PropertyName}
	fields, _ := s.Extensions["x-variant-names"].(map[string]any)
	mapping := map[string]string{}
	for value, ref := range s.Discriminator.Mapping {
		mapping[value] = refName(ref.Ref)
	}
	if len(mapping) == 0 {
		for _, ref := range s.OneOf {
			mapping[refName(ref.Ref)] = refName(ref.Ref)
		}
	}
	for value, schema := range mapping {
		if schema == "" {
			return nil, fmt.Errorf("the variant %q is not a component schema", value)
		}
		field, _ := fields[value].(string)
		if field == "" {
			field = codegen.SchemaNameToTypeName(schema)
		}
		u.variants = append(u.variants, variant{value: value, goType: codegen.SchemaNameToTypeName(schema), field: field})
	}
	slices.SortFunc(u.variants, func(a, b variant) int { return strings.Compare(a.field, b.field) })
	return u, nil
}

// unionFunc writes the decoder of a union, and the union's type.
func (e *emitter) unionFunc(t *goType, u *union) error {
	models := make([]*model, len(u.variants))
	for i, v := range u.variants {
		vt := e.tf.resolveName(v.goType)
		if vt.kind != kindStruct {
			return fmt.Errorf("union %s: variant %s does not keep unknown fields as raw JSON", u.goName, v.goType)
		}
		models[i] = e.tf.models[v.goType]
		e.need(vt)
	}
	site := "site" + t.ident() + "Discriminator"
	path := u.schema + "." + u.prop
	fmt.Fprintf(&e.sites, "\n// %[1]s is the place of the discriminator of %[2]s.\nvar %[1]s = jsondec.Site{Name: %[3]s, Path: %[4]s, At: %[4]s, Type: \"string\", Label: \"string\", Required: true}\n",
		site, u.schema, strconv.Quote(u.prop), strconv.Quote(path))
	e.printf("\n// decode%s reads an object of %s into the zero value *u: into the\n", t.ident(), u.schema)
	e.printf("// variant its %s names, or whole into u.Raw when it names none or\n// the value is not an object.\n", u.prop)
	e.printf("func decode%s(r *jsondec.Reader, u *%s, _ *jsondec.Site) jsondec.Status {\n", t.ident(), u.goName)
	e.printf("if st, ok := r.Null(); ok {\nreturn st\n}\n")
	e.printf("value, found, st := r.Discriminator(%s)\n", strconv.Quote(u.prop))
	e.printf("if st == jsondec.Kept {\nu.Raw = r.Kept()\nr.Unmatched(&%s, \"\", false)\nreturn jsondec.OK\n}\n", site)
	e.printf("if st != jsondec.OK {\nreturn st\n}\n")
	e.printf("switch {\n")
	for _, v := range u.variants {
		e.printf("case found && value == %s:\nu.%s = new(%s)\nreturn %s\n", strconv.Quote(v.value), v.field, v.goType,
			e.call(&goType{kind: kindStruct, src: v.goType}, "u."+v.field, "nil"))
	}
	e.printf("}\nif st := r.Raw(&u.Raw); st != jsondec.OK {\nreturn st\n}\n")
	e.printf("r.Unmatched(&%s, value, found)\nreturn jsondec.OK\n}\n", site)
	e.unionType(t, u, models)
	return nil
}

// unionType writes the union's type, its JSON methods, the accessor of its
// discriminator and of each field every variant has.
func (e *emitter) unionType(t *goType, u *union, models []*model) {
	var names []string
	for _, v := range u.variants {
		names = append(names, v.goType+" ("+v.field+")")
	}
	e.printf("\n// %s is %s: one of %s, told apart by %s.\n", u.goName, u.schema, strings.Join(names, ", "), u.prop)
	e.printf("// One field is set: the variant's, or Raw, which holds the object verbatim\n")
	e.printf("// when its %s names no variant (a drift finding reports it).\n", u.prop)
	e.printf("type %s struct {\n", u.goName)
	for _, v := range u.variants {
		e.printf("%s *%s // when %s is %s\n", v.field, v.goType, u.prop, v.value)
	}
	e.printf("Raw json.RawMessage // an object whose %s names no variant\n}\n", u.prop)

	discGo := discriminatorField(models[0], u.prop)
	e.printf("\n// %s returns the %s of the variant held, or of the object kept raw.\n", discGo, u.prop)
	e.printf("func (u %s) %s() string {\nswitch {\n", u.goName, discGo)
	for _, v := range u.variants {
		e.printf("case u.%s != nil:\nreturn %s\n", v.field, strconv.Quote(v.value))
	}
	e.printf("}\nvar probe struct {\nV string `json:%s`\n}\n_ = json.Unmarshal(u.Raw, &probe)\nreturn probe.V\n}\n", strconv.Quote(u.prop))

	for _, f := range commonFields(u, models) {
		e.printf("\n// %s returns the %s of the variant held, nil when none is.\n", f.goName, f.jsonName)
		ret, addr := f.typ.src, ""
		if f.typ.kind != kindPointer {
			ret, addr = "*"+f.typ.src, "&"
		}
		e.printf("func (u %s) %s() %s {\nswitch {\n", u.goName, f.goName, ret)
		for _, v := range u.variants {
			e.printf("case u.%[1]s != nil:\nreturn %[2]su.%[1]s.%[3]s\n", v.field, addr, f.goName)
		}
		e.printf("}\nreturn nil\n}\n")
	}

	e.printf("\n// MarshalJSON writes the variant held, its %s filled in when empty, or Raw.\n", u.prop)
	e.printf("func (u %s) MarshalJSON() ([]byte, error) {\nswitch {\n", u.goName)
	for i, v := range u.variants {
		e.printf("case u.%s != nil:\nv := *u.%[1]s\n", v.field)
		if f := modelField(models[i], u.prop); f != nil && f.typ.kind == kindString {
			e.printf("if v.%s == \"\" {\nv.%[1]s = %s\n}\n", f.goName, strconv.Quote(v.value))
		}
		e.printf("return json.Marshal(v)\n")
	}
	e.printf("case u.Raw != nil:\nreturn u.Raw, nil\n}\nreturn []byte(\"null\"), nil\n}\n")

	e.printf("\n// UnmarshalJSON reads data as DecodeAnswer does, dropping the differences.\n")
	e.printf("func (u *%s) UnmarshalJSON(data []byte) error {\n*u = %[1]s{}\nr := jsondec.Begin(data, nil)\n", u.goName)
	e.printf("st := decode%s(r, u, nil)\n", t.ident())
	e.printf("return r.Finish(st, &jsondec.Site{Path: %s, At: %[1]s, Type: \"object\", Label: %[1]s})\n}\n", strconv.Quote(u.schema))
}

// commonFields are the fields but the discriminator that every variant has
// with the same Go name and type, and that no field of the union shadows.
func commonFields(u *union, models []*model) []field {
	var out []field
	for _, f := range models[0].fields {
		if f.jsonName == u.prop || slices.ContainsFunc(u.variants, func(v variant) bool { return v.field == f.goName }) {
			continue
		}
		all := true
		for _, m := range models[1:] {
			g := modelField(m, f.jsonName)
			all = all && g != nil && g.goName == f.goName && g.typ.src == f.typ.src
		}
		if all {
			out = append(out, f)
		}
	}
	return out
}

func modelField(m *model, jsonName string) *field {
	for i := range m.fields {
		if m.fields[i].jsonName == jsonName {
			return &m.fields[i]
		}
	}
	return nil
}

// discriminatorField is the Go name of the discriminator's accessor.
func discriminatorField(m *model, prop string) string {
	if f := modelField(m, prop); f != nil {
		return f.goName
	}
	return codegen.SchemaNameToTypeName(prop)
}
