package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// emitter writes the decoders of the models reachable from the roots.
type emitter struct {
	tf      *typesFile
	sc      *schemas
	out     bytes.Buffer
	sites   bytes.Buffer    // the site variables
	written map[string]bool // generated functions and variables, by name
	pending []*goType       // types whose functions are still to write
}

// render writes the decoders of the named models and of every model they
// hold, and DecodeAnswer and decodeAnswerWith, which decode with them.
func render(tf *typesFile, sc *schemas, roots []string) ([]byte, error) {
	e := &emitter{tf: tf, sc: sc, written: map[string]bool{}}
	for _, name := range roots {
		t := tf.resolveName(name)
		if t.kind != kindStruct {
			return nil, fmt.Errorf("model %s does not keep unknown fields as raw JSON: it has no generated decoder", name)
		}
		e.need(t)
	}
	for _, name := range slices.Sorted(maps.Keys(tf.unions)) {
		e.need(&goType{kind: kindUnion, src: name}) // gen names the type whether an answer holds it or not
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
		if err := e.function(t); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(models, func(a, b *goType) int { return strings.Compare(a.src, b.src) })
	functions := e.out.Bytes()
	e.out = bytes.Buffer{}
	if len(tf.unions) > 0 {
		e.out.WriteString(strings.Replace(header, "import (\n", "import (\n\t\"encoding/json\"\n\n", 1))
	} else {
		e.out.WriteString(header)
	}
	e.dispatch(models)
	e.out.Write(functions)
	e.out.Write(e.sites.Bytes())
	src, err := format.Source(e.out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting generated decoders: %w", err)
	}
	if src, err = tf.foreign.withImports(src); err != nil {
		return nil, err
	}
	if src, err = format.Source(src); err != nil {
		return nil, fmt.Errorf("formatting the imports of the generated decoders: %w", err)
	}
	return src, nil
}

func (e *emitter) printf(format string, args ...any) { fmt.Fprintf(&e.out, format, args...) }

// call returns the expression that decodes the next value into ptr, of
// type t, at the site expression site, and queues the functions it calls.
func (e *emitter) call(t *goType, ptr, site string) string {
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
		return "jsondec.Fallback(r, " + ptr + ")"
	}
	e.need(t)
	return "decode" + t.ident() + "(r, " + ptr + ", " + site + ")"
}

// enumCheck returns the statement that reports a value of an enumeration
// outside it, for the value expression v of type t, or "".
func enumCheck(t *goType, v, site string) string {
	switch {
	case t.kind == kindString && t.enum:
		return fmt.Sprintf("if (st == jsondec.OK || st == jsondec.Converted) && !%s.Valid() {\nr.Enum(%s, string(%[1]s))\n}\n", v, site)
	case t.kind == kindPointer && t.elem.kind == kindString && t.elem.enum:
		return fmt.Sprintf("if (st == jsondec.OK || st == jsondec.Converted) && %s != nil && !%[1]s.Valid() {\nr.Enum(%s, string(*%[1]s))\n}\n", v, site)
	}
	return ""
}

func (e *emitter) need(t *goType) {
	name := "decode" + t.ident()
	if !e.written[name] {
		e.written[name] = true
		e.pending = append(e.pending, t)
	}
}

func (e *emitter) function(t *goType) error {
	switch t.kind {
	case kindStruct:
		return e.structFunc(t, e.tf.models[t.src])
	case kindPointer:
		e.pointerFunc(t)
	case kindSlice:
		e.sliceFunc(t)
	case kindRawMap:
		e.rawMapFunc(t)
	case kindUnion:
		return e.unionFunc(t, e.tf.unions[t.src])
	}
	return nil
}

