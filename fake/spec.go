package fake

import (
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/scmodel/scmgo/api"
	"github.com/scmodel/scmgo/gen"
)

// specRoutes is the route of every operation in the embedded spec, by
// operation id. The spec is loaded and every route looked up once per
// process, so a request costs a map lookup, not a route search.
var specRoutes = sync.OnceValues(loadSpecRoutes)

func loadSpecRoutes() (map[string]*routers.Route, error) {
	doc, err := api.Load()
	if err != nil {
		return nil, err
	}
	doc.Servers = openapi3.Servers{{URL: BasePath}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("routing the spec: %w", err)
	}
	routes := map[string]*routers.Route{}
	for _, op := range gen.Operations() {
		route, _, err := router.FindRoute(httptest.NewRequest(op.Method, BasePath+op.Path, nil))
		if err != nil {
			return nil, fmt.Errorf("%s: no route in the spec for %s %s: %w", op.ID, op.Method, op.Path, err)
		}
		if route.Operation.OperationID != op.ID {
			return nil, fmt.Errorf("%s: %s %s routes to %s", op.ID, op.Method, op.Path, route.Operation.OperationID)
		}
		routes[op.ID] = withoutSecurity(route)
	}
	return routes, nil
}

// withoutSecurity returns a copy of route whose operation declares no
// security requirement. The server checks the key itself before validating;
// kin-openapi, to check security, reads the whole request body into memory
// first, which an upload must never be.
func withoutSecurity(route *routers.Route) *routers.Route {
	op := *route.Operation
	op.Security = &openapi3.SecurityRequirements{}
	r := *route
	r.Operation = &op
	return &r
}

// mustSpecRoutes returns the routes; the embedded spec is part of the build,
// so failing to load it is a defect of the build.
func mustSpecRoutes() map[string]*routers.Route {
	routes, err := specRoutes()
	if err != nil {
		panic("fake: " + err.Error())
	}
	return routes
}

// specError turns a kin-openapi validation error into a 400 whose message
// names the parameter or body field. It quotes a rejected value only when
// it is a short scalar of a field that is not sensitive (see quoteValue).
func specError(err error) error {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return badRequest("%s", clip(firstLine(err.Error())))
	}
	switch {
	case re.Parameter != nil && errors.Is(re.Err, openapi3filter.ErrInvalidRequired):
		return badRequest("parameter %s is required", re.Parameter.Name)
	case re.Parameter != nil:
		return badRequest("parameter %s: %s", re.Parameter.Name, valueProblem(re))
	case re.RequestBody != nil && errors.Is(re.Err, openapi3filter.ErrInvalidRequired):
		return badRequest("request body: a JSON body is required")
	case re.RequestBody != nil:
		return bodyError(re)
	}
	return badRequest("%s", clip(firstLine(re.Error())))
}

// bodyError names the body field a schema error is about.
func bodyError(re *openapi3filter.RequestError) error {
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		return schemaBodyError(se, bodySchema(re.RequestBody))
	}
	var pe *openapi3filter.ParseError
	if errors.As(re.Err, &pe) {
		return badRequest("request body: not valid JSON: %s", syntaxProblem(pe.RootCause()))
	}
	if re.Err != nil {
		return badRequest("request body: %s", clip(firstLine(re.Err.Error())))
	}
	return badRequest("request body: %s", clip(re.Reason))
}

// bodySchema is the schema of a JSON request body, nil when there is none.
func bodySchema(rb *openapi3.RequestBody) *openapi3.Schema {
	if mt := rb.Content.Get("application/json"); mt != nil && mt.Schema != nil {
		return mt.Schema.Value
	}
	return nil
}

func schemaBodyError(se *openapi3.SchemaError, root *openapi3.Schema) error {
	pointer := se.JSONPointer()
	path := strings.Join(pointer, ".")
	hidden := sensitive(se.Schema) || sensitivePath(root, pointer)
	switch {
	case path == "":
		return badRequest("request body: %s", schemaProblem(se, hidden))
	case se.SchemaField == "required":
		return badRequest("request body field %s is required", clip(path))
	}
	return badRequest("request body field %s: %s", clip(path), schemaProblem(se, hidden))
}

// valueProblem says what is wrong with a parameter's value.
func valueProblem(re *openapi3filter.RequestError) string {
	hidden := sensitive(paramSchema(re.Parameter))
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		return schemaProblem(se, hidden || sensitive(se.Schema))
	}
	var pe *openapi3filter.ParseError
	if errors.As(re.Err, &pe) {
		return parseProblem(pe, re.Parameter, hidden)
	}
	if re.Err != nil && !hidden {
		return clip(firstLine(re.Err.Error()))
	}
	return clip(re.Reason)
}

func paramSchema(p *openapi3.Parameter) *openapi3.Schema {
	if p.Schema == nil {
		return nil
	}
	return p.Schema.Value
}

// parseProblem says why a value could not be read as the parameter's type.
func parseProblem(pe *openapi3filter.ParseError, p *openapi3.Parameter, hidden bool) string {
	s := paramSchema(p)
	for pe.Cause != nil {
		inner, ok := pe.Cause.(*openapi3filter.ParseError)
		if !ok {
			break
		}
		pe = inner
	}
	switch {
	case s == nil || s.Type == nil:
		if hidden {
			return "the value (not shown: the parameter is sensitive) cannot be read"
		}
		return clip(firstLine(pe.Error()))
	case hidden:
		return "the value (not shown: the parameter is sensitive) is not " + typeName(s)
	}
	return fmt.Sprintf("%s is not %s", quoteText(fmt.Sprint(pe.Value)), typeName(s))
}

// schemaProblem says which rule of the schema a value breaks; hidden keeps
// the value out of the message.
func schemaProblem(se *openapi3.SchemaError, hidden bool) string {
	s := se.Schema
	v := quoteValue(se.Value, hidden)
	switch se.SchemaField {
	case "enum":
		return fmt.Sprintf("%s is not one of %s", v, clip(joinEnum(s.Enum)))
	case "minimum":
		return fmt.Sprintf("%s is below the minimum %v", v, deref(s.Min))
	case "maximum":
		return fmt.Sprintf("%s is above the maximum %v", v, deref(s.Max))
	case "type", "format":
		return fmt.Sprintf("%s is not %s", v, typeName(s))
	}
	if hidden {
		return fmt.Sprintf("%s breaks the rule %s of the schema", v, se.SchemaField)
	}
	return clip(firstLine(se.Reason))
}

// typeName names a schema's type for an error message: "an integer (int64)".
func typeName(s *openapi3.Schema) string {
	switch {
	case s.Type.Is("integer"):
		return "an integer (" + orDefault(s.Format, "int64") + ")"
	case s.Type.Is("number"):
		return "a number"
	case s.Type.Is("boolean"):
		return "a boolean (true or false)"
	case s.Type.Is("string"):
		return "a string"
	case s.Type.Is("array"):
		return "a list"
	case s.Type.Is("object"):
		return "an object"
	}
	return "of type " + strings.Join(s.Type.Slice(), " or ")
}

func joinEnum(values []any) string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = fmt.Sprint(v)
	}
	return strings.Join(out, ", ")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
