package batch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
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
// scenario (facade's SettleByName). Otherwise the outcome is unknown (the
// job may still be running), and nothing is sent unless a retry allows
// importing again.
func (w *worker) reconcileImport(ctx context.Context, s ItemState) error {
	id, err := w.r.c.Scenarios.SettleByName(ctx, facade.LostScenarioJob{Operation: string(gen.OpImportExcel), Subject: w.it.Workbook,
		Project: w.it.Project, Name: w.it.ScenarioName, Known: s.KnownScenarios})
	var unknown *facade.StartUnknownError
	switch {
	case err == nil:
		return w.update(func(s *ItemState) { s.ScenarioID = id })
	case !errors.As(err, &unknown):
		return err
	case w.reimport:
		w.reimport = false
		return w.startImport(ctx)
	}
	unknown.Check += "; a resumed batch looks again, and one that retries failed items imports again"
	return unknown
}

func (w *worker) waitJob(ctx context.Context, job *facade.Job) error {
	for st, err := range job.States(ctx, w.waitOptions()) {
		if err != nil {
			return w.waitEnded(ctx, err, func(s *ItemState) {
				s.CancelledJobs = append(s.CancelledJobs, job.JobID)
				s.ImportSent, s.KnownScenarios, s.JobID = false, nil, 0
			}, func(s *ItemState, state string) { s.JobStatus = state })
		}
		if st.Progress == nil {
			w.emitState(StepImport, string(st.Status), time.Time{})
			continue
		}
		w.emit(StepImport, string(st.Status), *st.Progress)
	}
	final := job.State()
	if final == nil || deref(final.ScenarioId) == 0 {
		return fmt.Errorf("import job %d ended without a scenarioId", job.JobID)
	}
	return w.update(func(s *ItemState) { s.JobStatus, s.ScenarioID = string(final.Status), *final.ScenarioId })
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

// waitRun waits for the item's run to end, unless its end is recorded,
// and records that end with the run's resume token, which carries the
// decision (facade.Run.ResumeToken): a resumed batch reads the result
// without deciding again.
func (w *worker) waitRun(ctx context.Context) error {
	s := w.state()
	if s.RunState != "" {
		return nil
	}
	run, err := w.itemRun(s)
	if err != nil {
		return err
	}
	return w.decide(ctx, run)
}

// decide waits until the wait decides the run's end, showing its states,
// and records the end and the run's token.
func (w *worker) decide(ctx context.Context, run *facade.Run) error {
	since, redactor := runStart(w.state()), w.r.c.Redactor()
	for st, err := range run.States(ctx, w.waitOptions()) {
		if err != nil {
			return w.waitEnded(ctx, err, func(s *ItemState) {
				s.StoppedRuns = append(s.StoppedRuns, s.RcID)
				s.clearRun()
			}, func(s *ItemState, state string) { s.RunState = state; w.keepToken(s, run) })
		}
		if p, ok := runshow.Progress(st); ok {
			w.r.emit(Event{Item: w.it.Name, Step: StepRun, Status: Running, State: redactor.Quote(runshow.Waiting(st)), Percent: p, Measured: true, Since: since})
			continue
		}
		w.emitState(StepRun, redactor.Quote(runshow.Waiting(st)), since)
	}
	return w.update(func(s *ItemState) {
		s.RunState = string(facade.RunStateValue(run.State()))
		w.keepToken(s, run)
	})
}

// keepToken records the run's token as it is now: once the wait decided,
// it carries the decided end and entry (the evidence of an earlier
// release, runOrigin, becomes a token too).
func (w *worker) keepToken(s *ItemState, run *facade.Run) {
	if token, err := run.ResumeToken(); err == nil {
		s.RunToken, s.RunOrigin = token, nil
	}
}

// runStart is when the item's run was started, as its token records it;
// zero when it records none.
func runStart(s ItemState) time.Time {
	for _, tok := range s.tokens() {
		if subject, err := facade.TokenSubject(tok.value); err == nil {
			return subject.Started
		}
	}
	return time.Time{}
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
