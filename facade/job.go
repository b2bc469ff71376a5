package facade

import (
	"context"
	"errors"
	"iter"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// Job is an import or copy job, followed by polling getImportStatus. The
// asynchronous imports and [ScenariosService.Copy] return one; resume one
// from its jobId alone with [Client.Job]. A Job is safe for concurrent use.
type Job struct {
	JobID ids.JobID
	// Start is what the operation that started the job answered; zero for
	// a job resumed by id.
	Start gen.ApiImportResponse
	t     *tracker[jobState]
}

type jobState struct{ *gen.ApiImportScenarioStatus }

func (s jobState) stateValue() string { return string(s.Status) }
func (s jobState) progressValue() *float64 {
	if s.ApiImportScenarioStatus == nil {
		return nil
	}
	return s.Progress
}
func (s jobState) message() string {
	if s.ApiImportScenarioStatus == nil || s.Error == nil {
		return ""
	}
	return *s.Error
}
func (s jobState) details() []string { return nil }

// Job returns the import or copy job with this id, to poll or wait on. It
// sends nothing until polled. The job's messages never quote the client's
// API key.
func (c *Client) Job(jobID ids.JobID) *Job { return c.newJob(jobID, c.secretsOf(call{}, nil)) }

// newJob is the job jobID, whose messages never quote secrets: the values
// of the sensitive fields of the call that started it (a database
// password) and the client's credentials.
func (c *Client) newJob(jobID ids.JobID, secrets *secretSet) *Job {
	j := &Job{JobID: jobID}
	j.t = &tracker[jobState]{c: c, kind: "job", id: int64(jobID), rule: c.cfg.terminalRule, pollOp: gen.OpGetImportStatus,
		secrets: secrets, polled: &waitSettings{window: DefaultStaleWindow},
		poll: func(ctx context.Context) (jobState, error) {
			s, err := c.Imports.Status(ctx, jobID)
			if err == nil {
				err = c.listed(checkJobStatus(s))
				scrubJobStatus(s, secrets)
			}
			return jobState{s}, err
		},
		stop: func(ctx context.Context) error { return c.Imports.Cancel(ctx, jobID) }}
	return j
}

// startJob sends cl, which starts one job, and returns the job.
func (c *Client) startJob(ctx context.Context, cl call) (*Job, error) {
	resp, err := callPtr[gen.ApiImportResponse](ctx, c, cl)
	if err != nil {
		return nil, err
	}
	return c.jobFromResponse(cl, *resp)
}

// startJobs sends cl, which starts a job per item, and returns the jobs
// that started; when one did not, the others come with its error.
func (c *Client) startJobs(ctx context.Context, cl call) ([]*Job, error) {
	resps, err := callList[gen.ApiImportResponse](ctx, c, cl)
	if err != nil {
		return nil, err
	}
	jobs := make([]*Job, 0, len(resps))
	var errs []error
	for _, r := range resps {
		j, err := c.jobFromResponse(cl, r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		jobs = append(jobs, j)
	}
	return jobs, errors.Join(errs...)
}

// scrubJobStatus removes the secrets from a job status's texts: a failed
// import's message may quote the database password as it was sent, and
// so may a server's status value.
func scrubJobStatus(s *gen.ApiImportScenarioStatus, secrets *secretSet) {
	if s == nil {
		return
	}
	if s.Error != nil {
		*s.Error = secrets.scrub(*s.Error)
	}
	if scrubbed := secrets.scrub(string(s.Status)); scrubbed != string(s.Status) {
		s.Status = gen.ImportJobStatus(scrubbed)
	}
}

// checkJobStatus stops a wait on a job status that cannot say whether the
// job is over: one without its status.
func checkJobStatus(s *gen.ApiImportScenarioStatus) error {
	if s.Status != "" {
		return nil
	}
	return &MalformedError{Operation: string(gen.OpGetImportStatus), Model: "ApiImportScenarioStatus", Field: "status",
		Has: fieldsBut(presentFields(s), "status")}
}

// jobFromResponse is the job an answer of cl started: an answer whose
// error property says why the job could not start is a *StateError (ID 0,
// Operation the start's), and
// one without a jobId a *MalformedError. No Job has id 0.
func (c *Client) jobFromResponse(cl call, resp gen.ApiImportResponse) (*Job, error) {
	secrets := c.callSecrets(cl)
	if msg := deref(resp.Error); msg != "" {
		return nil, &StateError{Kind: "job", Operation: cl.op.ID, Outcome: Failed, Message: secrets.scrub(msg), maxLen: c.cfg.limits.MaxReportedLen}
	}
	if err := badID(cl.op.ID, "ApiImportResponse", "jobId", resp.JobId, false, fieldsBut(presentFields(resp), "jobId")); err != nil {
		return nil, c.listed(err)
	}
	j := c.newJob(resp.JobId, secrets)
	j.Start = resp
	return j, nil
}

// Poll sends one status request and returns the status.
func (j *Job) Poll(ctx context.Context) (*gen.ApiImportScenarioStatus, error) {
	s, err := j.t.pollOnce(ctx, j.t.polled)
	return s.ApiImportScenarioStatus, err
}

// Done reports whether the last status seen is terminal.
func (j *Job) Done() bool { return j.t.done() }

// State returns the last status seen, nil before the first poll.
func (j *Job) State() *gen.ApiImportScenarioStatus {
	s, _, _ := j.t.snapshot()
	return s.ApiImportScenarioStatus
}

// Result returns the final status, with a *StateError when the job did not
// finish well, or an error when it is not done yet.
func (j *Job) Result() (*gen.ApiImportScenarioStatus, error) {
	s, err := j.t.result()
	return s.ApiImportScenarioStatus, err
}

// Wait polls until the job ends or ctx does; see [PollPolicy]. The final
// status carries the scenario id once finished. opts may be nil.
func (j *Job) Wait(ctx context.Context, opts *WaitOptions) (*gen.ApiImportScenarioStatus, error) {
	s, err := j.t.wait(ctx, opts)
	return s.ApiImportScenarioStatus, err
}

// States yields each change of status or progress until the job ends, then
// the final status. opts may be nil.
func (j *Job) States(ctx context.Context, opts *WaitOptions) iter.Seq2[*gen.ApiImportScenarioStatus, error] {
	return func(yield func(*gen.ApiImportScenarioStatus, error) bool) {
		for s, err := range j.t.states(ctx, opts) {
			if !yield(s.ApiImportScenarioStatus, err) {
				return
			}
		}
	}
}

// ImportExcelAndWait imports a workbook as a new scenario and waits for the
// job to end, with needToImportExperiments=true unless importOpts says
// otherwise. A job that ends well without a scenarioId returns its status
// and a [*MalformedError]: the new scenario cannot be told by its name,
// which need not be unique. importOpts and waitOpts may be nil.
func (c *Client) ImportExcelAndWait(ctx context.Context, projectID ids.ProjectID, newScenarioName string, file Upload, importOpts *ImportOptions, waitOpts *WaitOptions) (*gen.ApiImportScenarioStatus, error) {
	job, err := c.Imports.Excel(ctx, projectID, newScenarioName, file, importOpts)
	if err != nil {
		return nil, err
	}
	return c.withScenario(job.Wait(ctx, waitOpts))
}

// withScenario turns a job that ended well without a scenarioId into a
// *MalformedError.
func (c *Client) withScenario(status *gen.ApiImportScenarioStatus, err error) (*gen.ApiImportScenarioStatus, error) {
	if err == nil {
		err = c.listed(badID(string(gen.OpGetImportStatus), "ApiImportScenarioStatus", "scenarioId", deref(status.ScenarioId), false, presentFields(status)))
	}
	return status, err
}

// CopyScenarioAndWait copies a scenario as newType and waits for the copy
// job to end. A job that ends well without a scenarioId returns its status
// and a [*MalformedError]: copies need not carry the name asked for.
// copyOpts and waitOpts may be nil.
func (c *Client) CopyScenarioAndWait(ctx context.Context, scenarioID ids.ScenarioID, newType gen.ScenarioType, copyOpts *NewScenarioOptions, waitOpts *WaitOptions) (*gen.ApiImportScenarioStatus, error) {
	job, err := c.Scenarios.Copy(ctx, scenarioID, newType, copyOpts)
	if err != nil {
		return nil, err
	}
	return c.withScenario(job.Wait(ctx, waitOpts))
}
