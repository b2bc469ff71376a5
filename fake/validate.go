package fake

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/scmodel/scmgo/gen"
)

// validateRequest checks the call against the operation in the spec with
// kin-openapi: parameters (required, type and format, enumeration, minimum)
// and a JSON body against its schema. A multipart body is left to the
// handler, which checks it field by field while it streams (kin-openapi would
// buffer every part). On top of the spec, the server refuses a take above
// MaxTake, a repeated single-valued parameter and a JSON body that is not
// valid UTF-8.
func (h *Handler) validateRequest(op gen.Operation, r *http.Request) error {
	withDefaults(op, r)
	multipart := isMultipart(op)
	if op.Body != nil && !multipart {
		if err := checkJSONText(r); err != nil {
			return err
		}
	}
	opts := &validateAll
	if multipart {
		opts = &validateAllButBody
	}
	in := &openapi3filter.RequestValidationInput{Request: r, Route: h.routes[op.ID], Options: opts}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		return specError(err)
	}
	if multipart && !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		return badRequest("request body: multipart/form-data is required, got Content-Type %s", quoteText(r.Header.Get("Content-Type")))
	}
	return checkServerLimits(op, in.GetQueryParams())
}

// The validation options, shared by every call (kin-openapi only reads
// them): the key is checked before, and defaults are left to the handlers.
var (
	validateAll = openapi3filter.Options{
		AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
		SkipSettingDefaults: true,
	}
	validateAllButBody = openapi3filter.Options{
		AuthenticationFunc:  openapi3filter.NoopAuthenticationFunc,
		SkipSettingDefaults: true,
		ExcludeRequestBody:  true,
	}
)

// checkServerLimits enforces what the server adds to the spec: a parameter
// that is not a list has one value, and take is at most MaxTake.
func checkServerLimits(op gen.Operation, query url.Values) error {
	for _, p := range op.Params {
		if n := len(query[p.Name]); !p.Array && n > 1 {
			return badRequest("parameter %s: expected one value, got %d", p.Name, n)
		}
	}
	if v := query.Get("take"); v != "" {
		if n, _ := strconv.ParseInt(v, 10, 64); n > MaxTake {
			return badRequest("parameter take: %d is above the server maximum %d", n, MaxTake)
		}
	}
	return nil
}

// validateValue checks one value of a multipart form field; what names it
// in the error.
func validateValue(what, typ, format string, v string) error {
	switch typ {
	case "integer":
		bits := 64
		if format == "int32" {
			bits = 32
		}
		if _, err := strconv.ParseInt(v, 10, bits); err != nil {
			return badRequest("%s: %s is not an integer (%s)", what, quoteText(v), orDefault(format, "int64"))
		}
	case "number":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return badRequest("%s: %s is not a number", what, quoteText(v))
		}
	case "boolean":
		if v != "true" && v != "false" {
			return badRequest("%s: %s is not a boolean (true or false)", what, quoteText(v))
		}
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func itoa[N ~int64](n N) string { return strconv.FormatInt(int64(n), 10) }

// withDefaults adds to the query the parameters a request left out that
// have a default (skip, take, fullMatch): the server's document declares
// them required with a default, and a server built from it applies the
// default, so the fake does too.
func withDefaults(op gen.Operation, r *http.Request) {
	q := r.URL.Query()
	added := false
	for _, p := range op.Params {
		if p.Default != "" && !q.Has(p.Name) {
			q.Set(p.Name, strings.Trim(p.Default, `"`))
			added = true
		}
	}
	if added {
		r.URL.RawQuery = q.Encode()
	}
}
