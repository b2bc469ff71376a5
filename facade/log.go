package facade

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
)

type discardHandler struct{}

func (discardHandler) Enabled(context.Context, slog.Level) bool  { return false }
func (discardHandler) Handle(context.Context, slog.Record) error { return nil }
func (d discardHandler) WithAttrs([]slog.Attr) slog.Handler      { return d }
func (d discardHandler) WithGroup(string) slog.Handler           { return d }

// logAttempt writes one debug line per attempt. Headers are never logged;
// a JSON request body is logged with its sensitive fields redacted.
func (c *Client) logAttempt(ctx context.Context, cl call, req *http.Request, n int, a Attempt) {
	if !c.cfg.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("operation", cl.op.ID),
		slog.String("method", req.Method),
		slog.String("path", req.URL.Path),
		slog.Int("status", a.Status),
		slog.Int("attempt", n),
		slog.Duration("duration", a.Duration),
	}
	if a.Err != nil {
		attrs = append(attrs, slog.String("error", a.Err.Error()))
	}
	if cl.logBody != nil {
		attrs = append(attrs, slog.String("body", redactedJSON(cl.logBody, sensitiveFields(cl))))
	}
	c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "scm call", attrs...)
}

func sensitiveFields(cl call) []string {
	if cl.op.Body == nil {
		return nil
	}
	return cl.op.Body.Sensitive
}

// redactedJSON renders v as JSON with the named top-level properties
// replaced by a placeholder.
func redactedJSON(v any, sensitive []string) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return "(unencodable)"
	}
	if len(sensitive) == 0 {
		return string(raw)
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return "(not an object)"
	}
	for _, name := range sensitive {
		if _, ok := m[name]; ok {
			m[name] = json.RawMessage(`"` + redacted + `"`)
		}
	}
	out, _ := json.Marshal(m)
	return string(out)
}
