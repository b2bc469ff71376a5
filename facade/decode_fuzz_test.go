package facade

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/gendecode"
)

// answerTypes are the types the operations answer with JSON and every
// model they hold, each as a pointer to decode into: *M, *[]M, *bool.
func answerTypes() []reflect.Type {
	seen := map[reflect.Type]bool{}
	var out []reflect.Type
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		out = append(out, reflect.PointerTo(t))
		for _, m := range modelsIn(t) {
			add(m)
		}
	}
	for _, op := range gen.Operations() {
		if v := gendecode.NewAnswer(gen.OperationID(op.ID)); v != nil {
			add(reflect.TypeOf(v).Elem())
		}
	}
	slices.SortFunc(out, func(a, b reflect.Type) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// modelsIn lists the models a type holds in its fields, pointers and
// slices.
func modelsIn(t reflect.Type) []reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	if !isModel(t) {
		return nil
	}
	var out []reflect.Type
	for f := range jsonFields(t) {
		ft := f.Type
		for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
			ft = ft.Elem()
		}
		if isModel(ft) {
			out = append(out, ft)
		}
	}
	return out
}

// isModel reports whether t is a generated model that keeps unknown
// fields.
func isModel(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	_, ok := t.FieldByName("AdditionalProperties")
	return ok
}