func (e *emitter) structFunc(t *goType, m *model) error {
	if len(m.fields) > 64 {
		return fmt.Errorf("model %s has %d fields: the decoders track at most 64", m.name, len(m.fields))
	}
	sites := "sites" + t.ident()
	keys := "keys" + t.ident()
	e.printf("\n// %s are the fields of %s as a server sends them, name and colon.\nvar %[1]s = [...]string{", keys, m.name)
	for _, f := range m.fields {
		e.printf("%s, ", strconv.Quote(jsonKey(f.jsonName)))
	}
	e.printf("}\n")
	var required uint64
	for i := range m.fields {
		f := &m.fields[i]
		f.site = e.sc.fieldSite(m.name, f.jsonName)
		if f.site.required {
			required |= 1 << i
		}
	}
	e.modelSites(t, m, sites)
	e.printf("\n// decode%s reads an object of %s into the zero value *a.\n", t.ident(), m.name)
	e.printf("func decode%s(r *jsondec.Reader, a *%s, _ *jsondec.Site) jsondec.Status {\n", t.ident(), m.name)
	e.printf("if st := r.Object(); st != jsondec.OK {\nreturn st\n}\nvar seen uint64\n")
	// The fields are looked for in the spec's order, as servers send
	// them: a name that is next is matched whole, without being scanned
	// and switched on, whitespace around the comma passed over. A name
	// that is not (an optional field left out, a field the spec does not
	// name, another order) is read and looked up, and the field after the
	// one it names is the next looked for.
	e.printf("next, first := 0, true\nfor {\nvar key []byte\nf := -1\n")
	e.printf("if next < len(%s) && (r.KeyIs(first, %[1]s[next]) || r.SpacedKeyIs(first, %[1]s[next])) {\nf = next\nnext++\n} else {\nvar ok bool\n", keys)
	e.printf("if first {\nkey, ok = r.FirstKey()\n} else {\nkey, ok = r.NextKey()\n}\nif !ok {\nbreak\n}\nswitch string(key) {\n")
	for i, f := range m.fields {
		e.printf("case %s:\nf, next = %d, %d\n", strconv.Quote(f.jsonName), i, i+1)
	}
	e.printf("}\n}\nfirst = false\nswitch f {\n")
	for i, f := range m.fields {
		site := fmt.Sprintf("&%s[%d]", sites, i)
		e.printf("case %d:\n", i)
		e.printf("if seen&(1<<%d) != 0 {\njsondec.Forget(&a.AdditionalProperties, %s)\njsondec.Zero(&a.%s)\n}\nseen |= 1 << %[1]d\n",
			i, strconv.Quote(f.jsonName), f.goName)
		e.printf("st := %s\n%s", e.call(f.typ, "&a."+f.goName, site), enumCheck(f.typ, "a."+f.goName, site))
		e.printf("if st != jsondec.OK && !r.Field(st, %s, &a.AdditionalProperties) {\nreturn jsondec.Failed\n}\n", site)
	}
	e.printf("default:\nif r.Unknown(&a.AdditionalProperties, key, %s) == jsondec.Failed {\nreturn jsondec.Failed\n}\n}\n}\n",
		strconv.Quote(e.sc.modelName(m.name)))
	e.printf("if r.Failed() {\nreturn jsondec.Failed\n}\n")
	if required != 0 {
		e.printf("if seen&%#x != %#[1]x {\nr.Missing(%s[:], seen)\n}\n", required, sites)
	}
	e.printf("return jsondec.OK\n}\n")
	return nil
}

func (e *emitter) pointerFunc(t *goType) {
	e.printf("\n// decode%s reads a value into a new %s, or null into nil.\n", t.ident(), t.elem.src)
	e.printf("func decode%s(r *jsondec.Reader, v *%s, s *jsondec.Site) jsondec.Status {\n", t.ident(), t.src)
	e.printf("if st, ok := r.Null(); ok {\nreturn st\n}\n")
	if slab := newValue(t.elem); !strings.HasPrefix(slab, "new(") {
		// a scalar is read into a local first, so that a value kept raw
		// takes no slot of the slab
		e.printf("var x %s\nst := %s\n", t.elem.src, e.call(t.elem, "&x", "s"))
		e.printf("if st != jsondec.Kept {\np := %s\n*p = x\n*v = p\n}\nreturn st\n}\n", slab)
		return
	}
	e.printf("p := %s\nst := %s\n", newValue(t.elem), e.call(t.elem, "p", "s"))
	e.printf("if st != jsondec.Kept {\n*v = p\n}\nreturn st\n}\n")
}

