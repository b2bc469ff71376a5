package facade

// Redacted returns text, a value the server sent about this run (its
// state, its message), as the SDK quotes such values in errors and logs:
// without the client's key and the secrets of the run's calls, in any
// spelling, and cut to [Limits].MaxReportedLen bytes. Print what the
// server sent through it.
func (r *Run) Redacted(text string) string { return r.t.redacted(text) }

// Redacted returns text, a value the server sent about this job (its
// status, its error), as the SDK quotes such values in errors and logs:
// without the client's key and the secrets the job's start sent (a
// database password), in any spelling, and cut to
// [Limits].MaxReportedLen bytes. Print what the server sent through it.
func (j *Job) Redacted(text string) string { return j.t.redacted(text) }

// redacted is text scrubbed of the tracker's secrets and the client's
// credentials, cut to MaxReportedLen.
func (t *tracker[S]) redacted(text string) string {
	var creds *secretSet
	if t.c.creds != nil {
		creds = t.c.creds()
	}
	return t.secrets.union(creds).scrubCut(text, t.c.cfg.limits.MaxReportedLen)
}
