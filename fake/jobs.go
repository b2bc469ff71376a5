package fake

import (
	"context"
	"time"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// job is an import or copy job. Its state is a function of the clock: queued
// at the instant it starts, running with linear progress, then finished or
// failed once the import duration has passed, unless cancelled before. The
// scenario it makes or changes is written when the job is first seen
// finished, so it exists only once the job finished; a job whose finish
// makes no scenario (an Excel import without needToImportExperiments) ends
// DONE without a scenarioId.
type job struct {
	id         ids.JobID
	created    time.Time
	duration   time.Duration
	cancelled  *time.Time
	failure    string // why it fails; empty when it succeeds
	settled    bool
	scenarioID ids.ScenarioID // 0 when the job made or changed no scenario
	finish     func(w *world) (*scenario, error)
}

func (j *job) state(now time.Time) (gen.ImportJobStatus, float64) {
	if j.cancelled != nil {
		return gen.ImportJobStatusCANCELED, progress(j.cancelled.Sub(j.created), j.duration)
	}
	elapsed := now.Sub(j.created)
	switch {
	case elapsed >= j.duration && j.failure != "":
		return gen.ImportJobStatusFAILED, 100
	case elapsed >= j.duration:
		return gen.ImportJobStatusDONE, 100
	case elapsed <= 0:
		return gen.ImportJobStatusQUEUED, 0
	}
	return gen.ImportJobStatusRUNNING, progress(elapsed, j.duration)
}

func (j *job) active(now time.Time) bool {
	st, _ := j.state(now)
	return st == gen.ImportJobStatusQUEUED || st == gen.ImportJobStatusRUNNING
}

// startJob registers a job and settles it at once when jobs take no time.
func (w *world) startJob(now time.Time, failure string, finish func(w *world) (*scenario, error)) *job {
	j := &job{id: w.nextJob, created: now, duration: w.cfg.importDuration, failure: failure, finish: finish}
	w.nextJob++
	w.jobs[j.id] = j
	w.pending = append(w.pending, j)
	w.settleJobs(now)
	return j
}

// settleJobs writes the outcome of every job that ended by now, in job
// order. Jobs all take the import duration, so they end in the order they
// started: the pending queue is in end order, and settling stops at the
// first job still running.
func (w *world) settleJobs(now time.Time) {
	for len(w.pending) > 0 {
		j := w.pending[0]
		if !j.settled && j.active(now) {
			return
		}
		w.pending[0] = nil
		w.pending = w.pending[1:]
		if j.settled { // cancelled
			continue
		}
		j.settled = true
		if st, _ := j.state(now); st != gen.ImportJobStatusDONE {
			continue
		}
		sc, err := j.finish(w)
		if err != nil {
			j.failure = err.Error()
			continue
		}
		if sc != nil {
			j.scenarioID = sc.id
		}
	}
}

// response is what starting the job answers, as the real server does:
// {"error": null, "jobId": ...}.
func (j *job) response() gen.ApiImportResponse {
	return gen.ApiImportResponse{JobId: j.id}
}

func (s *service) GetImportStatus(_ context.Context, req genserver.GetImportStatusRequestObject) (genserver.GetImportStatusResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	j, ok := w.jobs[req.Params.JobId]
	if !ok {
		return nil, notFound("jobId %d: no such job", req.Params.JobId)
	}
	st, p := j.state(now)
	out := genserver.GetImportStatus200JSONResponse{JobId: ptr(j.id), Status: st, Progress: &p}
	switch st {
	case gen.ImportJobStatusDONE:
		if j.scenarioID != 0 {
			out.ScenarioId = ptr(j.scenarioID)
		}
	case gen.ImportJobStatusFAILED:
		out.Error = ptr(j.failure)
	case gen.ImportJobStatusCANCELED:
		out.Error = ptr("the job was cancelled")
	}
	return out, nil
}

// ImportCancel cancels a queued or running job; cancelling a job that already
// ended fails.
func (s *service) ImportCancel(_ context.Context, req genserver.ImportCancelRequestObject) (genserver.ImportCancelResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	if req.Body == nil {
		return nil, badRequest("request body: an ApiImportScenarioCancelRequest body is required")
	}
	j, ok := w.jobs[req.Body.JobId]
	if !ok {
		return nil, notFound("jobId %d: no such job", req.Body.JobId)
	}
	if !j.active(now) {
		st, _ := j.state(now)
		return nil, failure("jobId %d: the job is %s and can no longer be cancelled", j.id, st)
	}
	j.cancelled = ptr(now)
	j.settled = true
	return genserver.ImportCanceldefaultResponse{StatusCode: 200}, nil
}
