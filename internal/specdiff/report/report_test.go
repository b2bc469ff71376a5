package report

import (
	"encoding/json"
	"testing"
)

// The structured fields are what the overlay reads; this keeps the JSON
// names, which other tools (the SDK's drift report) share, from moving.
func TestFindingJSONNames(t *testing.T) {
	f := Finding{Kind: "probe-enum", Operation: "op", Detail: "d", Path: "M.p", Drift: true, Model: "M", Property: "p",
		JSONType: "string", SpecType: "string", Value: json.RawMessage(`"V"`), RenamedTo: "q"}
	b, _ := json.Marshal(f)
	want := `{"kind":"probe-enum","operation":"op","detail":"d","path":"M.p","drift":true,"model":"M","property":"p","jsonType":"string","specType":"string","value":"V","renamedTo":"q"}`
	if string(b) != want {
		t.Errorf("%s\nwant %s", b, want)
	}
	b, _ = json.Marshal(Finding{Kind: "k", Operation: "op", Detail: "d"})
	if want := `{"kind":"k","operation":"op","detail":"d","drift":false}`; string(b) != want {
		t.Errorf("a finding without structured fields: %s, want %s", b, want)
	}
}