func jsonFields(t reflect.Type) func(yield func(reflect.StructField) bool) {
	return func(yield func(reflect.StructField) bool) {
		for i := range t.NumField() {
			f := t.Field(i)
			if name := jsonName(f); name != "" && !yield(f) {
				return
			}
		}
	}
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// bodyMaker writes JSON values of Go types, every scalar different, so
// that a decoder that puts one field's value in another field shows.
type bodyMaker struct{ n int }

func (m *bodyMaker) value(t reflect.Type, depth int) string {
	m.n++
	switch {
	case t == reflect.TypeFor[time.Time]():
		return fmt.Sprintf(`"2026-%02d-%02dT16:19:55.145394Z"`, 1+m.n%12, 1+m.n%28)
	case t == reflect.TypeFor[json.RawMessage]():
		return fmt.Sprintf(`{"raw%d":[%d,"x",null]}`, m.n, m.n)
	}
	switch t.Kind() {
	case reflect.String:
		return strconv.Quote(fmt.Sprintf("s%d\u00e9\n", m.n))
	case reflect.Bool:
		return strconv.FormatBool(m.n%2 == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.Itoa(-m.n)
	case reflect.Float32, reflect.Float64:
		return strconv.Itoa(m.n) + ".25"
	case reflect.Pointer:
		return m.value(t.Elem(), depth)
	case reflect.Slice:
		return "[" + m.value(t.Elem(), depth) + "," + m.value(t.Elem(), depth) + "]"
	case reflect.Map:
		return fmt.Sprintf(`{"k%d":%s}`, m.n, m.value(t.Elem(), depth))
	case reflect.Struct:
		if !isModel(t) {
			return fmt.Sprintf(`{"union%d":%d}`, m.n, m.n) // a union: any value
		}
		return m.object(t, depth)
	}
	return "null"
}

// object is a model's object with every field, and an unknown one.
func (m *bodyMaker) object(t reflect.Type, depth int) string {
	if depth == 0 {
		return "{}"
	}
	var fields []string
	for f := range jsonFields(t) {
		fields = append(fields, strconv.Quote(jsonName(f))+":"+m.value(f.Type, depth-1))
	}
	fields = append(fields, fmt.Sprintf(`"unknown%d":{"u":%d}`, m.n, m.n))
	return "{" + strings.Join(fields, ",") + "}"
}

// anyJSON is a value of every JSON type.
var anyJSON = []string{`"x"`, `7`, `-1.5e3`, `true`, `[]`, `{}`, `null`, `[1,"a",null]`, `{"k":[{}]}`, `"2024-05-06T07:08:09Z"`, `"42"`, `"true"`}

// modelBodies are bodies of a model's type: every field with distinct
// values, each field alone with a fitting value and with a value of every
// JSON type, repeated, and beside unknown fields.
func modelBodies(t reflect.Type) []string {
	m := &bodyMaker{}
	out := []string{m.object(t, 3), `{}`, `null`, `[]`, `"x"`, `{"unknown":{"a":1},"Other":null,"\u00e9":"\ud800"}`}
	for f := range jsonFields(t) {
		key := strconv.Quote(jsonName(f))
		good := m.value(f.Type, 2)
		for _, v := range append([]string{good}, anyJSON...) {
			out = append(out, "{"+key+":"+v+"}")
		}
		out = append(out, "{"+key+":"+good+","+key+":null}", "{"+key+":[true],"+key+":"+good+"}",
			"{"+key+":"+good+","+key+":[true]}", "{"+strconv.Quote(strings.ToUpper(jsonName(f)))+":"+good+"}")
	}
	return out
}

// decodeCases are bodies for every answer type: those of each model and
// lists of them, and documents that are broken or odd.
func decodeCases() []string {
	cases := []string{
		`{"entityList":[],"totalEntityCount":1} trailing`, `{"entityList":[],"totalEntityCount":1}   `, `{"entityList":[],}`, `{"entityList":[1,]}`, `{"entityList" [] }`,
		`{"entityList":[{"index":01}]}`, `{"entityList":[{"index":-}]}`, `{"entityList":[{"index":1.}]}`, `{"entityList":[{"index":.5}]}`, `{"x":tru}`, `{"x":nul}`,
		"{\"x\":\"a\x01b\"}", `{"x":"\x"}`, `{"x":"\u12"}`, `{"x":"abc`, `{"x":1`, `{"x"`, `{`, `}`, `[]`, `[null]`, ` null `, ``, ` `,
		`{"r\u00f6ws":1,"\u00e9":2,"\ud800":3,"\udc00\ud800\udc00":4,"\ud83d\ude00":5}`, "{\"\xff\":1,\"a\xc3\":2}",
	}
	for _, t := range answerTypes() {
		t := t.Elem()
		for t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if isModel(t) {
			bodies := modelBodies(t)
			cases = append(cases, bodies...)
			cases = append(cases, "["+bodies[0]+",null,"+bodies[0]+"]")
			cases = append(cases, indented(bodies[0])...)
		}
	}
	return slices.Compact(cases)
}

// indented is body as servers that indent their answers write it, with
// whitespace after each comma, and again with whitespace before each
// comma too.
func indented(body string) []string {
	var b bytes.Buffer
	if json.Indent(&b, []byte(body), " ", "\t") != nil {
		return nil
	}
	return []string{b.String(), strings.ReplaceAll(b.String(), ",\n", " \r\n,")}
}

// decodesAlike decodes data into a new value of *T's element with
// gendecode.DecodeJSON and with encoding/json: DecodeJSON fails exactly on
// documents that are not JSON, and gives what encoding/json gives wherever
// that succeeds.
func decodesAlike(t *testing.T, ptr reflect.Type, data []byte) {
	t.Helper()
	fast, slow := reflect.New(ptr.Elem()), reflect.New(ptr.Elem())
	fastErr := gendecode.DecodeJSON(data, fast.Interface())
	if valid := json.Valid(data); valid != (fastErr == nil) {
		t.Fatalf("%s from %q: json.Valid says %v, gendecode.DecodeJSON says %v", ptr.Elem(), data, valid, fastErr)
	}
	if json.Unmarshal(data, slow.Interface()) == nil && !reflect.DeepEqual(fast.Interface(), slow.Interface()) {
		t.Fatalf("%s from %q:\n gendecode.DecodeJSON gives %#v\nencoding/json gives %#v", ptr.Elem(), data, fast.Elem(), slow.Elem())
	}
}

func decodesAllAlike(t *testing.T, types []reflect.Type, data []byte) {
	for _, ptr := range types {
		decodesAlike(t, ptr, data)
	}
}

// Every answer type and every model they hold decode as encoding/json
// decodes them, from bodies that give every field a value of its own: a
// decoder that fills one field from another's key fails here.
func TestGeneratedDecodersAgreeWithEncodingJSON(t *testing.T) {
	types := answerTypes()
	if len(types) < 50 {
		t.Fatalf("only %d answer types", len(types))
	}
	for _, body := range decodeCases() {
		decodesAllAlike(t, types, []byte(body))
	}
}

// FuzzDecodeAgreesWithEncodingJSON: the generated decoders never panic,
// fail exactly on what is not JSON, and agree with encoding/json wherever
// it succeeds (on answers that match the spec), for every answer type.
func FuzzDecodeAgreesWithEncodingJSON(f *testing.F) {
	for _, body := range decodeCases() {
		f.Add([]byte(body))
	}
	// decimals of 16 to 19 significant digits, past the fast float path
	f.Add([]byte(`{"progress":0.3041066484680849,"modelTime":8948660402211254.5,"speed":-1234567.890123456789,"routesProgress":0.1000000000000000055}`))
	f.Add([]byte(`[{"progress":98765.43210987654,"modelTime":1.000000000000000111}]`))
	types := answerTypes()
	f.Fuzz(func(t *testing.T, data []byte) { decodesAllAlike(t, types, data) })
}

// FuzzDecodeResponses feeds arbitrary bodies to the facade's decoding of
// the table and run-configuration answers: no panic, and a failure keeps
// the status.
func FuzzDecodeResponses(f *testing.F) {
	for _, seed := range []string{
		`{"columns":[{"id":"a","name":"A"}],"entityList":[{"index":0,"cells":[{"value":1}]}],"totalEntityCount":1}`,
		`{"type":"GFA","id":10101,"runConfiguration":{"numberOfSites":3,"properties":[{"name":"x","value":{"big":123456789012345678901234567890}}]}}`,
		`{"entityList":null}`, `[]`, `{"entityList":[{"index":"x"}]}`, `<html>`, ``, `{"type":"NOPE","runConfiguration":[1,2]}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		c := driftClient()
		for _, status := range []int{http.StatusOK, http.StatusBadGateway} {
			resp := &http.Response{StatusCode: status, Header: http.Header{}, Body: httpBody(body)}
			var table gen.ApiStrictTableChartData
			cl := newCall("getExperimentRunResultChartTableData", nil)
			if err := c.consumeAndClose(cl, resp, c.decodeInto(cl, &table)); err != nil {
				if err.(*APIError).StatusCode != status {
					t.Fatalf("status lost: %v", err)
				}
			}
			var cfg gen.ApiARunConfigurationWrapper
			resp.Body = httpBody(body)
			cl = newCall("getExperimentRunConfiguration", nil)
			_ = c.consumeAndClose(cl, resp, c.decodeInto(cl, &cfg))
			if cfg.RunConfiguration != nil {
				_, _ = cfg.RunConfiguration.MarshalJSON()
			}
			resp.Body = httpBody(body)
			apiErr := newAPIError("getExperimentRunConfiguration", resp)
			_ = apiErr.Error()
		}
		_ = c.Drift()
	})
}

func httpBody(s string) *bodyReader { return &bodyReader{strings.NewReader(s)} }

type bodyReader struct{ *strings.Reader }

func (bodyReader) Close() error { return nil }

// Nesting as deep as encoding/json allows (10000 levels) decodes alike, and
// one level more fails alike, in unknown fields, raw values and known ones.
func TestDeepNestingDecodesAlike(t *testing.T) {
	types := []reflect.Type{reflect.TypeFor[*gen.ApiStrictTableChartData](), reflect.TypeFor[*[]gen.Row]()}
	for _, depth := range []int{9998, 9999, 10000} {
		for _, at := range []string{`{"x":%s}`, `{"entityList":[{"cells":[{"value":%s}]}]}`, `{"entityList":%s}`} {
			arrays := strings.Repeat("[", depth) + strings.Repeat("]", depth)
			objects := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
			for _, v := range []string{arrays, objects} {
				decodesAllAlike(t, types, []byte(strings.Replace(at, "%s", v, 1)))
			}
		}
	}
}
