// Package spec loads api/openapi.yaml with kin-openapi and reads the
// operation metadata its extensions declare. It feeds the generator of
// gen/operations.go and the spec checks; everything else reads the generated
// table in package gen. [EditYAML] changes the spec's YAML node tree and
// writes back only the lines that changed, so that tools (specdiff overlay
// apply) keep the hand-written layout.
package spec
