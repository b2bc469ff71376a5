package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/internal/spec"
)

// TestEveryModelDecodesAsEncodingJSON generates decoders for every model of
// gen/api.gen.go, not only the paged ones, so that every kind of field the
// generator knows (and the ones it leaves to encoding/json) is exercised,
// and checks them in package gen against encoding/json on bodies made from
// each model's fields: every field with a value of every JSON type, null,
// repeated, and next to an unknown field. The generated files are laid over
// package gen with go test -overlay; the tree is not touched.
func TestEveryModelDecodesAsEncodingJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("builds package gen")
	}
	genDir, err := filepath.Abs("../../gen")
	if err != nil {
		t.Fatal(err)
	}
	tf, err := readTypes(filepath.Join(genDir, "api.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	models := allModels(tf)
	if len(models) < 50 {
		t.Fatalf("only %d models keep unknown fields: the types file changed shape", len(models))
	}
	doc, err := spec.Load("../../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if tf.unions, err = loadUnions(doc); err != nil {
		t.Fatal(err)
	}
	src, err := render(tf, newSchemas(doc), models)
	if err != nil {
		t.Fatal(err)
	}
	methods, err := renderMethods(tf)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{"decode.gen.go": src, "models.gen.go": methods, "decode_models_test.go": agreementTest(tf, models)}
	overlay := map[string]map[string]string{"Replace": {}}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		overlay["Replace"][filepath.Join(genDir, name)] = path
	}
	overlayJSON, _ := json.Marshal(overlay)
	overlayPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayPath, overlayJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-overlay", overlayPath, "-run", "^TestModelsDecodeAsEncodingJSON$", ".")
	cmd.Dir = genDir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test in gen with every model: %v\n%s", err, out)
	}
}

// allModels lists the struct types that get a decoder, by name.
func allModels(tf *typesFile) []string {
	var names []string
	for name := range tf.structs {
		if tf.resolveName(name).kind == kindStruct {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// agreementTest writes the test that runs in package gen.
func agreementTest(tf *typesFile, models []string) []byte {
	var b strings.Builder
	b.WriteString(`package gen

import (
	"encoding/json"
	"reflect"
	"testing"
)

// decodesAlike: decodeAnswerWith (gendecode.DecodeJSON's decoder) fails
// exactly on documents that are not JSON, and gives what encoding/json
// gives wherever that succeeds.
func decodesAlike[T any](t *testing.T, data string) {
	t.Helper()
	var fast, slow T
	fastErr := decodeAnswerWith([]byte(data), &fast, nil)
	if valid := json.Valid([]byte(data)); valid != (fastErr == nil) {
		t.Errorf("%T from %s: json.Valid says %v, decodeAnswerWith says %v", fast, data, valid, fastErr)
		return
	}
	if json.Unmarshal([]byte(data), &slow) == nil && !reflect.DeepEqual(fast, slow) {
		t.Errorf("%T from %s:\ndecodeAnswerWith gives %#v\nencoding/json gives %#v", fast, data, fast, slow)
	}
}

func TestModelsDecodeAsEncodingJSON(t *testing.T) {
`)
	for _, name := range models {
		fmt.Fprintf(&b, "\tfor _, body := range []string{\n")
		for _, body := range bodies(tf, tf.models[name]) {
			fmt.Fprintf(&b, "\t\t%s,\n", strconv.Quote(body))
		}
		fmt.Fprintf(&b, "\t} {\n\t\tdecodesAlike[%s](t, body)\n\t\tdecodesAlike[*%[1]s](t, body)\n\t\tdecodesAlike[[]%[1]s](t, \"[\"+body+\",null]\")\n\t}\n", name)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// anyJSON is a value of every JSON type.
var anyJSON = []string{`"x"`, `7`, `-1.5e3`, `true`, `[]`, `{}`, `null`, `[1,"a",null]`, `{"k":[{}]}`, `"2024-05-06T07:08:09Z"`}

// bodies are objects of model m: each field with a fitting value and with a
// value of each JSON type, fields repeated, unknown fields, and all fields
// at once.
func bodies(tf *typesFile, m *model) []string {
	out := []string{`{}`, `null`, `{"unknown":{"a":1},"Other":null,"\u00e9":"\ud800"}`, `[]`, `"x"`}
	var all []string
	for _, f := range m.fields {
		key := strconv.Quote(f.jsonName)
		good := sample(tf, f.typ, 2)
		for _, v := range append([]string{good}, anyJSON...) {
			out = append(out, "{"+key+":"+v+"}")
		}
		out = append(out, "{"+key+":"+good+","+key+":null}", "{"+key+":[true],"+key+":"+good+"}",
			"{"+key+":"+good+","+key+":[true]}", "{"+strconv.Quote(strings.ToUpper(f.jsonName))+":"+good+"}")
		all = append(all, key+":"+good)
	}
	return append(out, "{"+strings.Join(all, ",")+`,"extra":[1]}`)
}

// sample is a value of type t, objects of models filled to depth.
func sample(tf *typesFile, t *goType, depth int) string {
	switch t.kind {
	case kindString:
		return `"s\u00e9\n"`
	case kindBool:
		return `false`
	case kindInt:
		return `-42`
	case kindFloat64, kindFloat32:
		return `2.5e-3`
	case kindRaw:
		return `{"raw": [1, "two", null]}`
	case kindPointer:
		return sample(tf, t.elem, depth)
	case kindSlice:
		return "[" + sample(tf, t.elem, depth) + ",null]"
	case kindRawMap:
		return `{"k":1,"k":2,"m":null}`
	case kindStruct:
		if depth == 0 {
			return `{"x":1}`
		}
		var fields []string
		for _, f := range tf.models[t.src].fields {
			fields = append(fields, strconv.Quote(f.jsonName)+":"+sample(tf, f.typ, depth-1))
		}
		return "{" + strings.Join(fields, ",") + "}"
	}
	return `"2024-05-06T07:08:09Z"`
}
