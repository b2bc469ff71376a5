package spec

import (
	"errors"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
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
