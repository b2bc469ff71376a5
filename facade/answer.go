package facade

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/jsondec"
)

// ErrMissingField: an answer lacks a value the facade needs to go on.
var ErrMissingField = errors.New("the answer lacks a value the SDK needs")

// MissingFieldError is an answer that lacks a value the facade needs to go
// on: an id to page or wait on, a result id, the items of a page, whether a
// run is over. The facade stops there rather than go on with a zero id or an
// empty page. Has lists the properties the answer has instead, so that a
// renamed field shows: at most [Limits].MaxListedFields of them, each cut
// to [Limits].MaxReportedLen bytes, and More counts the rest. It matches
// ErrMissingField.
type MissingFieldError struct {
	Operation string   // camelCase operationId
	Model     string   // the answer's model, e.g. ApiExperimentResultData
	Field     string   // the property the facade needed, e.g. pages
	Has       []string // the properties the answer has, sorted
	More      int      // how many properties the answer has beyond those in Has
	// Value is what the answer had in Field's place when that cannot be
	// what the facade needs (a negative id, an id of 0), "" when it had
	// nothing there.
	Value string
}

func (e *MissingFieldError) Error() string {
	if e.Value != "" {
		return fmt.Sprintf("facade: %s: the answer (%s) has no usable %s: %s is not one", e.Operation, e.Model, e.Field, e.Value)
	}
	has := "nothing"
	if len(e.Has) > 0 {
		has = strings.Join(e.Has, ", ")
	}
	if e.More > 0 {
		has += fmt.Sprintf(" and %d more (Limits.MaxListedFields)", e.More)
	}
	return fmt.Sprintf("facade: %s: the answer (%s) has no %s; it has: %s", e.Operation, e.Model, e.Field, has)
}

// badID is the *MissingFieldError of an id the answer had (in field of
// model) that cannot be one: negative, or 0 where zero is not an id. It
// is nil when id is one. has lists the answer's properties, for an id of 0.
func badID[T ids.Int](op, model, field string, id T, zeroIsID bool, has []string) error {
	switch {
	case id > 0 || id == 0 && zeroIsID:
		return nil
	case id == 0:
		return &MissingFieldError{Operation: op, Model: model, Field: field, Has: has}
	}
	return &MissingFieldError{Operation: op, Model: model, Field: field, Value: id.String()}
}

// Is matches ErrMissingField.
func (e *MissingFieldError) Is(target error) bool { return target == ErrMissingField }

// listed bounds the property list of a *MissingFieldError by the client's
// limits: the first MaxListedFields names, each cut to MaxReportedLen
// bytes, and the count of the rest. Any other err is returned as it is.
func (c *Client) listed(err error) error {
	e, ok := err.(*MissingFieldError)
	if !ok {
		return err
	}
	l := c.cfg.limits
	if n := l.MaxListedFields; len(e.Has) > n {
		e.Has, e.More = e.Has[:n:n], e.More+len(e.Has)-n
	}
	for i, name := range e.Has {
		e.Has[i] = textcut.Cut(name, l.MaxReportedLen)
	}
	return e
}

// presentFields lists the properties of a decoded model that hold a value:
// its known fields that are not null and the unknown ones it kept.
func presentFields(model any) []string {
	b, err := json.Marshal(model)
	if err != nil {
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return nil
	}
	var names []string
	for name, v := range fields {
		if string(v) != "null" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// fieldsBut is names less name: what an answer has instead of the field it
// holds only a zero value of.
func fieldsBut(names []string, name string) []string {
	names = slices.DeleteFunc(names, func(n string) bool { return n == name })
	if len(names) == 0 {
		return nil
	}
	return names
}

// missingItems is the error of a page answer whose items property is
// absent or not an array; nil when it is there, as an array or null.
func missingItems(op gen.Operation, body []byte) error {
	keys, items, isObject := jsondec.Keys(body, op.PagedItems)
	if !isObject || len(items) > 0 && (items[0] == '[' || items[0] == 'n') {
		return nil
	}
	e := &MissingFieldError{Operation: op.ID, Model: op.Response.Schema, Field: op.PagedItems, Has: keys}
	if len(items) > 0 {
		e.Field += " (an array; the answer has " + withArticle(jsondec.TypeOf(items)) + ")"
	}
	return e
}

// withArticle is a JSON type's name with its article: an integer, a string.
func withArticle(jsonType string) string {
	switch jsonType {
	case "integer", "object", "array":
		return "an " + jsonType
	}
	return "a " + jsonType
}
