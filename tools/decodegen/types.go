package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// kind is how a Go type is decoded.
type kind int

const (
	kindFallback kind = iota // through encoding/json
	kindString
	kindBool
	kindInt
	kindFloat64
	kindFloat32
	kindRaw    // json.RawMessage, kept verbatim
	kindStruct // a model that keeps unknown fields
	kindPointer
	kindSlice
	kindRawMap // map[string]json.RawMessage
	kindUnion  // a oneOf with a discriminator (see union)
)

// goType is a type expression of package gen.
type goType struct {
	kind  kind
	src   string  // Go source of the type
	elem  *goType // of a pointer, slice or map
	enum  bool    // a defined type with a Valid method: an enumeration
	basic string  // of a scalar: the basic type it is (int64, string, ...)
}

// ident names the type in the names of generated functions.
func (t *goType) ident() string {
	switch t.kind {
	case kindPointer:
		return t.elem.ident() + "Ptr"
	case kindSlice:
		return t.elem.ident() + "Slice"
	case kindRawMap:
		return t.elem.ident() + "Map"
	}
	name := strings.ReplaceAll(t.src, ".", "") // json.RawMessage: JsonRawMessage
	return strings.ToUpper(name[:1]) + name[1:]
}

type field struct {
	goName, jsonName string
	typ              *goType
	expr             ast.Expr // the Go type as written
	omitEmpty        bool     // the JSON tag says omitempty: an optional field
	site             *site    // what the spec says of it
}

type model struct {
	name   string
	fields []field
}

// typesFile is what decodegen needs of the file oapi-codegen wrote.
type typesFile struct {
	structs     map[string]*ast.StructType
	named       map[string]ast.Expr // other declared types, by name
	aliases     map[string]bool
	unmarshaled map[string]bool // types with an UnmarshalJSON method
	enums       map[string]bool // types with a Valid method: enumerations
	models      map[string]*model
	unions      map[string]*union // the oneOf types decodegen writes, by Go name
	foreign     *foreign          // the packages of this module it imports (ids)
}

// readTypes reads the file at path, or src when it is not nil.
func readTypes(path string, src ...any) (*typesFile, error) {
	var text any
	if len(src) > 0 {
		text = src[0]
	}
	f, err := parser.ParseFile(token.NewFileSet(), path, text, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	tf := &typesFile{structs: map[string]*ast.StructType{}, named: map[string]ast.Expr{}, aliases: map[string]bool{},
		unmarshaled: map[string]bool{}, enums: map[string]bool{}, models: map[string]*model{}, foreign: newForeign(path, f)}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if ts, ok := spec.(*ast.TypeSpec); ok {
					tf.addType(ts)
				}
			}
		case *ast.FuncDecl:
			switch {
			case d.Recv == nil:
			case d.Name.Name == "UnmarshalJSON":
				tf.unmarshaled[receiverName(d.Recv.List[0].Type)] = true
			case d.Name.Name == "Valid":
				tf.enums[receiverName(d.Recv.List[0].Type)] = true
			}
		}
	}
	return tf, nil
}

func (tf *typesFile) addType(ts *ast.TypeSpec) {
	if st, ok := ts.Type.(*ast.StructType); ok && !ts.Assign.IsValid() {
		tf.structs[ts.Name.Name] = st
		return
	}
	tf.named[ts.Name.Name] = ts.Type
	tf.aliases[ts.Name.Name] = ts.Assign.IsValid()
}

func receiverName(e ast.Expr) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

var builtins = map[string]kind{
	"string": kindString, "bool": kindBool, "float64": kindFloat64, "float32": kindFloat32,
	"int": kindInt, "int8": kindInt, "int16": kindInt, "int32": kindInt, "int64": kindInt,
}

