package batch

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/internal/runshow"
)

// scenario gets the item's scenario: the existing one, or the one its
// import creates. An import whose job id is recorded is polled, never sent
// again.
func (w *worker) scenario(ctx context.Context) error {
	s := w.state()
	switch {
	case s.ScenarioID != 0:
		return nil
	case !w.it.Imports():
		return w.update(func(s *ItemState) { s.ScenarioID = w.it.Scenario })
	case s.JobID != 0:
		return w.waitJob(ctx, w.r.c.Job(s.JobID))
	case s.ImportSent:
		return w.reconcileImport(ctx, s)
	}
	return w.startImport(ctx)
}

// startImport records the scenarios that already have the new name and
// that the import is being sent, sends it, and records its job id.
func (w *worker) startImport(ctx context.Context) error {
	w.emit(StepImport, "UPLOADING", 0)
	known, err := w.r.c.Scenarios.Named(ctx, w.it.Project, w.it.ScenarioName)
	if err != nil {
		return err
	}
	if err := w.update(func(s *ItemState) { s.ImportSent, s.KnownScenarios = true, known }); err != nil {
		return err
	}
	opts := &facade.ImportOptions{Tables: w.it.Tables, ContainsFormulas: w.it.Formulas, SkipExperiments: !w.it.ImportExperiments}
	job, err := w.r.c.Imports.Excel(ctx, w.it.Project, w.it.ScenarioName, facade.UploadFile(w.it.WorkbookPath), opts)
	switch {
	case errors.Is(err, facade.ErrMayHaveBeenApplied):
		return w.reconcileImport(ctx, w.state())
	case err != nil:
		if uerr := w.update(func(s *ItemState) { s.ImportSent = false }); uerr != nil {
			return uerr
		}
		return err
	}
	if err := w.update(func(s *ItemState) { s.JobID = job.JobID }); err != nil {
		return err
	}
	return w.waitJob(ctx, job)
}

// reconcileImport settles an import that was sent without a job id being
// recorded: a scenario of the name that was not there before is its
// scenario. Otherwise the outcome is unknown (the job may still be
// running), and nothing is sent unless a retry allows importing again.
func (w *worker) reconcileImport(ctx context.Context, s ItemState) error {
	id, found, err := w.r.c.Scenarios.NewNamed(ctx, w.it.Project, w.it.ScenarioName, s.KnownScenarios)
	switch {
	case err != nil:
		return err
	case found:
		return w.update(func(s *ItemState) { s.ScenarioID = id })
	case w.reimport:
		w.reimport = false
		return w.startImport(ctx)
	}
	return &facade.StartUnknownError{Operation: "importExcel", Subject: w.it.Workbook,
		Reason: fmt.Sprintf("it may have reached the server, but project %d has no new scenario %q yet (its job may still be running)", w.it.Project, w.it.ScenarioName),
		Check:  fmt.Sprintf("the scenarios of project %d; a resumed batch looks again, and one that retries failed items imports again", w.it.Project)}
}

func (w *worker) waitJob(ctx context.Context, job *facade.Job) error {
	for st, err := range job.States(ctx, w.waitOptions()) {
		if err != nil {
			return w.waitEnded(ctx, err, func(s *ItemState) {
				s.CancelledJobs = append(s.CancelledJobs, job.JobID)
				s.ImportSent, s.KnownScenarios, s.JobID = false, nil, 0
			}, func(s *ItemState, state string) { s.JobStatus = state })
		}
		w.emit(StepImport, string(st.Status), deref(st.Progress))
	}
	final := job.Status()
	if final == nil || deref(final.ScenarioId) == 0 {
		return fmt.Errorf("import job %d ended without a scenarioId", job.JobID)
	}
	return w.update(func(s *ItemState) { s.JobStatus, s.ScenarioID = string(final.Status), *final.ScenarioId })
}

// startRun starts the item's run. What tells the new run from earlier ones
// (its resume token: the scenario's runs and the status before the start)
// is recorded, with the start marked as sent, before the start goes out; a
// start recorded as sent is settled by reconcileRun, never sent again on a
// guess.
func (w *worker) startRun(ctx context.Context) error {
	s := w.state()
	switch {
	case s.RunStarted:
		return nil
	case s.RunSent:
		return w.reconcileRun(ctx, s)
	}
	run, err := w.r.c.Experiments.Prepare(ctx, s.RcID, &facade.StartOptions{ScenarioID: s.ScenarioID, Type: w.it.Experiment})
	if err != nil {
		return err
	}
	token, err := run.ResumeToken()
	if err != nil {
		return err
	}
	if err := w.update(func(s *ItemState) { s.RunSent, s.RunToken, s.RunOrigin = true, token, nil }); err != nil {
		return err
	}
	w.emit(StepRun, "STARTING", 0)
	err = w.r.c.Experiments.StartPrepared(ctx, run, nil)
	switch {
	case errors.Is(err, facade.ErrMayHaveBeenApplied):
		return w.reconcileRun(ctx, w.state())
	case err != nil:
		if uerr := w.update(func(s *ItemState) { s.RunSent = false }); uerr != nil {
			return uerr
		}
		return err
	}
	return w.update(func(s *ItemState) { s.RunStarted = true })
}

