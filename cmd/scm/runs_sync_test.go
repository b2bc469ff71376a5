package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// interruptSyncRun runs scm run RCID --sync with args and the server flags,
// and cancels its context (Ctrl-C) once the server shows the run under way
// (its servers mark a run under way RUNNING: fake.WithRunningMarked).
func interruptSyncRun(t *testing.T, srv *fake.Server, flags []string, args ...string) (code int, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), interruptDeadline)
	defer cancel()
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	running := make(chan struct{})
	go func() {
		defer close(running)
		for ctx.Err() == nil {
			if st, err := c.Experiments.Status(ctx, 10303); err == nil && facade.RunStateValue(st) == "RUNNING" {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var errOut strings.Builder
	code = run(ctx, append(append([]string{"run", "10303", "--sync"}, args...), flags...), strings.NewReader(""), &strings.Builder{}, &syncWriter{w: &errOut})
	<-running
	require.NotErrorIs(t, ctx.Err(), context.DeadlineExceeded, "waited %v for the run to be under way; scm said:\n%s", interruptDeadline, errOut.String())
	return code, errOut.String()
}

// Ctrl-C during a synchronous run with --stop-on-cancel stops the run, as
// it does a run waited for, and says so.
func TestInterruptStopsTheSyncRun(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunningMarked(), fake.WithRunDuration(time.Hour))
	code, errOut := interruptSyncRun(t, srv, flags, "--stop-on-cancel")
	assert.Equal(t, exitInterrupted, code, errOut)
	assert.Contains(t, errOut, "Stopping run 10303... (Ctrl-C again to quit")
	assert.Contains(t, errOut, "Interrupted: stopped run 10303")
	assert.Equal(t, 1, srv.Applied("stopExperiment"))
}

// Without --stop-on-cancel the synchronous run goes on.
func TestInterruptLeavesTheSyncRun(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunningMarked(), fake.WithRunDuration(time.Hour))
	code, errOut := interruptSyncRun(t, srv, flags)
	assert.Equal(t, exitInterrupted, code, errOut)
	assert.Contains(t, errOut, "Interrupted: stopped waiting; run 10303 goes on")
	assert.Zero(t, srv.Applied("stopExperiment"))
}

// When stopping a synchronous run fails, scm says so and exits 1.
func TestInterruptSyncRunWithFailedStop(t *testing.T) {
	srv, flags := newServer(t, fake.WithRunningMarked(), fake.WithRunDuration(time.Hour))
	srv.InjectFault("stopExperiment", fake.Fault{Kind: fake.FaultStatus, Status: 500, Times: 1})
	code, errOut := interruptSyncRun(t, srv, flags, "--stop-on-cancel")
	assert.Equal(t, exitAPI, code, errOut)
	assert.Contains(t, errOut, "stopping the work failed")
	assert.NotContains(t, errOut, "Interrupted: stopped run")
}
