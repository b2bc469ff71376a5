// Package oas is what specdiff reads of an OpenAPI document, the spec's or
// a listing's, beyond kin-openapi's model: names and paths for schemas,
// and what an operation says besides its name and route.
//
// # Models and paths
//
// A finding about a schema names the spec's model and the property path
// below it (ApiProjectResponse.projectId, pages[].page.id). [Models] names
// the component schemas of a document by pointer; [Models.At] starts a
// path at an object model, so that a model many operations share has one
// path; [Models.Label] names a schema in a detail (its model, else its
// type and format, as spec.TypeName writes it).
//
// # Operations
//
// [Details] is an operation's parameters, media types and security, as
// the listing diff compares them ([OperationDetails]).
//
// # Shared rules
//
// [PairRenames] pairs a property that went missing with the one that took
// its place, for the listing diff and the probe alike;
// [CompatibleJSONType] says whether a JSON type (as jsondec.TypeOf names
// it) fits a schema's; [IsJSONMediaType] tells JSON media types.
package oas
