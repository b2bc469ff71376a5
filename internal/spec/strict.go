package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A strict document is the spec as a tool that does not read OpenAPI's
// discriminator sees it (Prism, ajv, most gateways and other languages'
// validators): oneOf needs exactly one match, null only where nullable is
// declared, every required member present. kin-openapi consults a
// discriminator to pick a oneOf's variant and has no option to stop, so a
// strict document is one whose discriminators are removed.

// LoadStrict loads an OpenAPI document from raw and removes its
// discriminators (see [DropDiscriminators]). It does not validate the
// document: [CheckData] does.
func LoadStrict(raw []byte) (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		return nil, fmt.Errorf("loading the spec: %w", err)
	}
	DropDiscriminators(doc)
	return doc, nil
}

// DropDiscriminators removes the discriminator of every schema of doc, in
// components and inline, so that kin-openapi validates oneOf and anyOf by
// plain JSON Schema rules. It changes doc.
func DropDiscriminators(doc *openapi3.T) {
	w := schemaWalker{seen: map[*openapi3.Schema]bool{}, visit: func(_ string, s *openapi3.Schema) {
		s.Discriminator = nil
	}}
	w.document(doc, documentOperations(doc))
}

// ValidateValue validates a decoded JSON value (as encoding/json decodes
// into any) against s as an answer is validated: readOnly members allowed,
// every problem reported.
func ValidateValue(s *openapi3.Schema, v any) error {
	err := s.VisitJSON(v, openapi3.VisitAsResponse(), openapi3.MultiErrors())
	if err == nil {
		return nil
	}
	return &ValueError{Problems: valueProblems(err)}
}

// ValueError is every problem of a value that does not validate, each as
// "at /json/pointer: reason".
type ValueError struct {
	Problems []string
}

func (e *ValueError) Error() string { return strings.Join(e.Problems, "; ") }

// valueProblems flattens kin-openapi's nested errors into one line each,
// without the schema and value it prints.
func valueProblems(err error) []string {
	switch e := err.(type) {
	case openapi3.MultiError:
		var out []string
		for _, inner := range e {
			out = append(out, valueProblems(inner)...)
		}
		return out
	case *openapi3.SchemaError:
		line := "at /" + strings.Join(e.JSONPointer(), "/") + ": " + e.Reason
		var variants openapi3.MultiError
		if e.SchemaField == "oneOf" && errors.As(e.Origin, &variants) {
			line += " (" + strings.Join(valueProblems(variants), " or ") + ")"
		}
		return []string{line}
	}
	return []string{err.Error()}
}

// ValidateAnswer validates an answer's JSON body against the schema of the
// response operation opID of doc declares for status (its own or the
// default one). Validate a strict document ([LoadStrict]) to apply plain
// JSON Schema rules.
func ValidateAnswer(doc *openapi3.T, opID string, status int, body []byte) error {
	s, err := ResponseSchema(doc, opID, status)
	if err != nil {
		return err
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("%s: the answer is not JSON: %w", opID, err)
	}
	if err := ValidateValue(s, v); err != nil {
		return fmt.Errorf("%s: answer %d: %w", opID, status, err)
	}
	return nil
}

// ErrNoSchema is returned by [ResponseSchema] for an operation, status or
// media type the document does not declare.
var ErrNoSchema = errors.New("no JSON response schema")

// ResponseSchema is the application/json schema of the response operation
// opID of doc declares for status, or its default response.
func ResponseSchema(doc *openapi3.T, opID string, status int) (*openapi3.Schema, error) {
	for _, o := range documentOperations(doc) {
		if o.op.OperationID != opID || o.op.Responses == nil {
			continue
		}
		r := o.op.Responses.Status(status)
		if r == nil {
			r = o.op.Responses.Default()
		}
		if r == nil || r.Value == nil {
			break
		}
		if mt := r.Value.Content.Get("application/json"); mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
			return mt.Schema.Value, nil
		}
	}
	return nil, fmt.Errorf("%s: answer %d: %w", opID, status, ErrNoSchema)
}
