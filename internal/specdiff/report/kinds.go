package report

import (
	"slices"
	"strings"

	"github.com/scmodel/scmgo/drift"
)

// Kind is a stable name for one sort of difference.
type Kind struct {
	Name  string
	Drift bool // false for findings that are reported but never fail the run
	Doc   string
}

// kinds lists every finding kind in report order. Names are stable: tools
// match on them.
var kinds = []Kind{
	{"missing-in-listing", true, "a spec operation is not in the listing"},
	{"known-omission", false, "a spec operation is not in the listing and api/known-omissions.yaml says some listings omit it"},
	{"extra-in-listing", true, "a listing operation is not in the spec (by name, nor by method and path)"},
	{"duplicate-in-listing", true, "the listing names a spec operation more than once"},
	{"method-path-mismatch", true, "same name, different method or path"},
	{"name-mismatch", true, "same method and path, a name that is not the operation's name in either style"},
	{"param-missing", true, "a spec parameter is not in the listing's operation (OpenAPI listings)"},
	{"param-extra", true, "a listing parameter is not in the spec's operation"},
	{"param-required", true, "a parameter's required-ness differs"},
	{"param-type", true, "a parameter's type or format differs"},
	{"param-location", true, "a parameter's location (query, path, header, cookie) differs"},
	{"param-default", true, "a parameter's default differs"},
	{"property-added", true, "a model property is in the listing, not in the spec (request bodies and responses, nested objects and array items included)"},
	{"property-removed", true, "a spec model property is not in the listing"},
	{"property-renamed", true, "a spec property is not in the listing and one of the same type, the only candidate, is"},
	{"property-required", true, "a property's required-ness differs"},
	{"property-type", true, "a property's (or a body's) type or format differs"},
	{"property-nullable", true, "a property's nullable differs"},
	{"enum-added", true, "the listing allows enumeration values the spec does not (parameters, properties, array items)"},
	{"enum-removed", true, "the listing lacks enumeration values the spec allows"},
	{"request-media-type", true, "the request body media types differ"},
	{"response-media-type", true, "the success response media types differ"},
	{"security", true, "the security requirement or scheme differs"},
	{"probe-unknown-field", true, "an answer has a field its model lacks (with its JSON type)"},
	{"probe-missing", true, "an answer lacks a field its model requires"},
	{"probe-null", true, "an answer has null for a required field the spec does not mark nullable"},
	{"probe-renamed", true, "an answer lacks a required field and has one unknown field of the same JSON type instead"},
	{"probe-type", true, "an answer's value has another JSON type or format than the spec says"},
	{"probe-enum", true, "an answer's value is outside the spec's enumeration"},
	{"probe-schema", true, "an answer breaks another rule of its schema (bounds, pattern), or is not JSON"},
	{"probe-status", true, "an answer's status code is not among the operation's responses"},
	{"probe-media-type", true, "an answer's media type is not among its response's"},
	{"probe-not-called", false, "a state-free operation the probe could not call, and why"},
	{"probe-unchecked", false, "an operation the probe called whose every answer was an error status: its success answer was not checked"},
	{"probe-error", false, "a call that got no answer (timeout, connection)"},
	{"facade-missing", true, "a spec operation has no facade method tagged //scm:operation"},
	{"facade-duplicate", true, "a spec operation is tagged on more than one facade method"},
	{"facade-unknown", true, "a //scm:operation tag names no spec operationId"},
	{"facade-stray", true, "a //scm:operation line is not in a method's doc comment, or is malformed"},
}

// Kinds lists every finding kind in report order (specdiff -h prints
// them). The validate command's kinds are not listed: they are the rules of
// internal/spec.Check with [SpecKindPrefix].
func Kinds() []Kind { return slices.Clone(kinds) }

// SpecKindPrefix prefixes the rule names of internal/spec.Check in the
// findings of specdiff validate (spec-openapi, spec-ref, ...).
const SpecKindPrefix = "spec-"

func kindRank(name string) int {
	if i := slices.IndexFunc(kinds, func(k Kind) bool { return k.Name == name }); i >= 0 {
		return i
	}
	return len(kinds)
}

// IsDrift reports whether findings of the named kind fail the run; a kind
// that is not listed (a spec rule's) does.
func IsDrift(name string) bool {
	i := kindRank(name)
	return i == len(kinds) || kinds[i].Drift
}

// Finding is one difference, reported once: the form the SDK's run-time
// drift reports take too (see package drift for its fields).
type Finding = drift.Finding

// New is a finding of kind k about operation op, pointing at a place;
// Drift follows the kind.
func New(k, op, detail string, at Location) Finding {
	return Finding{Kind: k, Operation: op, Detail: detail, File: at.File, Line: at.Line, Drift: IsDrift(k)}
}

// Location is a place in a file; File is empty for stdin and URLs, Line 0
// when the finding is about the whole file.
type Location struct {
	File string
	Line int
}

// Sort orders findings by kind (in the order of [Kinds]), then operation,
// then place.
func Sort(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		if d := kindRank(a.Kind) - kindRank(b.Kind); d != 0 {
			return d
		}
		if a.Kind != b.Kind {
			return strings.Compare(a.Kind, b.Kind)
		}
		if c := strings.Compare(a.Operation, b.Operation); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
}
