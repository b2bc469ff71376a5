package oapitmpl_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/gen"
)

// For every field of every model an operation answers: an answer whose
// value there has a type that cannot be converted is kept raw under the
// field's name; sent back unchanged, the model carries the raw value; once
// the caller sets the field, the caller's value goes on the wire.
func TestCallerEditWinsOverValueKeptRaw(t *testing.T) {
	fields := 0
	seen := map[reflect.Type]bool{}
	for _, op := range gen.Operations() {
		model := answerModel(gen.NewAnswer(gen.OperationID(op.ID)))
		if model == nil || seen[model] {
			continue
		}
		seen[model] = true
		for i := range model.NumField() {
			name := jsonName(model.Field(i))
			if name == "" {
				continue
			}
			if checkField(t, model, i, name) {
				fields++
			}
		}
	}
	if fields < 100 {
		t.Fatalf("only %d fields were retyped, kept raw and set: the models changed shape", fields)
	}
}

// checkField checks field i (JSON name) of model; false when the decoder
// converts the odd value, or the test cannot set the field.
func checkField(t *testing.T, model reflect.Type, i int, name string) bool {
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
	if _, kept := ptr.Elem().FieldByName("AdditionalProperties").Interface().(map[string]gen.RawJSON)[name]; !kept {
		return false
	}
	if got := wireValue(t, ptr.Interface(), name); got != odd {
		t.Errorf("%s.%s: sent back unchanged, the wire has %s, not the value kept raw %s", model.Name(), name, got, odd)
	}
	field := ptr.Elem().Field(i)
	if !setNonZero(field) {
		return false
	}
	want, err := json.Marshal(field.Interface())
	if err != nil {
		t.Fatalf("%s.%s: %v", model.Name(), name, err)
	}
	if got := wireValue(t, ptr.Interface(), name); got != string(want) {
		t.Errorf("%s.%s: set by the caller to %s, the wire has %s", model.Name(), name, want, got)
	}
	return true
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

// setNonZero gives v a value other than its zero value; false when it
// cannot.
func setNonZero(v reflect.Value) bool {
	if v.Type() == reflect.TypeFor[gen.RawJSON]() || v.Type() == reflect.TypeFor[json.RawMessage]() {
		v.SetBytes([]byte(`"edited"`))
		return true
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("edited")
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		setNonZero(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		setNonZero(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.ValueOf("k").Convert(v.Type().Key()), reflect.New(v.Type().Elem()).Elem())
	case reflect.Struct:
		return setStruct(v)
	default:
		return false
	}
	return true
}

func setStruct(v reflect.Value) bool {
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Date(2026, 3, 10, 16, 19, 55, 0, time.UTC)))
		return true
	}
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() && jsonName(f) != "" {
			setNonZero(v.Field(i))
		}
	}
	return !v.IsZero()
}