// newValue is the expression of a pointer to a new zero value of t: from
// the reader's slabs for the scalars of optional fields.
func newValue(t *goType) string {
	switch {
	case t.kind == kindString:
		return "jsondec.NewStr[" + t.src + "](r)"
	case t.kind == kindRaw:
		return "jsondec.NewRaw(r)"
	case t.kind == kindBool:
		return "jsondec.NewBool[" + t.src + "](r)"
	case t.kind == kindFloat64:
		return "jsondec.NewFloat64[" + t.src + "](r)"
	case t.kind == kindInt && t.basic == "int64":
		return "jsondec.NewInt64[" + t.src + "](r)"
	}
	return "new(" + t.src + ")"
}

// smallSlice is how many elements a slice decoder holds on the stack
// before it allocates: a row's cells usually fit, and then the slice is
// allocated once, at its final length.
const smallSlice = 8

func (e *emitter) sliceFunc(t *goType) {
	el := t.elem.src
	scratch := "scratch" + t.ident()
	e.printf("\n// %s sizes the slices arrays of %s are read into.\nvar %[1]s jsondec.Scratch[%s]\n", scratch, el)
	e.printf("\n// slab%s holds the short arrays of %s.\nvar slab%[1]s = jsondec.NewSlabOf[%s]()\n", t.ident(), el)
	e.printf("\n// decode%s reads an array into a new %s, or null into nil.\n", t.ident(), t.src)
	e.printf("func decode%s(r *jsondec.Reader, v *%s, s *jsondec.Site) jsondec.Status {\n", t.ident(), t.src)
	e.printf("start := r.Start()\nif st := r.Array(); st != jsondec.OK {\nreturn st\n}\n")
	e.printf("var (\nsmall [%d]%s\nbig []%s\nn int\nout = jsondec.OK\n)\n", smallSlice, el, el)
	e.printf("for ok := r.FirstElem(); ok; ok = r.NextElem() {\nvar p *%s\n", el)
	e.printf("if n < len(small) {\np = &small[n]\n} else {\n")
	e.printf("if big == nil {\nbig = jsondec.Grow(r, slab%s, &%s, small[:])\n}\n", t.ident(), scratch)
	e.printf("var zero %s\nbig = append(big, zero)\np = &big[n]\n}\nn++\n", el)
	e.printf("st := %s\n%s", e.call(t.elem, "p", "s.Elem"), enumCheck(t.elem, "(*p)", "s.Elem"))
	e.printf("if st != jsondec.OK {\nif st = r.Elem(st, s.Elem); st == jsondec.Failed {\nreturn st\n} else if st == jsondec.Lost {\nout = st\n}\n}\n}\n")
	e.printf("if r.Failed() {\nreturn jsondec.Failed\n}\n")
	e.printf("if big == nil {\n*v = jsondec.Small(r, slab%s, small[:n])\n} else {\n*v = jsondec.Done(r, slab%[1]s, &%s, big)\n}\n", t.ident(), scratch)
	e.printf("if out == jsondec.Lost {\nreturn r.KeepFrom(start)\n}\nreturn jsondec.OK\n}\n")
}

