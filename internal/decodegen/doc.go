// Command decodegen writes gen/decode.gen.go: single-pass JSON decoders for
// the models that paged operations answer (pages, their items and every
// model they hold), and gen.DecodeJSON, which decodes with them.
//
// The spec says which models: the response of every operation with
// x-paged-items, and what those hold. The Go types oapi-codegen made of them
// (gen/api.gen.go) say the rest: field names, JSON names and types. A model
// qualifies when it keeps unknown fields (additionalProperties of raw JSON);
// a field of a type the decoders do not read themselves is read through
// encoding/json, so any spec decodes, only less quickly.
//
// It runs from go generate after oapi-codegen; see generate.go at the module
// root. The decoders use the runtime in internal/jsondec.
package main
