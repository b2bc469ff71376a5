package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/gendecode"
)

// For every field of every model an operation answers: an answer whose
// value there has a type that cannot be converted is kept raw under the
// field's name, and sent back while the caller leaves the field unset. A
// field that can be nil (every optional one) sends the caller's value once
// set, a pointer to a zero value or an empty slice included; a field that
// cannot be nil sends the caller's value once it is not the zero value, or
// once the caller deletes the value kept.
func TestCallerValueWinsOverValueKeptRaw(t *testing.T) {
	fields := map[bool]int{}
	seen := map[reflect.Type]bool{}
	for _, op := range gen.Operations() {
		model := answerModel(gendecode.NewAnswer(gen.OperationID(op.ID)))
		if model == nil || seen[model] {
			continue
		}
		seen[model] = true
		for i := range model.NumField() {
			if name := jsonName(model.Field(i)); name != "" {
				if nilable, checked := checkField(t, model, i, name); checked {
					fields[nilable]++
				}
			}
		}
	}
	if fields[true] < 50 || fields[false] < 30 {
		t.Fatalf("only %d fields that can be nil and %d that cannot were retyped, kept raw and set: the models changed shape", fields[true], fields[false])
	}
}

// checkField checks field i (JSON name) of model and says whether it can
// be nil; checked is false when the decoder converts the odd value.
func checkField(t *testing.T, model reflect.Type, i int, name string) (nilable, checked bool) {
	t.Helper()
	odd := `{"odd":[1]}`
	if k := model.Field(i).Type.Kind(); k == reflect.Struct || k == reflect.Map ||
		(k == reflect.Pointer && model.Field(i).Type.Elem().Kind() == reflect.Struct) {
		odd = `[true]`
	}
	ptr := reflect.New(model)
	if err := gen.DecodeAnswer([]byte(`{"`+name+`":`+odd+`}`), ptr.Interface(), "", nil); err != nil {
		t.Fatalf("%s.%s: %v", model.Name(), name, err)
	}
	props := ptr.Elem().FieldByName("AdditionalProperties").Addr().Interface().(*extra.Properties)
	if !props.Has(name) {
		return false, false
	}
	if got := wireValue(t, ptr.Interface(), name); got != odd {
		t.Errorf("%s.%s: sent back unchanged, the wire has %s, not the value kept raw %s", model.Name(), name, got, odd)
	}
	field := ptr.Elem().Field(i)
	switch field.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map:
		setZero(field)
		expectSent(t, model, name, ptr.Interface(), field)
		return true, true
	}
	if setNonZero(field) {
		expectSent(t, model, name, ptr.Interface(), field)
	}
	field.SetZero()
	props.Delete(name)
	expectSent(t, model, name, ptr.Interface(), field) // its zero value, the value kept deleted
	return false, true
}

// setNonZero gives a field that cannot be nil a value other than its zero
// value; false when it cannot.
func setNonZero(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		v.SetString("edited")
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Bool:
		v.SetBool(true)
	default:
		return false
	}
	return true
}

// expectSent fails unless model sends the value of field under name.
func expectSent(t *testing.T, model reflect.Type, name string, v any, field reflect.Value) {
	t.Helper()
	want, err := json.Marshal(field.Interface())
	if err != nil {
		t.Fatalf("%s.%s: %v", model.Name(), name, err)
	}
	if got := wireValue(t, v, name); got != string(want) {
		t.Errorf("%s.%s: set by the caller to %s, the wire has %s", model.Name(), name, want, got)
	}
}

// setZero sets a field that can be nil to a zero value that is not nil: a
// pointer to a zero value, an empty slice or map.
func setZero(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
	}
}

// wireValue is the JSON text model sends under name.
func wireValue(t *testing.T, model any, name string) string {
	t.Helper()
	body, err := json.Marshal(model)
	if err != nil {
		t.Fatal(err)
	}
	var object map[string]json.RawMessage
	if err := json.Unmarshal(body, &object); err != nil {
		t.Fatal(err)
	}
	return string(object[name])
}

// answerModel is the struct type of a model an answer holds, or nil.
func answerModel(answer any) reflect.Type {
	if answer == nil {
		return nil
	}
	typ := reflect.TypeOf(answer).Elem()
	if typ.Kind() == reflect.Slice {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct {
		return nil
	}
	if _, ok := typ.FieldByName("AdditionalProperties"); !ok {
		return nil
	}
	return typ
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	return name
}
