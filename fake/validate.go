package fake

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// validateRequest checks the call's query parameters against the operation's
// declaration in the spec (required, single or list, type and format, enum,
// the paging bounds) and that a required JSON body is present. Multipart
// bodies are checked field by field while they are streamed.
func validateRequest(op gen.Operation, r *http.Request) error {
	query := r.URL.Query()
	for _, p := range op.Params {
		if err := validateParam(p, query[p.Name]); err != nil {
			return err
		}
	}
	if op.Body != nil && op.Body.Required && op.Body.MediaType == "application/json" && r.ContentLength == 0 {
		return badRequest("request body: a %s JSON body is required", op.Body.Schema)
	}
	if op.Body != nil && op.Body.MediaType == "multipart/form-data" &&
		!strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		return badRequest("request body: multipart/form-data is required, got Content-Type %q", r.Header.Get("Content-Type"))
	}
	return nil
}

func validateParam(p gen.Param, values []string) error {
	if len(values) == 0 {
		if p.Required {
			return badRequest("parameter %s is required", p.Name)
		}
		return nil
	}
	if !p.Array && len(values) > 1 {
		return badRequest("parameter %s: expected one value, got %d", p.Name, len(values))
	}
	for _, v := range values {
		if err := validateValue("parameter "+p.Name, p.Type, p.Format, p.Enum, v); err != nil {
			return err
		}
	}
	return validateBounds(p.Name, values[0])
}

// validateValue checks one value of a parameter or form field; what names
// it in the error.
func validateValue(what, typ, format string, enum []string, v string) error {
	switch typ {
	case "integer":
		bits := 64
		if format == "int32" {
			bits = 32
		}
		if _, err := strconv.ParseInt(v, 10, bits); err != nil {
			return badRequest("%s: %q is not an integer (%s)", what, v, orDefault(format, "int64"))
		}
	case "number":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return badRequest("%s: %q is not a number", what, v)
		}
	case "boolean":
		if v != "true" && v != "false" {
			return badRequest("%s: %q is not a boolean (true or false)", what, v)
		}
	}
	if len(enum) > 0 && !slices.Contains(enum, v) {
		return badRequest("%s: %q is not one of %s", what, v, strings.Join(enum, ", "))
	}
	return nil
}

// validateBounds enforces the paging bounds: skip and take at least 0, take
// at most MaxTake.
func validateBounds(name, v string) error {
	if name != "skip" && name != "take" {
		return nil
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	if n < 0 {
		return badRequest("parameter %s: %d is below the minimum 0", name, n)
	}
	if name == "take" && n > MaxTake {
		return badRequest("parameter take: %d is above the server maximum %d", n, MaxTake)
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
