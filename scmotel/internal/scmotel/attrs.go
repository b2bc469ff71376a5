package scmotel

import (
	"github.com/scmodel/scmgo/internal/textcut"

	"go.opentelemetry.io/otel/attribute"
)

// Attribute keys of the SDK's own, beside the semantic conventions' ones.
const (
	KeyOperation          = attribute.Key("scm.operation")
	KeyChangesState       = attribute.Key("scm.operation.changes_state")
	KeyAttempts           = attribute.Key("scm.attempts")
	KeyAttempt            = attribute.Key("scm.attempt")
	KeyOutcome            = attribute.Key("scm.outcome")
	KeyRequestID          = attribute.Key("scm.request_id")
	KeyMayHaveBeenApplied = attribute.Key("scm.may_have_been_applied")
	KeyRetryDelay         = attribute.Key("scm.retry.delay") // seconds
	KeyRetryReason        = attribute.Key("scm.retry.reason")
	KeyWaitKind           = attribute.Key("scm.wait.kind")
	KeyWaitPolls          = attribute.Key("scm.wait.polls")
	KeyState              = attribute.Key("scm.state")
	KeyPreviousState      = attribute.Key("scm.state.previous")
	KeyPoll               = attribute.Key("scm.poll")
)

// Outcomes of a call, a wait or a step (scm.outcome).
const (
	OutcomeSuccess  = "success"
	OutcomeError    = "error"
	OutcomeCanceled = "canceled" // the caller's context ended it
)

// Span and event names beside the operationIds of the calls.
const (
	EventRetry = "retry"
	EventState = "state"
)

// maxValue is the most bytes of a value the server or the user chose
// (a state, a request id, a page's name) that an attribute keeps.
const maxValue = 128

// short cuts s to maxValue bytes on a rune boundary (textcut.Cut).
func short(s string) string { return textcut.Cut(s, maxValue) }
