package scmtemporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
)

// importScenario (scm.ImportScenario) imports a workbook as a new
// scenario and returns its id, heartbeating the job id and progress. It
// sends importExcel at most once across its attempts:
//
//   - a retry whose earlier attempt heartbeated the job id polls that job;
//   - a retry that finds a mark (wire.SendMark) but no job id, unless the
//     attempt right before it failed knowing that nothing reached the
//     server, settles instead of importing: the scenario of the name not
//     among in.Known is the import's; when none shows within
//     Options.SettleWindow the item stops with a non-retryable
//     [ErrTypeStartUnknown] error that says what to check, or, with
//     Options.MaxJobLength declared and the workbook's experiments
//     imported, the import is settled as not taken once that has passed,
//     and the next attempt sends it (settleScenario);
//   - an import whose answer was lost (facade.ErrMayHaveBeenApplied) is
//     settled the same way at once.
func (a *Activities) importScenario(ctx context.Context, in wire.ImportInput) (ids.ScenarioID, error) {
	opts := &facade.ImportOptions{Tables: in.Tables, ContainsFormulas: in.Formulas, SkipExperiments: !in.ImportExperiments}
	return a.newScenario(ctx, scenarioJob{
		lost: facade.LostScenarioJob{Operation: string(gen.OpImportExcel), Subject: fmt.Sprintf("workbook %s as scenario %q", in.Workbook, in.ScenarioName),
			Project: in.ProjectID, Name: in.ScenarioName, Known: in.Known},
		opts:         in.Options,
		listedByName: in.ImportExperiments,
		send: func(ctx context.Context) (*facade.Job, error) {
			return a.Client.Imports.Excel(ctx, in.ProjectID, in.ScenarioName, facade.UploadFile(in.Workbook), opts)
		},
	})
}

// copyScenario (scm.CopyScenario) copies a scenario as a new scenario of
// in.Type named in.ScenarioName and returns its id, heartbeating the job id
// and progress; it sends copyScenario at most once across its attempts, as
// ImportScenario sends its import. A copy whose answer was lost is found by
// its name only where the server names copies as asked (a real server was
// seen to name them "null"): elsewhere it stops the item as unknown, and
// Options.MaxJobLength never has it sent again.
func (a *Activities) copyScenario(ctx context.Context, in wire.CopyInput) (ids.ScenarioID, error) {
	return a.newScenario(ctx, scenarioJob{
		lost: facade.LostScenarioJob{Operation: string(gen.OpCopyScenario), Subject: fmt.Sprintf("scenario %d as %s scenario %q", in.ScenarioID, in.Type, in.ScenarioName),
			Project: in.ProjectID, Name: in.ScenarioName, Known: in.Known},
		opts: in.Options,
		send: func(ctx context.Context) (*facade.Job, error) {
			return a.Client.Scenarios.Copy(ctx, in.ScenarioID, in.Type, &facade.NewScenarioOptions{Name: in.ScenarioName})
		},
	})
}

// scenarioJob is a job that makes a new scenario: an import or a copy,
// with what settles it by the new scenario's name when its answer is lost.
// listedByName: a job of this kind that took effect lists its scenario
// under the name asked, so that none listed once Options.MaxJobLength has
// passed means not taken.
type scenarioJob struct {
	lost         facade.LostScenarioJob
	opts         wire.Options
	listedByName bool
	send         func(context.Context) (*facade.Job, error)
}

// maxJobLength is the declared bound that settles the job as not taken:
// zero where none is declared, or where a job that took effect could go
// unlisted under its name.
func (sj scenarioJob) maxJobLength() time.Duration {
	if !sj.listedByName {
		return 0
	}
	return sj.opts.MaxJobLength
}

func (a *Activities) newScenario(ctx context.Context, sj scenarioJob) (ids.ScenarioID, error) {
	beat := newBeater(ctx)
	defer beat.stop()
	var prev wire.JobProgress
	had := details(ctx, &prev)
	if prev.JobID != 0 {
		return a.waitScenarioJob(ctx, beat, prev, sj.opts)
	}
	mark := a.marked(prev.SendMark)
	if a.mayHaveSent(ctx, had, prev.SendMark) && !notSentBefore(ctx, prev.NotSentBy) {
		return a.settleScenario(ctx, beat, sj, wire.JobProgress{SendMark: mark, SettlingSince: prev.SettlingSince})
	}
	job, err := a.sendScenarioJob(ctx, beat, sj, mark)
	switch {
	case errors.Is(err, facade.ErrMayHaveBeenApplied):
		return a.settleScenario(ctx, beat, sj, wire.JobProgress{SendMark: mark})
	case err != nil:
		return 0, err
	}
	return a.waitScenarioJob(ctx, beat, wire.JobProgress{SendMark: mark, JobID: job.JobID}, sj.opts)
}

