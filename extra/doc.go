// Package extra holds [Properties], what a model of package gen keeps
// beyond its fields: the properties of an answer's object that the spec
// does not name, and a value of the wrong type kept raw under the name of
// the field it was sent for.
//
// Every model of package gen has one, as its AdditionalProperties field.
// The decoders fill it, the models' MarshalJSON sends it back, so a model
// read, changed and sent back carries what the server sent:
//
//	added, ok, err := extra.Get[string](row.AdditionalProperties, "addedLater")
//	raw, ok := row.AdditionalProperties.Get("addedLater")
//	row.AdditionalProperties.Set("note", json.RawMessage(`"checked"`))
//	for name, raw := range row.AdditionalProperties.All() { ... }
//
// # Why not a map
//
// A newer server sends a field the spec does not name on every row of a
// page. A Go map per row costs two allocations and about 400 bytes, as
// much as the row itself; Properties costs one block of 72 bytes for its
// first property (one allocation, or a share of a block a decoder
// allocates for 64 models), and nothing while it has none.
//
// # Sharing
//
// Properties behaves as a map does: the zero value has no properties and
// is ready to use, and copies of a model share the properties once it has
// one (Set on one is seen by the others). [Properties.Clone] makes a copy
// that shares nothing.
package extra
