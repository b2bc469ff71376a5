package facade

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/gendecode"
)

// driftClient is a client whose findings start empty; decodeAnswer needs
// no server.
func driftClient() *Client {
	return &Client{cfg: defaultConfig(), drift: &drift.Collector{}}
}

// TestEveryAnswerToleratesDrift: for every operation with a JSON answer,
// and every property of its model (nested ones included), an answer with
// that property retyped, converted, missing, null, or beside an unknown
// field decodes; every other value is intact (the decoded answer encodes
// back to the answer sent, a retyped value kept raw under its name); and
// the difference is reported exactly once, at its model path.
func TestEveryAnswerToleratesDrift(t *testing.T) {
	doc := loadSpecForDrift(t)
	answers := 0
	for _, op := range gen.Operations() {
		schema := answerSchema(doc, op)
		if schema == nil {
			continue
		}
		answers++
		t.Run(op.ID, func(t *testing.T) {
			base := (&sampler{}).value(schema, 3)
			cases := append([]variant{{name: "sample", doc: base, want: base}}, variants(schema, base)...)
			cases = append(cases, rootVariants(op, schema.Value, base)...)
			if len(cases) < 2 {
				t.Fatalf("no variant of %s's answer", op.ID)
			}
			for _, v := range cases {
				checkVariant(t, op, v)
			}
		})
	}
	if answers < 60 {
		t.Fatalf("only %d operations answer JSON: the spec changed shape", answers)
	}
}

// rootVariants retype a whole answer: it decodes to its zero value and the
// difference is reported at the answer's model, or the answer itself.
func rootVariants(op gen.Operation, s any, base any) []variant {
	root := answerRoot(op)
	if op.Response.Schema != "" && !op.Response.Array {
		root = op.Response.Schema
	}
	out := []variant{{name: "retyped answer", doc: []any{"x"}, kind: drift.KindType, path: root}}
	switch base.(type) {
	case bool:
		out = append(out, variant{name: "converted answer", doc: "true", want: true, kind: drift.KindType, path: root})
	case string:
		out = append(out, variant{name: "converted answer", doc: json.Number("42"), want: "42", kind: drift.KindType, path: root})
	case []any:
		out[0].doc = "x"
	}
	return out
}

func checkVariant(t *testing.T, op gen.Operation, v variant) {
	t.Helper()
	body, err := json.Marshal(v.doc)
	if err != nil {
		t.Fatal(err)
	}
	c := driftClient()
	answer := gendecode.NewAnswer(gen.OperationID(op.ID))
	if err := c.decodeAnswer(t.Context(), op, body, answer); err != nil {
		t.Errorf("%s: %s: the decode failed: %v\n%s", op.ID, v.name, err, body)
		return
	}
	found := c.Drift()
	switch {
	case v.kind == "" && len(found) > 0:
		t.Errorf("%s: %s: want no finding, have %v\n%s", op.ID, v.name, found, body)
	case v.kind != "" && (len(found) != 1 || found[0].Kind != v.kind || found[0].Path != v.path || found[0].Operation != op.ID):
		t.Errorf("%s: %s: want one %s at %s, have %v\n%s", op.ID, v.name, v.kind, v.path, found, body)
	}
	if v.want == nil {
		return
	}
	got, want := normalized(t, answer), normalized(t, v.want)
	if v.drop != nil {
		got, want = without(got, v.drop), without(want, v.drop)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %s: the answer decodes to\n%v\nwant\n%v", op.ID, v.name, got, want)
	}
}
