package jsondec

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/scmodel/scmgo/extra"
)

// Into is a field of a model to read: its JSON name, and a pointer to it.
type Into struct {
	Name  string
	Value any
}

// UnmarshalModel reads the JSON object b into a model's fields with
// encoding/json, strictly: a value of the wrong type is an error naming the
// field. The properties no field names go to *more, in the order of the
// object (a repeated name takes its last value, at its first place),
// replacing what it held; when there are none, *more is left as it was.
// null leaves the model as it was. This is the UnmarshalJSON of the
// generated models, for the callers of encoding/json; the answers of
// operations are read by the generated decoders instead, liberally.
func UnmarshalModel(b []byte, more *extra.Properties, fields []Into) error {
	object := make(map[string]json.RawMessage)
	if err := json.Unmarshal(b, &object); err != nil {
		return err
	}
	for _, f := range fields {
		raw, found := object[f.Name]
		if !found {
			continue
		}
		if err := json.Unmarshal(raw, f.Value); err != nil {
			return fmt.Errorf("error reading '%s': %w", f.Name, err)
		}
		delete(object, f.Name)
	}
	if len(object) == 0 {
		return nil
	}
	*more = extra.Properties{}
	names, _, _ := objectKeys(b, "")
	for _, name := range names {
		if raw, unknown := object[name]; unknown {
			more.Set(name, raw)
		}
	}
	return nil
}

// From is a field of a model to write: its JSON name and its value.
// Unset says that it holds its zero value; Omit that it is nil (a pointer,
// slice or map), which is not written at all.
type From struct {
	Name        string
	Value       any
	Unset, Omit bool
}

// MarshalModel writes a model: its fields, then the additional properties
// in more, except one under the name of a field that is set, which the
// field's value replaces. So a value the decoders kept raw under a field's
// name (the answer had a value of a type they could not hold) is sent back
// while the field is unset (nil, or its zero value), and the caller's
// value once they set it: for a field that can be nil, to a pointer to a
// zero value too. (A field that cannot be nil and is set to its zero value
// cannot be told from one left unset: to send its zero in place of a
// value kept raw, delete the value kept.) Properties are written in the
// order of their names, as encoding/json writes a map.
func MarshalModel(more extra.Properties, fields []From) ([]byte, error) {
	object := make(map[string]json.RawMessage, len(fields)+more.Len())
	for _, f := range fields {
		if f.Omit || f.Unset && more.Has(f.Name) {
			continue
		}
		b, err := json.Marshal(f.Value)
		if err != nil {
			return nil, fmt.Errorf("error marshaling '%s': %w", f.Name, err)
		}
		object[f.Name] = b
	}
	for name, v := range more.All() {
		if _, set := object[name]; set {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("error marshaling '%s': %w", name, err)
		}
		object[name] = b
	}
	return json.Marshal(object)
}

// IsZero reports whether v is the zero value of its type, for the fields
// of models whose type cannot be compared with ==.
func IsZero(v any) bool { return v == nil || reflect.ValueOf(v).IsZero() }
