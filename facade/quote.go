package facade

// redacted is text scrubbed of the tracker's secrets and the client's
// credentials, cut to MaxReportedLen.
func (t *tracker[S]) redacted(text string) string {
	var creds *secretSet
	if t.c.creds != nil {
		creds = t.c.creds()
	}
	return t.secrets.union(creds).scrubCut(text, t.c.cfg.limits.MaxReportedLen)
}
