package api

import (
	_ "embed"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// Spec is api/openapi.yaml as it was when the module was built.
//
//go:embed openapi.yaml
var Spec []byte

// Load parses and validates the embedded spec. Every call returns a new
// document, safe to change.
func Load() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(Spec)
	if err != nil {
		return nil, fmt.Errorf("loading the embedded spec: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validating the embedded spec: %w", err)
	}
	return doc, nil
}
