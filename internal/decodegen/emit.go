package main

import (
	"bytes"
	"fmt"
	"go/format"
	"slices"
	"strconv"
	"strings"
)

// emitter writes the decoders of the models reachable from the roots.
type emitter struct {
	tf      *typesFile
	out     bytes.Buffer
	written map[string]bool // generated functions, by name
	pending []*goType       // types whose functions are still to write
}

// render writes the decoders of the named models and of every model they
// hold, and DecodeJSON, which decodes with them.
func render(tf *typesFile, roots []string) ([]byte, error) {
	e := &emitter{tf: tf, written: map[string]bool{}}
	for _, name := range roots {
		t := tf.resolveName(name)
		if t.kind != kindStruct {
			return nil, fmt.Errorf("model %s does not keep unknown fields as raw JSON: it has no generated decoder", name)
		}
		e.need(t)
	}
	var models []*goType
	for len(e.pending) > 0 {
		t := e.pending[0]
		e.pending = e.pending[1:]
		if t.kind == kindStruct {
			models = append(models, t)
			e.need(&goType{kind: kindPointer, src: "*" + t.src, elem: t})
			e.need(&goType{kind: kindSlice, src: "[]" + t.src, elem: t})
		}
		e.function(t)
	}
	slices.SortFunc(models, func(a, b *goType) int { return strings.Compare(a.src, b.src) })
	functions := e.out.Bytes()
	e.out = bytes.Buffer{}
	e.out.WriteString(header)
	e.dispatch(models)
	e.out.Write(functions)
	src, err := format.Source(e.out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting generated decoders: %w", err)
	}
	return src, nil
}

func (e *emitter) printf(format string, args ...any) { fmt.Fprintf(&e.out, format, args...) }

// call returns the expression that decodes the next value into *ptr, of
// type t, and queues the functions it calls.
func (e *emitter) call(t *goType, ptr string) string {
	switch t.kind {
	case kindString:
		return "jsondec.Str(r, " + ptr + ")"
	case kindBool:
		return "jsondec.Bool(r, " + ptr + ")"
	case kindInt:
		return "jsondec.Int(r, " + ptr + ")"
	case kindFloat64:
		return "jsondec.Float64(r, " + ptr + ")"
	case kindFloat32:
		return "jsondec.Float32(r, " + ptr + ")"
	case kindRaw:
		return "r.Raw(" + ptr + ")"
	case kindFallback:
		return "r.Fallback(" + ptr + ")"
	}
	e.need(t)
	return "decode" + t.ident() + "(r, " + ptr + ")"
}

func (e *emitter) need(t *goType) {
	name := "decode" + t.ident()
	if !e.written[name] {
		e.written[name] = true
		e.pending = append(e.pending, t)
	}
}

func (e *emitter) function(t *goType) {
	switch t.kind {
	case kindStruct:
		e.structFunc(t, e.tf.models[t.src])
	case kindPointer:
		e.pointerFunc(t)
	case kindSlice:
		e.sliceFunc(t)
	case kindRawMap:
		e.rawMapFunc(t)
	}
}

func (e *emitter) structFunc(t *goType, m *model) {
	e.printf("\n// decode%s reads the object of a %s into the zero value *a.\n", t.ident(), m.name)
	e.printf("func decode%s(r *jsondec.Reader, a *%s) error {\n", t.ident(), m.name)
	e.printf("if ok, err := jsondec.Expect[%s](r, jx.Object); !ok {\nreturn err\n}\n", m.name)
	e.printf("fields := jsondec.Fields{Model: %s}\n", strconv.Quote(m.name))
	e.printf("if err := r.D.ObjBytes(func(_ *jx.Decoder, key []byte) error {\nswitch string(key) {\n")
	for i, f := range m.fields {
		e.printf("case %s:\njsondec.Zero(&a.%s)\n", strconv.Quote(f.jsonName), f.goName)
		e.printf("return fields.Note(%d, %s, %s)\n", i, strconv.Quote(f.jsonName), e.call(f.typ, "&a."+f.goName))
	}
	e.printf("default:\nreturn r.Unknown(&a.AdditionalProperties, key)\n}\n")
	e.printf("}); err != nil {\nreturn err\n}\nreturn fields.Err()\n}\n")
}

func (e *emitter) pointerFunc(t *goType) {
	e.printf("\n// decode%s reads a value into a new %s, or null into nil.\n", t.ident(), t.elem.src)
	e.printf("func decode%s(r *jsondec.Reader, v *%s) error {\n", t.ident(), t.src)
	e.printf("if r.D.Next() == jx.Null {\nreturn r.D.Null()\n}\n")
	e.printf("p := new(%s)\n*v = p\nreturn %s\n}\n", t.elem.src, e.call(t.elem, "p"))
}

