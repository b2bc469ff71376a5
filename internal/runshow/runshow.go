// Package runshow names the state of a run for people: what the CLI and a
// batch print while they wait for a run.
package runshow

import (
	"strings"

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
