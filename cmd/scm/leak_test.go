package main

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: the
// demo's embedded server, an interrupted wait or a streamed upload must all
// stop what they started.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