// smallSlice is how many elements a slice decoder holds on the stack
// before it allocates: a row's cells usually fit, and then the slice is
// allocated once, at its final length.
const smallSlice = 8

func (e *emitter) sliceFunc(t *goType) {
	el := t.elem.src
	e.printf("\n// decode%s reads an array into a new %s, or null into nil.\n", t.ident(), t.src)
	e.printf("func decode%s(r *jsondec.Reader, v *%s) error {\n", t.ident(), t.src)
	e.printf("if ok, err := jsondec.Expect[%s](r, jx.Array); !ok {\nreturn err\n}\n", t.src)
	e.printf("var (\nelems jsondec.Elements\nsmall [%d]%s\nmore []%s\nn int\n)\n", smallSlice, el, el)
	e.printf("if err := r.D.Arr(func(*jx.Decoder) error {\nvar p *%s\n", el)
	e.printf("if n < len(small) {\np = &small[n]\n} else {\n")
	e.printf("if n == len(small) {\nmore = append(make([]%s, 0, 2*len(small)), small[:]...)\n}\n", el)
	e.printf("var zero %s\nmore = append(more, zero)\np = &more[n]\n}\n", el)
	e.printf("n++\nreturn elems.Note(n-1, %s)\n", e.call(t.elem, "p"))
	e.printf("}); err != nil {\nreturn err\n}\n")
	e.printf("if more == nil {\nmore = append(make([]%s, 0, n), small[:n]...)\n}\n*v = more\nreturn elems.Err()\n}\n", el)
}

func (e *emitter) rawMapFunc(t *goType) {
	e.printf("\n// decode%s reads an object into a new %s, or null into nil.\n", t.ident(), t.src)
	e.printf("func decode%s(r *jsondec.Reader, v *%s) error {\n", t.ident(), t.src)
	e.printf("if ok, err := jsondec.Expect[%s](r, jx.Object); !ok {\nreturn err\n}\n", t.src)
	e.printf("m := %s{}\n*v = m\n", t.src)
	e.printf("return r.D.ObjBytes(func(_ *jx.Decoder, key []byte) error {\nreturn r.Unknown(&m, key)\n})\n}\n")
}

// dispatch writes DecodeJSON, which decodes into a model, a pointer to one
// or a slice of them.
func (e *emitter) dispatch(models []*goType) {
	e.printf("%s", decodeJSONDoc)
	e.printf("func DecodeJSON(data []byte, v any) error {\nswitch v := v.(type) {\n")
	for _, t := range models {
		for _, form := range []struct{ ptr, src, reset string }{
			{"*", t.src, t.src + "{}"},
			{"**", "*" + t.src, "nil"},
			{"*[]", "[]" + t.src, "nil"},
		} {
			ft := formType(t, form.src)
			e.printf("case %s%s:\n*v = %s\n", form.ptr, t.src, form.reset)
			e.printf("return jsondec.Decode[%s](data, func(r *jsondec.Reader) error {\nreturn %s\n})\n", form.src, e.call(ft, "v"))
		}
	}
	e.printf("}\nreturn json.Unmarshal(data, v)\n}\n")
}

// formType is the type of a form of model t: t itself, a pointer to it or
// a slice of it.
func formType(t *goType, src string) *goType {
	switch src[0] {
	case '*':
		return &goType{kind: kindPointer, src: src, elem: t}
	case '[':
		return &goType{kind: kindSlice, src: src, elem: t}
	}
	return t
}

// sortedUnique orders names and drops repeats.
func sortedUnique(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}

const header = `// Code generated by internal/decodegen from api/openapi.yaml and gen/api.gen.go. DO NOT EDIT.

package gen

import (
	"encoding/json"

	"github.com/go-faster/jx"

	"github.com/scmodel/scmgo/internal/jsondec"
)
`

const decodeJSONDoc = `
// DecodeJSON decodes the JSON document data into v and gives the same
// result as json.Unmarshal into a zero value: the same fields, unknown fields
// kept verbatim in AdditionalProperties, and an error for the same inputs.
//
// The models that paged operations answer, and every model they hold, decode
// in a single pass, several times faster than through their UnmarshalJSON,
// when v is a pointer to one of them, a pointer to a pointer or a pointer to
// a slice; DecodeJSON replaces what *v held. Any other v goes to
// json.Unmarshal. An error of the fast decoders says where the value is, as
// a path of JSON names and indexes; a value of the wrong type unwraps to a
// *json.UnmarshalTypeError.
`
