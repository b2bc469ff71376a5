package extra

import (
	"encoding/json"
	"iter"

	"github.com/scmodel/scmgo/internal/properties"
)

// Properties are named raw JSON values, in the order they were first set.
// Names are unique: setting a name already present replaces its value in
// place. The zero value has none.
//
// (The implementation is internal: the generated decoders give the
// models of a page their first property from shared blocks through it.)
type Properties properties.Properties

// impl is e as the implementation's type.
func (e Properties) impl() properties.Properties { return properties.Properties(e) }

// Of returns Properties holding the values of m, in the order of their
// names, or none when m is empty.
func Of(m map[string]json.RawMessage) Properties { return Properties(properties.Of(m)) }

// Len returns how many properties there are.
func (e Properties) Len() int { return e.impl().Len() }

// Get returns the value of the property name, and whether there is one.
func (e Properties) Get(name string) (json.RawMessage, bool) { return e.impl().Get(name) }

// Has reports whether there is a property name.
func (e Properties) Has(name string) bool { return e.impl().Has(name) }

// Set sets the property name to value: in its place when there is one
// already, else after the others. The value is kept as given, not copied.
func (e *Properties) Set(name string, value json.RawMessage) {
	(*properties.Properties)(e).Set(name, value)
}

// Delete removes the property name, when there is one.
func (e *Properties) Delete(name string) { (*properties.Properties)(e).Delete(name) }

// All yields the properties' names and values, in the order they were
// first set. Properties set or deleted while it runs may or may not be
// seen, as with a map.
func (e Properties) All() iter.Seq2[string, json.RawMessage] { return e.impl().All() }

// Names returns the properties' names, in the order they were first set.
func (e Properties) Names() []string { return e.impl().Names() }

// Map returns the properties as a new map, nil when there are none.
func (e Properties) Map() map[string]json.RawMessage { return e.impl().Map() }

// Clone returns a copy that shares no properties with e: setting or
// deleting a property of one leaves the other as it was. The values'
// bytes are shared; they are not changed by either.
func (e Properties) Clone() Properties { return Properties(e.impl().Clone()) }

// Equal reports whether e and o have the same names, in the same order,
// with byte-identical values.
func (e Properties) Equal(o Properties) bool { return e.impl().Equal(o.impl()) }

// String describes the properties for a log line or a test failure:
// {"name": value, ...}, in their order.
func (e Properties) String() string { return e.impl().String() }

// MarshalJSON writes the properties as a JSON object, in their order; a
// value that is empty is written as null. The models of package gen write
// theirs among their fields instead; this is for a Properties on its own.
func (e Properties) MarshalJSON() ([]byte, error) { return e.impl().MarshalJSON() }

// UnmarshalJSON sets the properties of a JSON object, in its order,
// replacing what e held; null leaves e as it was.
func (e *Properties) UnmarshalJSON(b []byte) error {
	return (*properties.Properties)(e).UnmarshalJSON(b)
}
