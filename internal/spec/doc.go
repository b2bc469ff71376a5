// Package spec loads api/openapi.yaml with kin-openapi and reads the
// operation metadata its extensions declare. It feeds the generator of
// gen/operations.go and the spec checks; everything else reads the generated
// table in package gen.
package spec
