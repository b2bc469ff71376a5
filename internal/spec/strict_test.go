package spec

import (
	"errors"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"gopkg.in/yaml.v3"
)

// TestStrictDocumentIgnoresTheDiscriminator: an answer that matches both
// variants of a oneOf passes kin-openapi when it consults the discriminator
// and fails the strict document, as it fails Prism; null where the schema
// is not nullable and a required member missing fail either way.
func TestStrictDocumentIgnoresTheDiscriminator(t *testing.T) {
	both := plant(t, "kind: {type: string, enum: [circle]}", "kind: {type: string}", "kind: {type: string, enum: [square]}", "kind: {type: string}")
	plain, err := openapi3.NewLoader().LoadFromData([]byte(both))
	if err != nil {
		t.Fatal(err)
	}
	strict, err := LoadStrict([]byte(both))
	if err != nil {
		t.Fatal(err)
	}
	answer := []byte(`{"kind": "circle", "size": 2}`)
	if err := ValidateAnswer(plain, "getShape", 200, answer); err != nil {
		t.Fatalf("with the discriminator: %v", err)
	}
	err = ValidateAnswer(strict, "getShape", 200, answer)
	if err == nil || !strings.Contains(err.Error(), "more than one") {
		t.Errorf("strict: error %v, want one saying the answer matches more than one variant", err)
	}
	exact, err := LoadStrict([]byte(checkFixture))
	if err != nil {
		t.Fatal(err)
	}
	for answer, want := range map[string]string{
		`{"kind": "circle", "size": 2, "label": null}`:   "",
		`{"kind": "square", "size": 2, "other": [1]}`:    "",
		`{"kind": "circle", "size": null}`:               "/size: Value is not nullable",
		`{"kind": "circle"}`:                             "size",
		`{"kind": "triangle", "size": 2}`:                "doesn't match any",
		`{"kind": "circle", "size": 2, "label": "a b"} `: "",
	} {
		err := ValidateAnswer(exact, "getShape", 200, []byte(answer))
		var ve *ValueError
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", answer, err)
		case want != "" && (!errors.As(err, &ve) || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want a *ValueError saying %q", answer, err, want)
		}
	}
	if _, err := ResponseSchema(exact, "getShape", 404); !errors.Is(err, ErrNoSchema) {
		t.Errorf("a status without a schema: error %v, want ErrNoSchema", err)
	}
}

// An example a schema change left invalid is removed, with a note naming
// it, and the document then passes the checks; valid examples stay.
func TestDropInvalidExamples(t *testing.T) {
	text := plant(t, "size: {type: number}", "size: {type: string}")
	var dropped []string
	out, _, err := EditYAML("fixture", []byte(text), func(doc *yaml.Node) error {
		var err error
		dropped, err = DropInvalidExamples(doc)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dropped) != 1 || !strings.HasPrefix(dropped[0], "getShape responses.200 example: removed") {
		t.Errorf("dropped %q, want the example of getShape", dropped)
	}
	if strings.Contains(string(out), "example:") {
		t.Errorf("the example is still there:\n%s", out)
	}
	problems, err := CheckData("fixture", out)
	if err != nil || len(problems) > 0 {
		t.Errorf("after the drop: %v %v", problems, err)
	}
	kept, _, err := EditYAML("fixture", []byte(checkFixture), func(doc *yaml.Node) error {
		dropped, err = DropInvalidExamples(doc)
		return err
	})
	if err != nil || len(dropped) > 0 || string(kept) != checkFixture {
		t.Errorf("a valid example: dropped %q, err %v, document changed %v", dropped, err, string(kept) != checkFixture)
	}
}
