package main

import (
	"bytes"
	"fmt"
	"go/format"
	"strconv"

	"github.com/oapi-codegen/oapi-codegen/v2/pkg/codegen"

	"github.com/scmodel/scmgo/internal/spec"
)

// withAnswers appends newAnswer (internal/gendecode.NewAnswer) to the
// decoders: what each operation answers with JSON, as a Go value to decode
// into; and the init that installs it and decodeAnswerWith for
// internal/gendecode.
func withAnswers(src []byte, ops []spec.Operation) ([]byte, error) {
	var b bytes.Buffer
	b.Write(src)
	b.WriteString(installDoc)
	b.WriteString(newAnswerDoc)
	b.WriteString("func newAnswer(op string) any {\nswitch op {\n")
	for _, op := range ops {
		if t := answerType(op.Response); t != "" {
			fmt.Fprintf(&b, "case %s:\nreturn new(%s)\n", strconv.Quote(op.ID), t)
		}
	}
	b.WriteString("}\nreturn nil\n}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting newAnswer: %w", err)
	}
	return out, nil
}

// answerType is the Go type of a JSON answer, "" for none.
func answerType(r spec.Response) string {
	var t string
	switch {
	case r.Binary || len(r.MediaTypes) == 0:
		return ""
	case r.Schema != "":
		t = codegen.SchemaNameToTypeName(r.Schema)
	case r.Type == "boolean":
		t = "bool"
	case r.Type == "string":
		t = "string"
	case r.Type == "integer":
		t = "int64"
	case r.Type == "number":
		t = "float64"
	default:
		return ""
	}
	if r.Array {
		t = "[]" + t
	}
	return t
}

const installDoc = `
// The decoder with options and the constructor of each operation's answer
// are the facade's (through internal/gendecode), not part of this package.
func init() {
	jsondec.InstallGenerated(jsondec.Generated{Decode: decodeAnswerWith, NewAnswer: newAnswer})
}
`

const newAnswerDoc = `
// newAnswer returns a pointer to a new zero value of what the operation op
// answers with JSON (a model, a slice of models, a bool or a string), to
// decode an answer into with DecodeAnswer; nil when op answers no JSON.
`
