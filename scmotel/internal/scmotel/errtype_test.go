package scmotel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scmodel/scmgo/facade"
)

func TestErrorTypeAndOutcome(t *testing.T) {
	for name, c := range map[string]struct {
		err       error
		errorType string
		outcome   string
	}{
		"a status":                {&facade.APIError{StatusCode: 503}, "503", OutcomeError},
		"a 2xx that broke off":    {&facade.APIError{StatusCode: 200, Err: io.ErrUnexpectedEOF}, "connection_closed", OutcomeError},
		"a 2xx that did not read": {&facade.APIError{StatusCode: 200, Err: errors.New("bad JSON")}, "invalid_answer", OutcomeError},
		"cancelled":               {&facade.RequestError{Err: context.Canceled}, "canceled", OutcomeCanceled},
		"retry cut by deadline": {fmt.Errorf("%w; gave up retrying: %w", &facade.APIError{StatusCode: 503}, context.DeadlineExceeded),
			"deadline_exceeded", OutcomeCanceled},
		"attempt timeout":    {&facade.RequestError{Err: fmt.Errorf("x: %w", facade.ErrTimeout)}, "attempt_timeout", OutcomeError},
		"refused":            {&facade.RequestError{Err: &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}}, "connection_refused", OutcomeError},
		"reset":              {&facade.RequestError{Err: syscall.ECONNRESET}, "connection_reset", OutcomeError},
		"no such host":       {&facade.RequestError{Err: &net.DNSError{Err: "no such host"}}, "dns", OutcomeError},
		"validation":         {&facade.ValidationError{}, "validation", OutcomeError},
		"max wait":           {fmt.Errorf("w: %w", facade.ErrTimeout), "max_wait", OutcomeError},
		"a run failed":       {&facade.StateError{Outcome: facade.Failed}, "failed", OutcomeError},
		"a missing field":    {&facade.MalformedError{}, "missing_field", OutcomeError},
		"a page cycle":       {&facade.MalformedError{Cycle: &facade.PageCycle{}}, "page_cycle", OutcomeError},
		"a run stopped":      {&facade.StateError{Outcome: facade.Stopped}, "stopped", OutcomeError},
		"a job cancelled":    {&facade.StateError{Outcome: facade.Cancelled}, "cancelled", OutcomeError},
		"anything else":      {errors.New("odd"), "_OTHER", OutcomeError},
		"a timeout of a net": {&net.OpError{Op: "read", Err: timeoutError{}}, "timeout", OutcomeError},
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, c.errorType, errorType(c.err))
			assert.Equal(t, c.outcome, outcome(c.err))
		})
	}
	assert.Equal(t, OutcomeSuccess, outcome(nil))
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }
