package facade

import (
	"context"
	"log/slog"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/gendecode"
	"github.com/scmodel/scmgo/internal/logmsg"
)

// Drift returns how the server's answers have differed from the spec so
// far, sorted: fields the spec does not name, required fields missing or
// null, values of another JSON type, values outside an enumeration. Each
// is listed once per operation, model path and kind (a value outside an
// enumeration once per value, a value kept raw apart from one converted:
// drift.Finding.KeptRaw), and was logged once, at Warn, when first seen.
//
// None of them failed a call: answers are decoded liberally (see
// gen.DecodeAnswer), keeping what does not fit the models in their
// AdditionalProperties. Where the facade needs a value to go on (an id, a
// page's items) and the answer lacks it, the call fails with a
// [*MalformedError] instead. The findings have the form of specdiff
// probe's: what to change in the spec.
func (c *Client) Drift() []drift.Finding {
	if c.drift == nil {
		return nil
	}
	return c.drift.Findings()
}

// answerRoot names an operation's answer in the path of a finding about a
// value outside any model, as specdiff does.
func answerRoot(op gen.Operation) string {
	return op.ID + " " + op.Response.Status + " response"
}

// DriftDropped returns how many differences between answers and the spec
// were counted but neither kept nor logged, because the client held
// [Limits].MaxDriftFindings findings already (or one answer had more than
// that many). A difference that recurs past the bound counts each time.
// A Warn line said so once, when the first was dropped.
func (c *Client) DriftDropped() int {
	if c.drift == nil {
		return 0
	}
	return c.drift.Dropped()
}

// decodeOptions are the settings of the decoding of an answer of op:
// cancelled with ctx, its differences collected within the client's
// limits.
func (c *Client) decodeOptions(ctx context.Context, op gen.Operation) *gendecode.Options {
	l := c.cfg.limits
	return &gendecode.Options{Context: ctx, Root: answerRoot(op), Note: c.noteDrift(ctx, op),
		MaxFindings: l.MaxDriftFindings, MaxReportedLen: l.MaxReportedLen,
		Dropped: func(n int) { c.dropDrift(ctx, op, c.drift.Overflow(n)) }}
}

// noteDrift returns the function that takes the findings of an answer of
// op: each is collected within Limits.MaxDriftFindings, and logged at Warn
// when kept.
func (c *Client) noteDrift(ctx context.Context, op gen.Operation) func(drift.Finding) {
	return func(f drift.Finding) {
		f = scrubFinding(ctx, f)
		f.Operation = op.ID
		switch out := c.drift.Offer(f, c.cfg.limits.MaxDriftFindings); out {
		case drift.Kept:
			c.cfg.logger.LogAttrs(ctx, slog.LevelWarn, logmsg.Drift,
				slog.String("operation", f.Operation), slog.String("kind", f.Kind),
				slog.String("path", f.Path), slog.String("detail", f.Detail))
		default:
			c.dropDrift(ctx, op, out)
		}
	}
}

// dropDrift says once, at Warn, that differences are past the limit.
func (c *Client) dropDrift(ctx context.Context, op gen.Operation, out drift.Outcome) {
	if out != drift.FirstDropped {
		return
	}
	c.cfg.logger.LogAttrs(ctx, slog.LevelWarn, logmsg.DriftLimit, slog.String("operation", op.ID),
		slog.String("limit", "Limits.MaxDriftFindings"), slog.Int("max", c.cfg.limits.MaxDriftFindings),
		slog.String("then", "counted by Client.DriftDropped, neither kept nor logged"))
}

// decodeAnswer decodes the body of an answer of op into v with the
// generated decoders, collecting what differs from the spec; ctx stops it.
func (c *Client) decodeAnswer(ctx context.Context, op gen.Operation, body []byte, v any) error {
	return gendecode.DecodeAnswerWith(body, v, c.decodeOptions(ctx, op))
}
