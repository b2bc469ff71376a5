package scmtemporal

import (
	"go.temporal.io/sdk/worker"
)

// Register registers [ItemWorkflow] and the activities of acts with a
// worker (or any worker.Registry, such as a test environment), under their
// own names.
func Register(r worker.Registry, acts *Activities) {
	r.RegisterWorkflow(ItemWorkflow)
	r.RegisterActivity(acts)
}
