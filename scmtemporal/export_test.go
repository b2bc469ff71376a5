package scmtemporal

import (
	"context"

	"go.temporal.io/sdk/worker"
)

// RegisterOnWorker registers as Register does on a worker, whose Temporal
// client (activity.GetClient) confirms the marks: here, the recorder
// (Temporal's test environment has no client of a service).
func RegisterOnWorker(r worker.Registry, acts *Activities, recorder HeartbeatRecorder) {
	a := *acts
	a.confirmer = func(context.Context) heartbeatRecorder { return recorder }
	if err := register(r, &a, true); err != nil {
		panic(err)
	}
}

// HeartbeatRecorder is the part of the worker's Temporal client the
// activities use.
type HeartbeatRecorder = heartbeatRecorder
