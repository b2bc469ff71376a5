package probe

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/oas"
)

// check compares one answer with the spec: its status and media type, then
// a JSON body with kin-openapi's response validation (types, formats,
// enumerations, bounds) and with answerWalker (fields the spec lacks,
// required fields missing or null, renames).
func (p *prober) check(c call, a *answer) {
	op, specOp, at := p.spec.Ops[c.op], p.specOperation(c.op), p.spec.At(c.op)
	code, resp := responseFor(specOp, a.status)
	if resp == nil {
		p.out.drift("probe-status", op.ID, at, "", fmt.Sprintf("answered %s; the spec lists %s",
			fetch.StatusText(a.status), strings.Join(slices.Sorted(maps.Keys(specOp.Responses.Map())), ", ")))
		return
	}
	if len(resp.Content) == 0 || (len(a.body) == 0 && a.status/100 != 2) {
		return
	}
	mt, _, err := mime.ParseMediaType(a.header.Get("Content-Type"))
	if err != nil {
		mt = ""
	}
	media := resp.Content.Get(mt)
	if mt == "" || media == nil {
		p.out.drift("probe-media-type", op.ID, at, "", fmt.Sprintf("answered %d as %s; the spec lists %s",
			a.status, cmp.Or(mt, "nothing"), strings.Join(slices.Sorted(maps.Keys(resp.Content)), ", ")))
		return
	}
	if !oas.IsJSONMediaType(mt) || media.Schema == nil || media.Schema.Value == nil {
		return
	}
	root := fmt.Sprintf("%s %s response", op.ID, code)
	value, err := decodeJSON(a.body)
	if err != nil {
		p.out.drift("probe-schema", op.ID, at, root, fmt.Sprintf("%s: the answer (%d, %s) is not JSON: %v", root, a.status, mt, err))
		return
	}
	if a.status/100 == 2 {
		a.value = value
	}
	w := &answerWalker{models: p.spec.Models, pointers: map[string]string{}, report: func(o observation) {
		p.out.observed(op.ID, at, o)
	}}
	w.walk(value, media.Schema.Value, root, "")
	p.validate(c, a, w)
}

// responseFor is the spec's response for a status and its key: the code,
// its range (4XX) or default.
func responseFor(op *openapi3.Operation, status int) (string, *openapi3.Response) {
	if op.Responses == nil {
		return "", nil
	}
	for _, key := range []string{strconv.Itoa(status), fmt.Sprintf("%dXX", status/100), "default"} {
		if r := op.Responses.Value(key); r != nil && r.Value != nil {
			return key, r.Value
		}
	}
	return "", nil
}

// validate runs kin-openapi's response validation and reports its schema
// errors at the paths the walker named. Required, nullable and unknown
// properties are left to the walker, which tells missing from null and
// pairs renames.
func (p *prober) validate(c call, a *answer, w *answerWalker) {
	op := p.spec.Ops[c.op]
	route := &routers.Route{Spec: p.spec.Doc, Path: op.Path, PathItem: p.spec.Doc.Paths.Value(op.Path), Method: op.Method, Operation: p.specOperation(c.op)}
	err := openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: a.req, Route: route},
		Status:                 a.status,
		Header:                 a.header,
		Body:                   io.NopCloser(bytes.NewReader(a.body)),
		Options:                &openapi3filter.Options{MultiError: true},
	})
	if err == nil {
		return
	}
	at := p.spec.At(c.op)
	errs := schemaErrors(err)
	if len(errs) == 0 {
		p.out.drift("probe-schema", op.ID, at, "", fmt.Sprintf("answer %d: %v", a.status, err))
		return
	}
	for _, se := range errs {
		if o, ok := p.describeSchemaError(w.pathOf(se.JSONPointer()), se); ok {
			p.out.observed(op.ID, at, o)
		}
	}
}

// schemaErrors flattens the schema errors of a validation error.
func schemaErrors(err error) []*openapi3.SchemaError {
	var me openapi3.MultiError
	if errors.As(err, &me) {
		var out []*openapi3.SchemaError
		for _, e := range me {
			out = append(out, schemaErrors(e)...)
		}
		return out
	}
	var se *openapi3.SchemaError
	if errors.As(err, &se) {
		return []*openapi3.SchemaError{se}
	}
	return nil
}

// walkerFields are the schema keywords whose errors answerWalker reports.
var walkerFields = map[string]bool{"required": true, "nullable": true, "additionalProperties": true, "unevaluatedProperties": true}

func (p *prober) describeSchemaError(path string, se *openapi3.SchemaError) (observation, bool) {
	if walkerFields[se.SchemaField] {
		return observation{}, false
	}
	where := path
	if name := p.spec.Models[se.Schema]; name != "" && !oas.ObjectLike(se.Schema) {
		where = fmt.Sprintf("%s (%s)", path, name)
	}
	got := jsonTypeOf(se.Value)
	o := observation{path: path, jsonType: got}
	switch se.SchemaField {
	case "enum":
		o.kind, o.detail = "probe-enum", fmt.Sprintf("%s: the answer has %s, which the spec does not allow", where, shortJSON(se.Value))
		o.value, _ = json.Marshal(se.Value)
	case "type":
		o.kind, o.detail = "probe-type", fmt.Sprintf("%s is %s; the answer has %s", where, spec.TypeName(se.Schema), got)
		o.specType = schemaJSONType(se.Schema)
	case "format":
		o.kind, o.detail = "probe-type", fmt.Sprintf("%s is %s; the answer has %s", where, spec.TypeName(se.Schema), shortJSON(se.Value))
		o.specType = schemaJSONType(se.Schema)
	default:
		o.kind, o.detail = "probe-schema", fmt.Sprintf("%s: %s", where, se.Reason)
	}
	return o, true
}
