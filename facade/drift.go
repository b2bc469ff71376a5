package facade

import (
	"context"
	"log/slog"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/gen"
)

// DriftLogMessage is the message of the Warn line logged once for each
// difference between an answer and the spec, so that a log handler can
// tell those lines apart.
const DriftLogMessage = "scm answer differs from the spec"

// Drift returns how the server's answers have differed from the spec so
// far, sorted: fields the spec does not name, required fields missing or
// null, values of another JSON type, values outside an enumeration. Each
// is listed once per operation, model path and kind (a value outside an
// enumeration once per value), and was logged once,
// at Warn, when first seen.
//
// None of them failed a call: answers are decoded liberally (see
// gen.DecodeAnswer), keeping what does not fit the models in their
// AdditionalProperties. Where the facade needs a value to go on (an id, a
// page's items) and the answer lacks it, the call fails with a
// [*MissingFieldError] instead. The findings have the form of specdiff
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

// noteDrift returns the function that takes the findings of an answer of
// op: each is collected, and logged at Warn when new.
func (c *Client) noteDrift(ctx context.Context, op gen.Operation) func(drift.Finding) {
	return func(f drift.Finding) {
		f = scrubFinding(ctx, f)
		f.Operation = op.ID
		if c.drift == nil || !c.drift.Add(f) {
			return
		}
		c.cfg.logger.LogAttrs(ctx, slog.LevelWarn, DriftLogMessage,
			slog.String("operation", f.Operation), slog.String("kind", f.Kind),
			slog.String("path", f.Path), slog.String("detail", f.Detail))
	}
}

// decodeAnswer decodes the body of an answer of op into v with the
// generated decoders, collecting what differs from the spec.
func (c *Client) decodeAnswer(ctx context.Context, op gen.Operation, body []byte, v any) error {
	return gen.DecodeAnswer(body, v, answerRoot(op), c.noteDrift(ctx, op))
}
