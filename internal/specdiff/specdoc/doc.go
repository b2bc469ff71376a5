// Package specdoc is the spec specdiff compares with: api/openapi.yaml as
// it was when specdiff was built (package api embeds it, with
// api/known-omissions.yaml), or the file -spec names.
//
// # Reading and loading
//
// [Read] reads the spec's text ([Document]), which validate and overlay
// work on; [Load] loads and validates it with kin-openapi and indexes its
// operations ([Spec]): by either name (operationId or
// x-snake-case-name, [Spec.Index]) and by route ([Spec.RouteIndex]), with
// their details and the lines findings point at ([Spec.At]). Reports name
// the embedded spec "api/openapi.yaml (embedded)" and point at its lines
// in the repository.
//
// # Known omissions
//
// [Spec.LoadOmissions] reads the reviewed list of operations that some
// published listings leave out; a listing that lacks one reports a
// known-omission, not drift ([Spec.Omitted]).
//
// # Validate
//
// [Validate] is specdiff validate: the spec's problems (kin-openapi's and
// internal/spec.CheckData's rules, the strict ones included: a oneOf
// told apart only by its discriminator, an example invalid under plain JSON
// Schema rules) as findings with the kinds spec-<rule>, each at the line to
// change.
package specdoc
