package facade

// HasAPIKey reports whether the client sends an API key ([WithAPIKey]):
// without one, every call of a real server is refused. It never says what
// the key is.
func (c *Client) HasAPIKey() bool { return !c.cfg.key.empty() }

// Redact returns text with every spelling of the client's credentials
// replaced by a placeholder: the API key, the Authorization value, and the
// password of a proxy the requests go through, in any letter case, escaped
// as JSON or URLs escape them, or encoded in hex or base64, as the
// client's own errors and log lines are. It is for a program that prints
// what a server sent (a user's name, a message) beside those errors: a
// server may quote the key anywhere.
func (c *Client) Redact(text string) string { return c.creds().scrub(text) }