// reconcileRun settles a start that was sent without its answer being
// recorded, from its resume token (facade.Run.Began, which waits out the
// status's lag after a start): began, and it is waited for; not begun, and
// it is sent again, once; unknown (facade.ErrStartUnknown), and the item is
// Unknown, with nothing sent, until a batch with RetryFailed. A start
// recorded without evidence (by an early version) is taken as begun only
// while the status shows a run under way, and is unknown otherwise.
func (w *worker) reconcileRun(ctx context.Context, s ItemState) error {
	var began bool
	var err error
	if s.hasRunEvidence() {
		var run *facade.Run
		if run, err = w.itemRun(s); err == nil {
			if weak := run.WeakEvidence(); weak != "" {
				w.emit(StepRun, "SETTLING the start, on evidence "+weak, 0)
			}
			began, err = run.Began(ctx, w.waitOptions())
		}
	} else {
		began, err = runUnderWay(ctx, w.r.c, s.RcID)
		if err == nil && !began {
			err = &facade.StartUnknownError{Operation: "runExperiment", Subject: fmt.Sprintf("rcId %d", s.RcID),
				Reason: "an early version of the batch sent it without recording what the status showed before", Check: "whether the experiment has a run newer than the item's start"}
		}
	}
	switch {
	case err != nil:
		return err
	case began:
		return w.update(func(s *ItemState) { s.RunStarted = true })
	}
	if err := w.update(func(s *ItemState) { s.RunSent = false }); err != nil {
		return err
	}
	if w.resent {
		return fmt.Errorf("runExperiment of rcId %d took no effect, twice", s.RcID)
	}
	w.resent = true
	return w.startRun(ctx)
}

// hasRunEvidence reports whether the state records what tells the item's
// run from earlier ones.
func (s *ItemState) hasRunEvidence() bool { return s.RunToken != "" || s.legacyOrigin() }

// legacyOrigin reports evidence an earlier release recorded (runOrigin).
func (s *ItemState) legacyOrigin() bool { return len(s.RunOrigin) > 0 && string(s.RunOrigin) != "null" }

// itemRun is the item's run, rebuilt from its recorded evidence so that its
// end and result are told apart from earlier runs'; from its rcId alone
// when none was recorded.
func (w *worker) itemRun(s ItemState) (*facade.Run, error) {
	switch {
	case s.RunToken != "":
		return w.r.c.ResumeRunFromToken(s.RunToken)
	case s.legacyOrigin():
		return w.r.c.ResumeRunFromToken(string(s.RunOrigin))
	}
	return w.r.c.Run(s.RcID), nil
}

func (w *worker) waitRun(ctx context.Context) error {
	s := w.state()
	if s.RunState != "" {
		return nil
	}
	run, err := w.itemRun(s)
	if err != nil {
		return err
	}
	for st, err := range run.States(ctx, w.waitOptions()) {
		if err != nil {
			return w.waitEnded(ctx, err, func(s *ItemState) {
				s.StoppedRuns = append(s.StoppedRuns, s.RcID)
				s.clearRun()
			}, func(s *ItemState, state string) { s.RunState = state })
		}
		w.emit(StepRun, run.Redacted(runshow.Waiting(st)), 0)
	}
	return w.update(func(s *ItemState) { s.RunState = string(facade.RunStateValue(run.State())) })
}

// export writes the item's dashboard workbook, unless it is written.
func (w *worker) export(ctx context.Context) error {
	s := w.state()
	if w.it.Dashboard == "" || slices.Contains(s.Outputs, w.it.Dashboard) {
		return nil
	}
	err := dashboard.ExportFile(ctx, w.r.c, s.ExperimentResultID, w.it.DashboardPath, &dashboard.Options{Progress: func(p dashboard.Progress) {
		done := 0.0
		switch {
		case p.Stage == dashboard.Written:
			done = 1
		case p.Size > 0:
			done = float64(p.Bytes) / float64(p.Size)
		}
		w.emit(StepExport, fmt.Sprintf("page %d/%d", p.Index, p.Total), (float64(p.Index-1)+min(done, 1))*100/float64(p.Total))
	}})
	if err != nil {
		return fmt.Errorf("exporting the dashboard of result %d to %s: %w", s.ExperimentResultID, w.it.Dashboard, err)
	}
	return w.update(func(s *ItemState) { s.Outputs = append(s.Outputs, w.it.Dashboard) })
}
