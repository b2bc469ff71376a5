// Command decodegen writes gen/decode.gen.go: single-pass, liberal JSON
// decoders for every model an operation answers with JSON (and every model
// those hold), gen.DecodeAnswer and gen.DecodeJSON, which decode with them,
// and gen.NewAnswer, the Go type of each operation's answer.
//
// The spec says which models (the JSON response of every operation) and
// what each place holds: required, nullable, type and format, the model
// path a finding names (the sites of jsondec). The Go types oapi-codegen
// made of them (gen/api.gen.go) say the rest: field names, JSON names and
// types, and enumerations (types with a Valid method). A model qualifies
// when it keeps unknown fields (additionalProperties of raw JSON); a field
// of a type the decoders do not read themselves is read through
// encoding/json, and a value it refuses is kept raw like any other.
//
// It runs from go generate after oapi-codegen; see generate.go at the module
// root. The decoders use the runtime in internal/jsondec.
package main