// resolve classifies a type expression, reading the models it names.
func (tf *typesFile) resolve(e ast.Expr) *goType {
	src := exprString(e)
	fallback := &goType{kind: kindFallback, src: src}
	switch e := e.(type) {
	case *ast.Ident:
		return tf.resolveName(e.Name)
	case *ast.SelectorExpr:
		if src == "json.RawMessage" {
			return &goType{kind: kindRaw, src: src}
		}
		if pkg, ok := e.X.(*ast.Ident); ok {
			if basic := tf.foreign.basic(pkg.Name, e.Sel.Name); basic != "" {
				return &goType{kind: builtins[basic], src: src, basic: basic} // a defined type of ids
			}
		}
	case *ast.StarExpr:
		if elem := tf.resolve(e.X); elem.kind != kindFallback {
			return &goType{kind: kindPointer, src: src, elem: elem}
		}
	case *ast.ArrayType:
		if elem := tf.resolve(e.Elt); e.Len == nil && elem.kind != kindFallback {
			return &goType{kind: kindSlice, src: src, elem: elem}
		}
	case *ast.MapType:
		if elem := tf.resolve(e.Value); exprString(e.Key) == "string" && elem.kind == kindRaw {
			return &goType{kind: kindRawMap, src: src, elem: elem}
		}
	}
	return fallback
}

func (tf *typesFile) resolveName(name string) *goType {
	if k, ok := builtins[name]; ok {
		return &goType{kind: k, src: name, basic: name}
	}
	if _, ok := tf.unions[name]; ok {
		return &goType{kind: kindUnion, src: name}
	}
	if _, ok := tf.structs[name]; ok {
		if m := tf.model(name); m != nil {
			return &goType{kind: kindStruct, src: name}
		}
		return &goType{kind: kindFallback, src: name}
	}
	under, ok := tf.named[name]
	if !ok || tf.unmarshaled[name] {
		return &goType{kind: kindFallback, src: name}
	}
	t := tf.resolve(under)
	switch {
	case tf.aliases[name] && (t.kind == kindStruct || t.kind == kindUnion):
		return t // the same type: its model's decoder
	case tf.aliases[name]:
	case t.kind == kindString || t.kind == kindBool || t.kind == kindInt || t.kind == kindFloat64 || t.kind == kindFloat32:
		// a defined type of a basic type (an enumeration) decodes as it
	default:
		return &goType{kind: kindFallback, src: name}
	}
	return &goType{kind: t.kind, src: name, elem: t.elem, enum: tf.enums[name] && t.kind == kindString, basic: t.basic}
}

// model returns the model of a struct type, or nil when the struct does not
// keep unknown fields: a JSON name on every field and AdditionalProperties
// of type extra.Properties (oapi-codegen declares it a map of raw JSON,
// declareProperties changes its type, and decodegen writes the model's
// JSON methods, see methods.go).
func (tf *typesFile) model(name string) *model {
	if m, ok := tf.models[name]; ok {
		return m
	}
	tf.models[name] = nil // while its fields resolve, a recursive use is not yet known
	st := tf.structs[name]
	m := &model{name: name}
	var types []ast.Expr
	additional := false
	for _, f := range st.Fields.List {
		if len(f.Names) != 1 || f.Tag == nil {
			return nil
		}
		tag, _ := strconv.Unquote(f.Tag.Value)
		jsonName, options, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
		if f.Names[0].Name == "AdditionalProperties" && jsonName == "-" {
			additional = exprString(f.Type) == propertiesType
			continue
		}
		if jsonName == "" || jsonName == "-" {
			return nil
		}
		m.fields = append(m.fields, field{goName: f.Names[0].Name, jsonName: jsonName, expr: f.Type, omitEmpty: options == "omitempty"})
		types = append(types, f.Type)
	}
	if !additional {
		return nil
	}
	tf.models[name] = m
	for i, t := range types {
		m.fields[i].typ = tf.resolve(t)
	}
	return m
}

func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(e.X)
	case *ast.ArrayType:
		if e.Len != nil {
			return "[" + exprString(e.Len) + "]" + exprString(e.Elt)
		}
		return "[]" + exprString(e.Elt)
	case *ast.MapType:
		return "map[" + exprString(e.Key) + "]" + exprString(e.Value)
	case *ast.BasicLit:
		return e.Value
	case *ast.InterfaceType:
		return "interface{}"
	}
	return fmt.Sprintf("%T", e)
}
