//go:build tools

// Package tools pins the code generator this module runs through go
// generate, so that go.mod records its version.
package tools

import (
	_ "github.com/ogen-go/ogen/cmd/ogen"
)
