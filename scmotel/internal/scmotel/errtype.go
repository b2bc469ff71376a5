package scmotel

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strconv"
	"syscall"

	"github.com/scmodel/scmgo/facade"
)

// outcome is scm.outcome of work that ended with err.
func outcome(err error) string {
	switch {
	case err == nil:
		return OutcomeSuccess
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return OutcomeCanceled
	}
	return OutcomeError
}

// errorType is error.type of a failure: a few words that keep the
// metrics' series few, never the error's text.
func errorType(err error) string {
	var apiErr *facade.APIError
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline_exceeded"
	case errors.As(err, &apiErr) && apiErr.Err == nil:
		return strconv.Itoa(apiErr.StatusCode)
	}
	if t := waitErrorType(err); t != "" {
		return t
	}
	return transportErrorType(err)
}

// waitErrorType is error.type of the end of a wait or of bad input, ""
// for other failures.
func waitErrorType(err error) string {
	var (
		malformed *facade.MalformedError
		state     *facade.StateError
	)
	switch {
	case errors.Is(err, facade.ErrValidation):
		return "validation"
	case errors.Is(err, facade.ErrTimeout) && !attemptError(err):
		return "max_wait"
	case errors.As(err, &state):
		return stateErrorType(state.Outcome)
	case errors.As(err, &malformed) && malformed.Cycle != nil:
		return "page_cycle"
	case errors.As(err, &malformed):
		return "missing_field"
	}
	return ""
}

// attemptError reports an error of an attempt (an attempt timeout is
// one), not of a wait.
func attemptError(err error) bool {
	return errors.As(err, new(*facade.RequestError)) || errors.As(err, new(*facade.APIError))
}

// stateErrorType is error.type of work that ended with outcome o.
func stateErrorType(o facade.Outcome) string {
	switch o {
	case facade.Stopped:
		return "stopped"
	case facade.Cancelled:
		return "cancelled"
	}
	return "failed"
}

// transportErrorType is error.type of a failure on the way to the server
// or back, _OTHER (the semantic conventions' fallback) when none fits.
func transportErrorType(err error) string {
	var (
		dnsErr  *net.DNSError
		netErr  net.Error
		tlsErr  tls.RecordHeaderError
		certErr *tls.CertificateVerificationError
		unknown x509.UnknownAuthorityError
	)
	switch {
	case errors.Is(err, facade.ErrTimeout):
		return "attempt_timeout"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection_refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "connection_reset"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection_closed"
	case errors.As(err, &dnsErr):
		return "dns"
	case errors.As(err, &tlsErr), errors.As(err, &certErr), errors.As(err, &unknown):
		return "tls"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	case errors.As(err, new(*facade.APIError)):
		return "invalid_answer" // a 2xx answer that could not be read or decoded
	}
	return "_OTHER"
}
