package batch

import (
	"context"
	"errors"
	"strings"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ErrOutcomeUnknown is facade.ErrStartUnknown, the one sentinel of a start
// whose effect cannot be told.
//
// Deprecated: use facade.ErrStartUnknown.
var ErrOutcomeUnknown = facade.ErrStartUnknown

// ErrBusy: another batch holds the state file.
var ErrBusy = errors.New("state file in use")

// runUnderWay reports whether the experiment rcID has a run under way
// (getExperimentStatus): a state that is neither terminal nor IDLE, a
// state never seen before included, as a wait would go on polling it.
func runUnderWay(ctx context.Context, c *facade.Client, rcID ids.RcID) (bool, error) {
	s, err := c.Experiments.Status(ctx, rcID)
	if err != nil {
		return false, err
	}
	state := string(facade.RunStateValue(s))
	return state != "" && !strings.EqualFold(state, string(gen.ExecutionStateGenericStateIDLE)) &&
		facade.DefaultTerminalRule(state) == facade.Pending, nil
}

// ExportDashboardFile is [dashboard.ExportFile] with only a progress
// callback.
//
// Deprecated: use dashboard.ExportFile, which takes every option.
func ExportDashboardFile(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, path string, progress func(dashboard.Progress)) error {
	return dashboard.ExportFile(ctx, c, resultID, path, &dashboard.Options{Progress: progress})
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
