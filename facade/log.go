package facade

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/scmodel/scmgo/internal/textcut"
)

type discardHandler struct{}

func (discardHandler) Enabled(context.Context, slog.Level) bool  { return false }
func (discardHandler) Handle(context.Context, slog.Record) error { return nil }
func (d discardHandler) WithAttrs([]slog.Attr) slog.Handler      { return d }
func (d discardHandler) WithGroup(string) slog.Handler           { return d }

// logAttempt writes one debug line per attempt. Headers are never logged;
// a JSON request body is logged with its sensitive fields redacted, and the
// values of those fields are scrubbed from the error, which is cut to
// Limits.MaxReportedLen.
func (c *Client) logAttempt(ctx context.Context, cl call, req *http.Request, n int, a Attempt, secrets *secretSet) {
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
		attrs = append(attrs, slog.String("error", textcut.Cut(secrets.scrub(a.Err.Error()), c.cfg.limits.MaxReportedLen)))
	}
	if cl.logBody != nil {
		attrs = append(attrs, slog.String("body", secrets.scrub(redactedJSON(cl.logBody, sensitiveFields(cl)))))
	}
	c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "scm call", attrs...)
}

func sensitiveFields(cl call) []string {
	if cl.op.Body == nil {
		return nil
	}
	return cl.op.Body.Sensitive
}
