// Package runshow names the state of a run for people: what the CLI and a
// batch print while they wait for a run, and how a wait they cut short
// ended.
package runshow

import (
	"errors"
	"math"
	"strings"

	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// Waiting is the state shown for a state that a wait yielded (facade.Run
// States yields only states of a run not ended, whose start took effect):
// the state's own value, RUNNING where it is IDLE or empty. A real server
// shows a run under way as IDLE with finished false, as it shows one that
// never ran.
func Waiting(s *gen.ExecutionState) string {
	v := string(facade.RunStateValue(s))
	if v == "" || strings.EqualFold(v, string(gen.ExecutionStateGenericStateIDLE)) {
		return string(gen.ExecutionStateGenericStateRUNNING)
	}
	return v
}

// Progress is the progress a server reports beside a run's state (a
// "progress" field, 0 to 100), and whether it reports one: a real server
// reports none for runs, and a display then shows the elapsed time, never
// a percentage.
func Progress(s *gen.ExecutionState) (float64, bool) {
	if s == nil {
		return 0, false
	}
	p, ok, err := extra.Get[float64](s.AdditionalProperties, "progress")
	if !ok || err != nil || math.IsNaN(p) || p < 0 || p > 100 {
		return 0, false
	}
	return p, true
}

// StopFailed reports the error of a wait that WaitOptions.StopOnCancel
// ended, whose stop of the work (stopExperiment, importCancel) failed: the
// wait's error wraps the stop's own *facade.APIError or
// *facade.RequestError. The work may go on.
func StopFailed(err error) bool {
	var apiErr *facade.APIError
	if errors.As(err, &apiErr) && isStop(apiErr.Operation) {
		return true
	}
	var reqErr *facade.RequestError
	return errors.As(err, &reqErr) && isStop(reqErr.Operation)
}

// isStop reports an operation that stops a run or cancels a job.
func isStop(op string) bool {
	return op == string(gen.OpStopExperiment) || op == string(gen.OpImportCancel)
}