func (e *emitter) rawMapFunc(t *goType) {
	e.printf("\n// decode%s reads an object into a new %s, or null into nil.\n", t.ident(), t.src)
	e.printf("func decode%s(r *jsondec.Reader, v *%s, _ *jsondec.Site) jsondec.Status {\n", t.ident(), t.src)
	e.printf("if st := r.Object(); st != jsondec.OK {\nreturn st\n}\n")
	e.printf("m := %s{}\n*v = m\n", t.src)
	e.printf("for key, ok := r.FirstKey(); ok; key, ok = r.NextKey() {\nif r.Entry(m, key) == jsondec.Failed {\nreturn jsondec.Failed\n}\n}\n")
	e.printf("if r.Failed() {\nreturn jsondec.Failed\n}\nreturn jsondec.OK\n}\n")
}

// modelSites writes the sites of a model's fields, of the arrays they
// hold, and of the model as a whole.
func (e *emitter) modelSites(t *goType, m *model, name string) {
	var elems bytes.Buffer
	fmt.Fprintf(&e.sites, "\n// %s are the places of the fields of %s, in field order.\nvar %[1]s = [...]jsondec.Site{\n", name, m.name)
	for _, f := range m.fields {
		fmt.Fprintf(&e.sites, "%s,\n", e.siteLiteral(f.site, f.typ, "elem"+t.ident()+f.goName, &elems))
	}
	e.sites.WriteString("}\n")
	e.sites.Write(elems.Bytes())
	root := e.sc.modelSite(m.name)
	fmt.Fprintf(&e.sites, "\n// site%s is the place of a whole %s: an answer or an element.\nvar site%[1]s = jsondec.Site%[3]s\n",
		t.ident(), m.name, e.siteLiteral(root, t, "", nil))
}

// siteLiteral renders st, for a value of Go type t, writing the sites of
// the elements of the arrays t holds as variables named after elemName.
func (e *emitter) siteLiteral(st *site, t *goType, elemName string, elems *bytes.Buffer) string {
	for t.kind == kindPointer {
		t = t.elem
	}
	var b strings.Builder
	b.WriteString("{")
	for _, kv := range [][2]string{{"Name", st.name}, {"Path", st.path}, {"At", st.at}, {"Named", st.named}, {"Type", st.typ}, {"Label", st.label}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "%s: %s, ", kv[0], strconv.Quote(kv[1]))
		}
	}
	if st.required {
		b.WriteString("Required: true, ")
	}
	if st.nullable {
		b.WriteString("Nullable: true, ")
	}
	if t.kind == kindSlice {
		fmt.Fprintf(elems, "var %s = jsondec.Site%s\n", elemName, e.siteLiteral(st.elemSite(), t.elem, elemName+"Elem", elems))
		fmt.Fprintf(&b, "Elem: &%s", elemName)
	}
	b.WriteString("}")
	return b.String()
}

// dispatch writes DecodeAnswer and decodeAnswerWith, which decodes into a model, a pointer
// to one or a slice of them, and the scalars operations answer.
func (e *emitter) dispatch(models []*goType) {
	e.printf("%s", decodeJSONDoc)
	e.printf("func decodeAnswerWith(data []byte, v any, o *jsondec.Options) error {\nswitch v := v.(type) {\n")
	for _, t := range models {
		site := "&site" + t.ident()
		e.printf("case *%s:\n*v = %[1]s{}\nr := jsondec.Begin(data, o)\nreturn r.Finish(%s, %s)\n", t.src, e.call(t, "v", site), site)
		e.printf("case **%s:\n*v = nil\nr := jsondec.Begin(data, o)\nreturn r.Finish(%s, %s)\n", t.src,
			e.call(&goType{kind: kindPointer, src: "*" + t.src, elem: t}, "v", site), site)
		e.printf("case *[]%s:\n*v = nil\nsite := jsondec.ArraySite(o, %s)\nr := jsondec.Begin(data, o)\nreturn r.Finish(%s, site)\n",
			t.src, site, e.call(&goType{kind: kindSlice, src: "[]" + t.src, elem: t}, "v", "site"))
	}
	e.printf("}\nreturn jsondec.DecodeScalar(data, v, o)\n}\n")
}

