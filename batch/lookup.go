package batch

import (
	"context"
	"errors"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
)

// ErrOutcomeUnknown is facade.ErrStartUnknown, the one sentinel of a start
// whose effect cannot be told.
//
// Deprecated: use facade.ErrStartUnknown.
var ErrOutcomeUnknown = facade.ErrStartUnknown

// ErrBusy: another batch holds the state file.
var ErrBusy = errors.New("state file in use")

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
