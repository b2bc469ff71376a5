package drift

import (
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

// Finding is one difference between an answer and the spec. Its JSON is
// that of specdiff's findings: File and Line are empty for a difference
// seen at run time.
type Finding struct {
	Kind      string `json:"kind"`
	Operation string `json:"operation"`      // the spec's operationId
	Detail    string `json:"detail"`         // what the spec says and what the answer has
	Path      string `json:"path,omitempty"` // the model and property path: ApiProjectResponse.description
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	Drift     bool   `json:"drift"` // true: the spec should change
}

// String is the finding as a line of a report.
func (f Finding) String() string {
	return f.Kind + " " + f.Operation + ": " + f.Detail
}

// Compare orders findings by kind (in specdiff's order), operation, path
// and detail.
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
	return 0
}

func kindRank(kind string) int {
	if i := slices.Index(kindOrder, kind); i >= 0 {
		return i
	}
	return len(kindOrder)
}
