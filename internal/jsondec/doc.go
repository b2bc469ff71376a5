// Package jsondec is the runtime of the JSON decoders that decodegen writes
// into package gen (gen/decode.gen.go). A generated decoder reads a document
// in a single pass with a [jx.Decoder] and gives exactly what encoding/json
// gives through the models' own UnmarshalJSON methods: the same values, the
// same unknown fields kept verbatim, and an error for the same inputs.
//
// # What encoding/json does, and how the decoders match it
//
// The models of package gen keep unknown fields in AdditionalProperties. Their
// UnmarshalJSON reads the object into a map, so of a repeated key only the last
// value counts, and then decodes each known field from it. The decoders here
// read a field each time its key occurs, replacing the earlier value, and keep
// a field's type error only while it is the last occurrence ([Fields]).
//
// A value of the wrong type is a type error that does not stop decoding: the
// value is skipped and the document is read to its end, so that a later
// occurrence of the key can still replace it. Malformed JSON stops decoding at
// once. null leaves any field at its zero value, except a non-pointer raw
// value, which keeps the text null, as json.RawMessage does.
//
// Strings and names are decoded as encoding/json decodes them: the rare ones
// with escapes or bytes above ASCII go through encoding/json itself, so
// invalid UTF-8 and unpaired surrogates turn into U+FFFD the same way.
package jsondec
