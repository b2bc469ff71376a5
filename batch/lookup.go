package batch

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/atomicfile"
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
	state := facade.RunStateValue(s)
	return state != "" && !strings.EqualFold(state, string(gen.ExecutionStateGenericStateIDLE)) &&
		facade.DefaultTerminalRule(state) == facade.Pending, nil
}

// ExportDashboardFile exports every dashboard page of a result into the
// workbook at path ([dashboard.Export]), creating its directory. The
// workbook is written beside path (.NAME.<digits>.partial) as each page is
// merged, synced and renamed into place once whole, so path holds a whole
// workbook or what it held before; a new workbook has mode 0644 (before the
// umask), as scm export writes. progress may be nil.
func ExportDashboardFile(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, path string, progress func(dashboard.Progress)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		return dashboard.Export(ctx, c, resultID, w, &dashboard.Options{Progress: progress})
	}, exportFileOptions)
}

// exportFileOptions are those of the exported workbooks.
var exportFileOptions = &atomicfile.Options{Perm: 0o644, Suffix: ".partial"}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
