package drift

import (
	"encoding/json"
	"slices"
	"strings"
)

// The kinds of difference an answer can show, named as specdiff probe
// names them. Tools match on these names.
const (
	// KindUnknownField: an answer has a field its model lacks (the detail
	// gives its JSON type). The SDK keeps it in the model's
	// AdditionalProperties.
	KindUnknownField = "probe-unknown-field"
	// KindMissing: an answer lacks a field its model requires. The field
	// keeps its zero value.
	KindMissing = "probe-missing"
	// KindNull: an answer has null for a required field the spec does not
	// mark nullable. The field keeps its zero value.
	KindNull = "probe-null"
	// KindType: an answer's value has another JSON type or format than the
	// spec says. The SDK converts it when nothing is lost, and otherwise
	// keeps the field at its zero value and the value raw in the model's
	// AdditionalProperties under the field's name.
	KindType = "probe-type"
	// KindEnum: an answer's value is outside the spec's enumeration. The
	// value is kept.
	KindEnum = "probe-enum"
)

// kindOrder is the order in which findings are listed, specdiff's.
var kindOrder = []string{KindUnknownField, KindMissing, KindNull, KindType, KindEnum}

// Finding is one difference between an answer and the spec, in the form
// specdiff reports (specdiff's findings are this type): the SDK's c.Drift(),
// scm --drift-report and specdiff probe -o json all write it, and specdiff
// overlay reads it.
type Finding struct {
	// Kind is a stable name: the Kind constants here, and specdiff's own
	// kinds for its other findings.
	Kind string `json:"kind"`
	// Operation is the spec's operationId.
	Operation string `json:"operation"`
	// Detail says what differs, in a sentence that starts with Path when
	// there is one: "ApiScenarioData.name (string) is required; ...".
	Detail string `json:"detail"`
	// Path is the model and property path (ApiProjectResponse.description,
	// ApiPage.id); empty for a finding that is not about an answer's value.
	Path string `json:"path,omitempty"`
	// File and Line are where the finding points (specdiff's listing or
	// spec); empty for a difference seen at run time.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Drift is true when the spec should change; false for the notes of
	// specdiff that never fail a run.
	Drift bool `json:"drift"`

	// The fields below say what an answer showed, so that a tool (specdiff
	// overlay) never parses Detail. Each is omitted when empty.

	// Model is the component schema that holds the property
	// (ApiProjectResponse); for a property of an inline nested object, the
	// nearest named schema above it. Empty when no component schema holds
	// it: Path then starts with the operation's response.
	Model string `json:"model,omitempty"`
	// Property is the property path below Model: description,
	// pages[].page.id, items[]. Empty for a finding about the model itself.
	Property string `json:"property,omitempty"`
	// JSONType is the JSON type the answer had there: string, number,
	// integer (a number without fraction or exponent), boolean, array,
	// object or null. For probe-renamed, the type of the field that took
	// the property's place; empty for probe-missing.
	JSONType string `json:"jsonType,omitempty"`
	// SpecType is the JSON type the spec gives the value (probe-type):
	// string, integer, number, boolean, array or object.
	SpecType string `json:"specType,omitempty"`
	// Value is the value the answer had (probe-enum), as JSON.
	Value json.RawMessage `json:"value,omitempty"`
	// RenamedTo is the name of the answer's field that took the missing
	// property's place (probe-renamed).
	RenamedTo string `json:"renamedTo,omitempty"`
	// KeptRaw is true when the SDK could not convert the value without
	// loss (probe-type): the field keeps its zero value and the value is
	// kept raw in the model's AdditionalProperties (for an array's element,
	// the array is). A value kept raw and one converted at the same place
	// are two findings.
	KeptRaw bool `json:"keptRaw,omitempty"`
}

// SplitPath splits a model path into the model and the property path below
// it: "ApiExperimentResultData.pages[].page" is ApiExperimentResultData and
// pages[].page. A root that is not a model name (an operation's response,
// "getX 200 response") gives no model.
func SplitPath(path string) (model, property string) {
	i := strings.IndexAny(path, ".[")
	if i < 0 {
		i = len(path)
	}
	root, rest := path[:i], strings.TrimPrefix(path[i:], ".")
	if strings.Contains(root, " ") {
		return "", rest
	}
	return root, rest
}

// String is the finding as a line of a report.
func (f Finding) String() string {
	return f.Kind + " " + f.Operation + ": " + f.Detail
}

// Compare orders findings by kind (in specdiff's order), operation, path
// and detail, and a value converted before one kept raw.
func Compare(a, b Finding) int {
	if d := kindRank(a.Kind) - kindRank(b.Kind); d != 0 {
		return d
	}
	for _, c := range [...]int{strings.Compare(a.Kind, b.Kind), strings.Compare(a.Operation, b.Operation),
		strings.Compare(a.Path, b.Path), strings.Compare(a.Detail, b.Detail)} {
		if c != 0 {
			return c
		}
	}
	return boolRank(a.KeptRaw) - boolRank(b.KeptRaw)
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

func kindRank(kind string) int {
	if i := slices.Index(kindOrder, kind); i >= 0 {
		return i
	}
	return len(kindOrder)
}
