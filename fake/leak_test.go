package fake

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: the
// fake runs nothing in the background, and a closed server stops its
// connections and latency waits.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
