package facade

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// validator collects the first problem with an operation's inputs.
type validator struct {
	op  string
	err error
}

func check(op gen.OperationID) *validator { return &validator{op: string(op)} }

// fail records the first problem. String arguments (the caller's values)
// are cut at 200 bytes.
func (v *validator) fail(field, format string, args ...any) {
	if v.err == nil {
		v.err = &ValidationError{Operation: v.op, Field: field, Reason: fmt.Sprintf(format, cutStrings(args)...)}
	}
}

// cutStrings cuts every argument of a string kind (named string types
// included) at 200 bytes.
func cutStrings(args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		out[i] = a
		if v := reflect.ValueOf(a); v.IsValid() && v.Kind() == reflect.String && v.Len() > maxQuoted {
			out[i] = cut(v.String())
		}
	}
	return out
}

// id requires a non-negative identifier.
func (v *validator) id(field string, id int64) *validator {
	if id < 0 {
		v.fail(field, "must not be negative, got %d", id)
	}
	return v
}

// checkID requires a non-negative id of a kind, named as the interface
// names it.
func checkID[T ids.Int](v *validator, id T) *validator { return v.id(ids.Name[T](), int64(id)) }

func (v *validator) project(id ids.ProjectID) *validator         { return checkID(v, id) }
func (v *validator) scenario(id ids.ScenarioID) *validator       { return checkID(v, id) }
func (v *validator) job(id ids.JobID) *validator                 { return checkID(v, id) }
func (v *validator) rc(id ids.RcID) *validator                   { return checkID(v, id) }
func (v *validator) result(id ids.ExperimentResultID) *validator { return checkID(v, id) }
func (v *validator) run(id ids.RunID) *validator                 { return checkID(v, id) }
func (v *validator) page(id ids.PageID) *validator               { return checkID(v, id) }
func (v *validator) variation(id ids.VariationID) *validator     { return checkID(v, id) }

// int32ID requires an identifier the operation sends as a 32-bit integer.
func (v *validator) int32ID(field string, id int64) *validator {
	if id < 0 || id > math.MaxInt32 {
		v.fail(field, "must be between 0 and %d, got %d", math.MaxInt32, id)
	}
	return v
}

// int32Text requires the decimal form of an identifier the operation sends
// as a 32-bit integer.
func (v *validator) int32Text(field, s string) *validator {
	if n, err := strconv.ParseInt(s, 10, 32); err != nil || n < 0 {
		v.fail(field, "must be a whole number between 0 and %d, got %q", math.MaxInt32, s)
	}
	return v
}

// newOrVariation requires the id of a variation or [ids.NewVariation].
func (v *validator) newOrVariation(id ids.VariationID) *validator {
	if id == ids.NewVariation {
		return v
	}
	return v.variation(id)
}

func (v *validator) str(field, s string) *validator {
	if strings.TrimSpace(s) == "" {
		v.fail(field, "is required")
	}
	return v
}

func (v *validator) strs(field string, s []string) *validator {
	if len(s) == 0 {
		v.fail(field, "needs at least one value")
	}
	for i, x := range s {
		if strings.TrimSpace(x) == "" {
			v.fail(fmt.Sprintf("%s[%d]", field, i), "is empty")
		}
	}
	return v
}

func (v *validator) rows(field string, rows []int64) *validator {
	if len(rows) == 0 {
		v.fail(field, "needs at least one row index")
	}
	if slices.ContainsFunc(rows, func(r int64) bool { return r < 0 }) {
		v.fail(field, "row indexes must not be negative")
	}
	return v
}

func (v *validator) ok(field string, good bool, format string, args ...any) *validator {
	if !good {
		v.fail(field, format, args...)
	}
	return v
}

func (v *validator) scenarioType(field string, t gen.ScenarioType) *validator {
	return v.ok(field, t.Valid(), "unknown value %q (want GFA, NO or SIM)", t)
}

func (v *validator) experimentType(field string, t gen.ExperimentType) *validator {
	return v.ok(field, t.Valid(), "unknown experiment type %q", t)
}

func (v *validator) variationType(field string, t gen.VariationType) *validator {
	return v.ok(field, t.Valid(), "unknown variation type %q", t)
}

func (v *validator) done() error { return v.err }

func ptr[T any](v T) *T { return &v }

// deref returns what p points to, or the zero value for nil.
func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// optBool returns nil for false, so an unset option is not sent.
func optBool(b bool) *bool {
	if !b {
		return nil
	}
	return ptr(true)
}

func optStrings(s []string) *[]string {
	if len(s) == 0 {
		return nil
	}
	return &s
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
