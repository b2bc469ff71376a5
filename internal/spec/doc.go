// Package spec loads api/openapi.yaml with kin-openapi and reads the
// operation metadata its extensions declare. It feeds the generator of
// gen/operations.go and the spec checks; everything else reads the generated
// table in package gen. [EditYAML] changes the spec's YAML node tree and
// writes back only the lines that changed, so that tools (specdiff overlay
// apply) keep the hand-written layout.
//
// [LoadStrict] loads the spec as validators that ignore OpenAPI's
// discriminator read it (Prism, ajv, gateways): kin-openapi consults a
// discriminator and cannot be told not to, so the strict document has none,
// and [ValidateAnswer] then applies plain JSON Schema rules (oneOf exactly
// one, null only where nullable, required present). The tests validate the
// recorded answers of the real server and every answer of the fake with
// it; [CheckData] reads the spec so too (the one-of and example rules).
// [PagedItemsOf] says where each paged operation's items are, from
// x-paged-items, for the accessors opsgen writes.
package spec
