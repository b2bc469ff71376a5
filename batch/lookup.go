package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/atomicfile"
)

// ErrOutcomeUnknown: a state-changing call may have been applied and what
// the server shows cannot tell whether it was. Nothing is sent again.
var ErrOutcomeUnknown = errors.New("outcome unknown")

// ErrBusy: another batch holds the state file.
var ErrBusy = errors.New("state file in use")

// ScenariosNamed returns the ids of the scenarios of a project that have
// exactly this name (getScenarios). Taken before an import, they tell the
// import's scenario from older ones: see [NewScenarioNamed].
func ScenariosNamed(ctx context.Context, c *facade.Client, projectID int64, name string) ([]int64, error) {
	list, err := c.Scenarios.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, s := range list {
		if s.Name != nil && *s.Name == name {
			ids = append(ids, s.Id)
		}
	}
	return ids, nil
}

// NewScenarioNamed looks for a scenario of a project with this name that is
// not one of known: the scenario an import created. A workbook import
// creates its scenario only when its job is done, so an import still under
// way is not found yet.
func NewScenarioNamed(ctx context.Context, c *facade.Client, projectID int64, name string, known []int64) (int64, bool, error) {
	ids, err := ScenariosNamed(ctx, c, projectID, name)
	if err != nil {
		return 0, false, err
	}
	for _, id := range slices.Backward(ids) {
		if !slices.Contains(known, id) {
			return id, true, nil
		}
	}
	return 0, false, nil
}

// FindExperiment returns the rcId of the scenario's experiment of a type
// (getExperiments); name picks one when the scenario has several of the
// type, and may be empty otherwise.
func FindExperiment(ctx context.Context, c *facade.Client, projectID, scenarioID int64, typ gen.ExperimentType, name string) (int64, error) {
	list, err := c.Experiments.List(ctx, projectID, scenarioID)
	if err != nil {
		return 0, err
	}
	var found []gen.ApiBasicRunConfiguration
	for _, e := range list {
		if e.Type == typ && (name == "" || e.Name == name) {
			found = append(found, e)
		}
	}
	switch {
	case len(found) == 1:
		return found[0].Id, nil
	case len(found) == 0 && name != "":
		return 0, fmt.Errorf("batch: scenario %d has no %s experiment named %q", scenarioID, typ, name)
	case len(found) == 0:
		return 0, fmt.Errorf("batch: scenario %d has no %s experiment", scenarioID, typ)
	}
	return 0, fmt.Errorf("batch: scenario %d has %d %s experiments: name one with experimentName", scenarioID, len(found), typ)
}

// runUnderWay reports whether the experiment rcID has a run under way
// (getExperimentStatus): a state that is neither terminal nor IDLE, a
// state never seen before included, as a wait would go on polling it.
func runUnderWay(ctx context.Context, c *facade.Client, rcID int64) (bool, error) {
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
func ExportDashboardFile(ctx context.Context, c *facade.Client, resultID int64, path string, progress func(dashboard.Progress)) error {
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