// sortedUnique orders names and drops repeats.
func sortedUnique(names []string) []string {
	slices.Sort(names)
	return slices.Compact(names)
}

const header = `// Code generated by tools/decodegen from api/openapi.yaml and gen/api.gen.go. DO NOT EDIT.

package gen

import (
	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/internal/jsondec"
)

// SyntaxError is a malformed document: Offset is the byte where it stops
// being JSON. A decode stopped by its context is one too, at the byte it
// reached, and wraps the context's error.
type SyntaxError = jsondec.Error
`

const decodeJSONDoc = `
// DecodeAnswer decodes the JSON document data, an operation's answer, into
// v in a single pass, liberal in what it accepts, and hands each way the
// answer differs from the spec to note (when not nil), once per kind and
// place (a value outside an enumeration once per value), at most 1000
// differences, names and values cut to 256 bytes. root names the answer in
// the paths of values outside a model ("" is "answer"; specdiff names it
// "<operationId> 200 response"). The models' UnmarshalJSON decode as
// DecodeAnswer does and drop the differences: DecodeAnswer is for a caller
// that wants to see them. (The facade decodes every answer this way, and
// reports the differences to its drift handler.)
//
// v is a pointer to a model an operation answers (or one it holds), a
// pointer to a pointer to one, or a pointer to a slice of them; or a
// pointer to a bool, string, int64, float64 or json.RawMessage.
// DecodeAnswer replaces what *v held. Any other v goes to json.Unmarshal.
//
// On a document that json.Unmarshal decodes, DecodeAnswer gives the same
// value: unknown fields kept verbatim in AdditionalProperties, null leaving
// a field at its zero value, of repeated keys the last. Where
// json.Unmarshal fails on a value of the wrong type, DecodeAnswer goes on:
//   - A value of another JSON type is converted when nothing is lost: a
//     number for a string field becomes its JSON text; a string holding an
//     integer (as Go formats it) for an integer field, a number for a
//     number field, "true" or "false" for a bool; a number such as 2.0 for
//     an integer field. Such a value is reported (drift.KindType).
//   - Any other value of another type, or out of the range of the field's
//     format, leaves the field at its zero value (a pointer nil) and is kept
//     raw in the model's AdditionalProperties under the field's name, and
//     reported. The models' MarshalJSON writes a value kept raw under a
//     field's name in place of the field while the field is unset (nil,
//     or its zero value): a model read and sent back carries the raw value
//     unchanged, and a value the caller sets goes on the wire instead, for
//     a field that can be nil (every optional one) a pointer to a zero
//     value too. (A field that cannot be nil set to its zero value cannot
//     be told from one left unset: delete the value kept to send it.) An
//     element of an array that cannot be held leaves a zero element and
//     keeps the whole array raw.
//   - A required field missing, or null where the spec does not allow it,
//     leaves the field at its zero value and is reported (drift.KindMissing,
//     drift.KindNull); so is a value outside an enumeration, which is kept
//     (drift.KindEnum), and a field the spec does not name, kept in
//     AdditionalProperties (drift.KindUnknownField).
//
// Only a malformed document is an error: a *SyntaxError with the byte
// offset where it stops being JSON (nesting deeper than 10000 levels
// included, as in encoding/json). Strings and raw values of a document
// share a few allocated blocks of at most 64 KiB each.
func DecodeAnswer(data []byte, v any, root string, note func(drift.Finding)) error {
	return decodeAnswerWith(data, v, &jsondec.Options{Root: root, Note: note})
}

// decodeAnswerWith decodes as DecodeAnswer does, within the settings of o
// (nil for the defaults): internal/gendecode.DecodeAnswerWith.
`

// jsonKey is name as encoding/json writes it as an object's key, with the
// colon after it.
func jsonKey(name string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(name); err != nil {
		panic(err) // a string always encodes
	}
	return strings.TrimSuffix(b.String(), "\n") + ":"
}