// sendScenarioJob sends the job. On a worker it marks first (the
// attempt's first heartbeat, confirmed through the worker's client), and
// has the job id confirmed once answered; elsewhere the job id is the
// attempt's first heartbeat (waitScenarioJob's), which the SDK sends at
// once. A failure that knows the job did not reach the server says so in
// the attempt's last heartbeat. Every heartbeat goes through the attempt's
// beater: the mark's goes out beside the send, and a heartbeat recorded
// past the beater could come after the failure's and hide it.
func (a *Activities) sendScenarioJob(ctx context.Context, beat *beater, sj scenarioJob, mark wire.SendMark) (*facade.Job, error) {
	if a.confirm {
		// Confirmed before any heartbeat of the attempt carries it, so an
		// attempt that dies before this point leaves no mark.
		hb := wire.JobProgress{SendMark: mark}
		if err := a.confirmMark(ctx, hb); err != nil {
			return nil, err
		}
		beat.setBeside(hb) // only the send follows the confirmation
	}
	job, err := sj.send(ctx)
	switch {
	case errors.Is(err, facade.ErrMayHaveBeenApplied):
		return nil, err
	case err != nil:
		if ctx.Err() == nil {
			beat.set(wire.JobProgress{SendMark: wire.SendMark{Marked: true}, NotSentBy: activity.GetInfo(ctx).Attempt}) // sent with the failure
		}
		return nil, classify(err)
	}
	if a.confirm {
		hb := wire.JobProgress{SendMark: mark, JobID: job.JobID}
		beat.set(hb)
		_ = a.confirmMark(ctx, hb) // unconfirmed, a retry settles by name: slower, as safe
	}
	return job, nil
}

// waitScenarioJob polls the job, heartbeating its id first, and returns the
// scenario it made.
func (a *Activities) waitScenarioJob(ctx context.Context, beat *beater, hb wire.JobProgress, opts wire.Options) (ids.ScenarioID, error) {
	beat.set(hb)
	job := a.Client.Job(hb.JobID)
	for st, err := range job.States(ctx, opts.WaitOptions()) {
		if err != nil {
			return 0, classify(err)
		}
		hb.Status, hb.Progress = string(st.Status), deref(st.Progress)
		beat.set(hb)
	}
	final := deref(job.State())
	if deref(final.ScenarioId) == 0 {
		return 0, temporal.NewNonRetryableApplicationError(fmt.Sprintf("job %d ended without a scenarioId", hb.JobID), ErrTypeNoScenario, nil)
	}
	return *final.ScenarioId, nil
}

// settleScenario settles a job that may have been sent without its answer
// being seen: the scenario of the name that is not among the known ones is
// its scenario. A job makes its scenario only once it is done, so it looks
// for one, heartbeating, until its window ends (settleEnd): the first
// attempt that settled began it (hb.SettlingSince; zero: this one), and
// its heartbeat carries it to every later one, with the mark. Any send of
// an earlier attempt came before it.
func (a *Activities) settleScenario(ctx context.Context, beat *beater, sj scenarioJob, hb wire.JobProgress) (ids.ScenarioID, error) {
	if hb.SettlingSince.IsZero() {
		hb.SettlingSince = a.now()
	}
	hb.Status = "SETTLING"
	beat.set(hb)
	deadline := hb.SettlingSince.Add(settleBound(sj))
	pause := settlePause(sj.opts)
	for {
		id, err := a.Client.Scenarios.SettleByName(ctx, sj.lost)
		var unknown *facade.StartUnknownError
		switch {
		case err == nil:
			return id, nil
		case !errors.As(err, &unknown):
			return 0, classify(err)
		case !a.now().Before(deadline):
			return 0, settleEnd(ctx, beat, sj, unknown)
		}
		if err := a.sleep(ctx, min(pause, a.now().Sub(deadline).Abs())); err != nil {
			return 0, err
		}
	}
}

// settleBound is how long a settling looks for the job's scenario: its
// declared MaxJobLength, else the settle window.
func settleBound(sj scenarioJob) time.Duration {
	if d := sj.maxJobLength(); d > 0 {
		return d
	}
	return settleWindow(sj.opts)
}

// settleEnd ends a settling that found no scenario of the job. Without a
// declared MaxJobLength the outcome is unknown: the item stops, and the job
// is never sent again. With it, no job sent before the settling began can
// still be unlisted: the job was not taken. The attempt fails saying so in
// its last heartbeat (NotSentBy, as a send that did not leave), so that
// the next attempt, and only it, sends the job with a fresh mark; a retry
// of that one settles anew. An attempt that dies before its failure is
// recorded leaves its settling heartbeat, and its retry decides again:
// nothing was sent since.
func settleEnd(ctx context.Context, beat *beater, sj scenarioJob, unknown *facade.StartUnknownError) error {
	d := sj.maxJobLength()
	if d <= 0 {
		unknown.Reason = fmt.Sprintf("after a settle window of %v, %s", settleWindow(sj.opts), unknown.Reason)
		return classify(unknown)
	}
	beat.set(wire.JobProgress{SendMark: wire.SendMark{Marked: true}, NotSentBy: activity.GetInfo(ctx).Attempt})
	return fmt.Errorf("scmtemporal: %s of %s: project %d lists no new scenario %q %v (Options.MaxJobLength) after settling began: it did not take effect, and the next attempt sends it",
		unknown.Operation, unknown.Subject, sj.lost.Project, sj.lost.Name, d)
}

// settlePause is the pause between two looks for a settled scenario.
func settlePause(o wire.Options) time.Duration {
	if o.Poll != nil && o.Poll.MinInterval > 0 {
		return max(o.Poll.MinInterval, time.Second)
	}
	return 5 * time.Second
}

// settleWindow is the settle window of the options: DefaultSettleWindow
// when they set none.
func settleWindow(o wire.Options) time.Duration {
	if o.SettleWindow > 0 {
		return o.SettleWindow
	}
	return DefaultSettleWindow
}
