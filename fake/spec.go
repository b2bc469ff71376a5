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
// names the parameter or body field.
func specError(err error) error {
	var re *openapi3filter.RequestError
	if !errors.As(err, &re) {
		return badRequest("%v", err)
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
	return badRequest("%s", firstLine(re.Error()))
}

// bodyError names the body field a schema error is about.
func bodyError(re *openapi3filter.RequestError) error {
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		return schemaBodyError(se)
	}
	var pe *openapi3filter.ParseError
	if errors.As(re.Err, &pe) {
		return badRequest("request body: not valid JSON: %s", firstLine(pe.Error()))
	}
	if re.Err != nil {
		return badRequest("request body: %s", firstLine(re.Err.Error()))
	}
	return badRequest("request body: %s", re.Reason)
}

func schemaBodyError(se *openapi3.SchemaError) error {
	path := strings.Join(se.JSONPointer(), ".")
	switch {
	case path == "":
		return badRequest("request body: %s", schemaProblem(se))
	case se.SchemaField == "required":
		return badRequest("request body field %s is required", path)
	}
	return badRequest("request body field %s: %s", path, schemaProblem(se))
}

// valueProblem says what is wrong with a parameter's value.
func valueProblem(re *openapi3filter.RequestError) string {
	var se *openapi3.SchemaError
	if errors.As(re.Err, &se) {
		return schemaProblem(se)
	}
	var pe *openapi3filter.ParseError
	if errors.As(re.Err, &pe) {
		return parseProblem(pe, re.Parameter)
	}
	if re.Err != nil {
		return firstLine(re.Err.Error())
	}
	return re.Reason
}

// parseProblem says why a value could not be read as the parameter's type.
func parseProblem(pe *openapi3filter.ParseError, p *openapi3.Parameter) string {
	var s *openapi3.Schema
	if p.Schema != nil {
		s = p.Schema.Value
	}
	for pe.Cause != nil {
		inner, ok := pe.Cause.(*openapi3filter.ParseError)
		if !ok {
			break
		}
		pe = inner
	}
	if s == nil || s.Type == nil {
		return firstLine(pe.Error())
	}
	return fmt.Sprintf("%q is not %s", fmt.Sprint(pe.Value), typeName(s))
}

// schemaProblem says which rule of the schema a value breaks.
func schemaProblem(se *openapi3.SchemaError) string {
	s := se.Schema
	switch se.SchemaField {
	case "enum":
		return fmt.Sprintf("%s is not one of %s", quoteValue(se.Value), joinEnum(s.Enum))
	case "minimum":
		return fmt.Sprintf("%v is below the minimum %v", se.Value, deref(s.Min))
	case "maximum":
		return fmt.Sprintf("%v is above the maximum %v", se.Value, deref(s.Max))
	case "type", "format":
		return fmt.Sprintf("%s is not %s", quoteValue(se.Value), typeName(s))
	}
	return firstLine(se.Reason)
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

func quoteValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
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
