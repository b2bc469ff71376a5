// Package overlay is specdiff overlay and overlay apply: from findings to
// a change of the spec, written as an OpenAPI Overlay (1.1.0) document,
// and applied.
//
// # From findings to an overlay
//
// [Run] reads probe findings, or a drift report of the SDK (a JSON array
// of findings), and turns them into overlay actions (read.go reads them,
// plan.go finds the schema each is about and merges what they ask of it,
// actions.go writes the actions). It reads the structured fields of a
// finding (model, property, jsonType, value, ...), never the detail;
// findings without them are used where the kind and path suffice and
// skipped with a note otherwise. Every element added or changed is marked
// x-observed with where the findings came from.
//
// # Applying an overlay
//
// [Apply] applies an overlay with github.com/speakeasy-api/openapi/overlay
// on the spec's YAML node tree, writes back only the lines that changed
// (internal/spec.EditYAML), so that the hand-written layout stays, and
// checks the result as specdiff validate does. The file is replaced
// atomically (internal/atomicfile), keeping its permissions.
package overlay
