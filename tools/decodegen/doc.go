// Command decodegen writes gen/decode.gen.go: single-pass, liberal JSON
// decoders for every model an operation answers with JSON (and every model
// those hold), gen.DecodeAnswer, the one public entry that decodes with
// them, and the decoder with options and the constructor of each
// operation's answer that gen installs in internal/jsondec at init, for
// internal/gendecode (DecodeAnswerWith, DecodeJSON, NewAnswer). It also
// writes gen/models.gen.go: the JSON methods of every model that keeps unknown fields (Get and Set of an additional
// property, a strict UnmarshalJSON for encoding/json, and a MarshalJSON
// that sends a value kept raw under a field's name while the field is
// unset), in place of oapi-codegen's template for them. With -index, it
// writes the model index internal/testkit/genmodels: a constructor of the Go type of
// each component schema that is a struct, by the schema's name, which the
// tests that must cover every model read.
//
// The spec says which models (the JSON response of every operation) and
// what each place holds: required, nullable, type and format, the model
// path a finding names (the sites of jsondec). The Go types oapi-codegen
// made of them (gen/api.gen.go) say the rest: field names, JSON names and
// types, and enumerations (types with a Valid method). A model qualifies
// when it keeps unknown fields (additionalProperties of raw JSON); a field
// of a type the decoders do not read themselves is read through
// encoding/json, and a value it refuses is kept raw like any other. The id
// types the spec names with x-go-type (ids.RcID, ...) are read from their
// package's source (a package of this module, found from go.mod): a
// defined type of a basic type decodes as that type, and the decoders
// import its package.
//
// It runs from go generate after oapi-codegen; see generate.go at the module
// root. The decoders use the runtime in internal/jsondec.
package main
