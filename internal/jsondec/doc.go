// Package jsondec is the runtime of the JSON decoders that decodegen writes
// into package gen (gen/decode.gen.go). A generated decoder reads a document
// held in memory in a single pass with a [Reader], liberal in what it
// accepts: every read returns a [Status] instead of failing on a value of
// an unexpected type.
//
// # What encoding/json does, and how the decoders match it
//
// On a document that encoding/json decodes into the models of package gen
// (through their own UnmarshalJSON), the decoders give the same value: the
// same fields, unknown fields kept verbatim in AdditionalProperties, null
// leaving a field at its zero value (a non-pointer raw value keeps the text
// null, as json.RawMessage does), and of repeated keys the last, since the
// models' UnmarshalJSON reads objects into a map first. Strings and names
// decode as there: invalid UTF-8 and unpaired surrogates turn into U+FFFD.
// A document encoding/json finds malformed (nesting deeper than 10000
// levels included) fails here too, with the byte offset ([Error]).
//
// # Where they differ
//
// Where encoding/json fails on a value of the wrong type, the decoders go
// on: the value is converted when nothing is lost ([Converted]: a number for
// a string, "42" for an integer, "true" for a bool, and 5002.0 or 5.002e3
// for an integer when its decimal text is exactly one in range, decided
// from the text and never rounded through float64), or the field keeps its
// zero value and the value's text is kept raw in the model's
// AdditionalProperties under the field's name ([Kept], [Reader.Field]).
// Each difference from the spec (a [Site] says what the spec has at each
// place) is noted once per document and place (a value kept raw apart from
// one converted), and handed on as a drift.Finding by [Reader.Finish].
//
// # Bounds
//
// A document is decoded with [Options]: its context is checked every
// [CheckEvery] bytes, so a large answer can be cancelled; the differences
// it keeps are bounded (MaxFindings, the rest counted), and so is the
// length of a name or value from the document quoted in a finding
// (MaxReportedLen, see [Cut]). Differences are looked up in an index once
// there are more than a few, so a document of many distinct differences
// costs time linear in its size.
//
// # Lists and models
//
// [EachBatch] frames a JSON list as it streams, a batch of whole elements
// at a time, so that a long list is never held whole. [UnmarshalModel] and
// [MarshalModel] are the JSON methods that decodegen writes for the models
// (gen/models.gen.go): strict, for the callers of encoding/json, and
// sending a value kept raw under a field's name while the field is unset.
//
// # Speed
//
// The reader scans bytes itself: no reflection, no maps on the path of
// known fields, strings checked eight bytes at a time, integers and short
// decimals parsed without strconv, and the strings and raw values of a
// document copied into a few shared blocks (see arena.go) instead of one
// allocation each.
package jsondec
