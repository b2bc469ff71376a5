package facade

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/jsondec"
)

// MalformedError is an answer the SDK cannot go on with: it lacks a value
// the facade needs (an id to page or wait on, a result id, the items of a
// page, whether a run is over), has one that cannot be what it needs (a
// negative id, an id of 0: Value), or, for a paging, a page that starts or
// ends with the item a recent page started or ended with (Cycle). The
// facade stops there rather than go on with a zero id, an empty page or a
// paging without end. Has lists the properties the answer has instead, so
// that a renamed field shows: at most [Limits].MaxListedFields of them,
// each cut to [Limits].MaxReportedLen bytes, and More counts the rest. It
// matches [ErrMalformed].
type MalformedError struct {
	Operation string   // camelCase operationId
	Model     string   // the answer's model, e.g. ApiExperimentResultData
	Field     string   // the property the facade needed, e.g. pages
	Has       []string // the properties the answer has, sorted
	More      int      // how many properties the answer has beyond those in Has
	// Value is what the answer had in Field's place when that cannot be
	// what the facade needs (a negative id, an id of 0), "" when it had
	// nothing there.
	Value string
	// Cycle is set for a paging stopped because its server does not
	// advance through the list; Model, Field and Has are then empty.
	Cycle *PageCycle
}

func (e *MalformedError) Error() string {
	switch {
	case e.Cycle != nil:
		return fmt.Sprintf("facade: %s: paging stopped: the page at skip %d has the %s item of the page at skip %d; "+
			"the server does not advance through the list", e.Operation, e.Cycle.Skip, e.Cycle.Edge, e.Cycle.Earlier)
	case e.Value != "":
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

// Is matches ErrMalformed.
func (e *MalformedError) Is(target error) bool { return target == ErrMalformed }

// badID is the *MalformedError of an id the answer had (in field of
// model) that cannot be one: negative, or 0 where zero is not an id. It
// is nil when id is one. has lists the answer's properties, for an id of 0.
func badID[T ids.Int](op, model, field string, id T, zeroIsID bool, has []string) error {
	switch {
	case id > 0 || id == 0 && zeroIsID:
		return nil
	case id == 0:
		return &MalformedError{Operation: op, Model: model, Field: field, Has: has}
	}
	return &MalformedError{Operation: op, Model: model, Field: field, Value: id.String()}
}

// listed bounds the property list of a *MalformedError by the client's
// limits: the first MaxListedFields names, each cut to MaxReportedLen
// bytes, and the count of the rest. Any other err is returned as it is.
func (c *Client) listed(err error) error {
	e, ok := err.(*MalformedError)
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
	e := &MalformedError{Operation: op.ID, Model: op.Response.Schema, Field: op.PagedItems, Has: keys}
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
