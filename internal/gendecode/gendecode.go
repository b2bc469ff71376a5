package gendecode

import (
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/jsondec"
)

// Options are the settings of [DecodeAnswerWith]: the context that can
// stop a decode, the root that names the answer, where the differences
// found go, and the bounds on what is reported of them.
type Options = jsondec.Options

// DecodeAnswerWith decodes the JSON document data, an operation's answer,
// into v as [gen.DecodeAnswer] does, within the settings of o: o.Root names
// the answer, o.Note takes each difference from the spec, at most
// o.MaxFindings of them (the rest counted to o.Dropped), names and values
// cut to o.MaxReportedLen bytes, and a decode whose o.Context is done stops,
// at most 64 KiB of the document later, with a *[gen.SyntaxError] that wraps
// the context's error. o may be nil.
func DecodeAnswerWith(data []byte, v any, o *Options) error {
	return jsondec.GeneratedDecoders().Decode(data, v, o)
}

// DecodeJSON decodes the JSON document data into v as DecodeAnswerWith
// does, and drops what it finds different from the spec.
func DecodeJSON(data []byte, v any) error { return DecodeAnswerWith(data, v, nil) }

// NewAnswer returns a pointer to a new zero value of what the operation op
// answers with JSON (a model, a slice of models, a bool or a string), to
// decode an answer into; nil when op answers no JSON.
func NewAnswer(op gen.OperationID) any {
	return jsondec.GeneratedDecoders().NewAnswer(string(op))
}
