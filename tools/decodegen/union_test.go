package main

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A component that did not resolve (no schema) is passed over, not read:
// the spec's validation is what reports it.
func TestLoadUnionsPassesOverUnresolvedSchemas(t *testing.T) {
	doc := &openapi3.T{Components: &openapi3.Components{Schemas: openapi3.Schemas{
		"Unresolved": {Ref: "#/components/schemas/Gone"},
		"Nil":        nil,
		"Plain":      openapi3.NewObjectSchema().NewRef(),
	}}}
	unions, err := loadUnions(doc)
	require.NoError(t, err)
	assert.Empty(t, unions)
}
