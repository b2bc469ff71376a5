package facade

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/gen"
)

// Sentinels for errors.Is. An [*APIError] matches the one for its status;
// other error types document which they match. A real server answers every
// error with 500: ErrServer matches them all, and the message of a 500
// classes it further (see [APIError.Is]): ErrForbidden for a message that
// says access is denied, ErrNotFound for one that names an id the server
// found nothing for.
var (
	ErrBadRequest         = errors.New("bad request")
	ErrUnauthorized       = errors.New("unauthorized")
	ErrForbidden          = errors.New("forbidden")
	ErrNotFound           = errors.New("not found")
	ErrConflict           = errors.New("conflict")
	ErrRateLimited        = errors.New("rate limited")
	ErrServer             = errors.New("server error")
	ErrValidation         = errors.New("invalid input")
	ErrMayHaveBeenApplied = errors.New("the operation may have been applied")
	ErrNothingSelected    = errors.New("nothing is selected")
	// ErrStopFailed: a wait with StopOnCancel ended with its context, and
	// stopping the run (or cancelling the job) failed: the work may go on.
	ErrStopFailed = errors.New("stopping the work failed")
	// ErrAttemptTimeout: an attempt ended because nothing moved for the
	// attempt timeout (WithAttemptTimeout): no connection, no byte of the
	// request or of the answer. The error says which.
	ErrAttemptTimeout = errors.New("attempt timed out")
	// ErrPlainHTTP: New refused a base URL that would carry the API key
	// over plain http to a host other than this machine.
	ErrPlainHTTP = errors.New("refusing to send the API key over plain http")
)

// maxErrorBody bounds how much of an error response body is read.
const maxErrorBody = 64 << 10

// Attempt is one try of a call.
type Attempt struct {
	Status     int           // HTTP status, 0 when no response arrived
	Err        error         // transport error, or the failure reading a successful body; nil otherwise
	Duration   time.Duration // time until response headers or failure
	Delay      time.Duration // wait before the next attempt, 0 for the last
	RetryAfter time.Duration // Retry-After the server sent, 0 when none
}

// APIError is an HTTP response that was not a success, or a successful one
// whose body could not be decoded (then Err holds the decoding error and
// StatusCode the 2xx status). Its message text is not part of the contract:
// use the fields and errors.Is with the sentinels.
type APIError struct {
	Operation  string        // camelCase operationId
	StatusCode int           // HTTP status code
	RequestID  string        // from X-Request-Id or the body's requestId, if any
	Message    string        // the server's message, if the body had one
	Body       []byte        // the raw body, at most 64 KiB
	Detail     *gen.ApiError // the decoded body when it was JSON, else nil
	RetryAfter time.Duration // the Retry-After the server sent, 0 when none
	Attempts   []Attempt     // every attempt of a retried call
	// MayHaveBeenApplied is set for state-changing operations when the
	// status does not prove the server refused the request (5xx other than
	// 503).
	MayHaveBeenApplied bool
	Err                error  // the failure reading or decoding a 2xx body, else nil
	Hint               string // what the SDK suspects is wrong, e.g. a base URL without /api/v1

	secrets  *secretSet // values of the call's sensitive fields: never quoted
	maxLen   int        // Limits.MaxReportedLen of the client, 0 for the default
	underWay bool       // a start refused because a run is under way (ErrRunUnderWay)
}

// versionPrefix ends every base URL of the interface.
const versionPrefix = "/api/v1"

// Error puts the server's message first: for the real server it names what
// went wrong (a stale id answers 500 with the exception text naming what
// was null). The status, request id and attempts follow in parentheses.
// The message is cut at [Limits].MaxReportedLen bytes (Message has it
// whole), and no value of a sensitive field the call sent is quoted, even
// when the server's message quotes it.
func (e *APIError) Error() string {
	status := fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	head, notes := status, []string(nil)
	if e.Err != nil {
		head = status + ": decoding the response: " + e.Err.Error()
	} else if msg := strings.TrimPrefix(e.Message, e.Operation+": "); msg != "" {
		head, notes = textcut.Cut(msg, cmp.Or(e.maxLen, DefaultLimits().MaxReportedLen)), []string{status}
	}
	if e.RequestID != "" {
		notes = append(notes, "request id "+e.RequestID)
	}
	if len(e.Attempts) > 1 {
		notes = append(notes, fmt.Sprintf("after %d attempts", len(e.Attempts)))
	}
	msg := "facade: " + e.Operation + ": " + head
	if len(notes) > 0 {
		msg += " (" + strings.Join(notes, ", ") + ")"
	}
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	if e.MayHaveBeenApplied {
		msg += "; the operation may have been applied"
	}
	return e.secrets.scrub(msg)
}

// withSecrets keeps the values of the call's sensitive fields to scrub the
// error's text, and scrubs them from the body the server answered and what
// was decoded from it: servers quote a wrongly typed value in their
// message.
func (e *APIError) withSecrets(secrets *secretSet) {
	if secrets == nil {
		return
	}
	e.secrets = secrets
	e.RequestID = secrets.scrub(e.RequestID)
	if e.Err != nil {
		return // a 2xx answer: its body is the caller's data, not an error text
	}
	e.Body = secrets.scrubBytes(e.Body)
	e.Message, e.Detail = "", nil
	e.decodeBody()
	e.Message = secrets.scrub(e.Message)
	if d := e.Detail; d != nil {
		for _, p := range []*string{d.Message, d.Error, d.Path} {
			if p != nil {
				*p = secrets.scrub(*p)
			}
		}
	}
}

// Unwrap returns the decoding error, if any.
func (e *APIError) Unwrap() error { return e.Err }

// Is matches the sentinel of the status code, [ErrRunUnderWay] for a
// start refused because a run is under way ([WithRunUnderWayMessages]),
// and for a 500 the sentinel its message shows, as a real server words
// them:
//   - ErrForbidden: "Access is denied" (it also answers so for an id the
//     user does not own);
//   - ErrNotFound: "no such ..." (an unknown id), and Java's text for an
//     id it found nothing for, `Cannot invoke "...getCharts()" because
//     "dashboardPage" is null`.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrMayHaveBeenApplied:
		return e.MayHaveBeenApplied
	case ErrRunUnderWay:
		return e.underWay
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests || e.RetryAfter > 0 && e.StatusCode == http.StatusServiceUnavailable
	case ErrServer:
		return e.StatusCode >= 500
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden || e.deniedAccess()
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound || e.StatusCode >= 500 && (unknownID(e.Message) || nullLookup(e.Message))
	}
	return statusSentinel(e.StatusCode) == target && target != nil
}

// deniedAccess reports a server error whose message says access is denied:
// a real server answers a call the user may not make with 500 and the
// message "Access is denied".
func (e *APIError) deniedAccess() bool {
	msg := strings.ToLower(e.Message)
	return e.StatusCode >= 500 && (strings.Contains(msg, "access is denied") || strings.Contains(msg, "access denied"))
}

// unknownID reports a message that names an id the server has nothing
// for: "no such project", "rcId 7: no such running configuration".
func unknownID(msg string) bool { return strings.Contains(strings.ToLower(msg), "no such ") }

// nullLookup reports Java's text for a dereferenced null, which a real
// server answers for an id it found nothing for: ... because "run" is null.
func nullLookup(msg string) bool {
	return strings.Contains(msg, `because "`) && strings.HasSuffix(strings.TrimSpace(msg), `" is null`)
}

// refusedBeforeActing reports a 500 whose message shows that the server
// refused the call before acting on it, so that it was not applied:
//   - "Access is denied": the server's access check runs before the
//     operation (a real server answered it for a conversion the user may not
//     do, and for an id the user does not own);
//   - "no such ...": the lookup of an id named in the call found nothing,
//     and a call cannot act on what does not exist.
//
// Java's text for a dereferenced null is not counted: it may come from any
// point of the work, after a part of it was done.
func (e *APIError) refusedBeforeActing() bool {
	return e.StatusCode >= 500 && (e.deniedAccess() || unknownID(e.Message))
}

func statusSentinel(status int) error {
	switch status {
	case http.StatusBadRequest:
		return ErrBadRequest
	case http.StatusUnauthorized:
		return ErrUnauthorized
	case http.StatusForbidden:
		return ErrForbidden
	case http.StatusNotFound:
		return ErrNotFound
	case http.StatusConflict:
		return ErrConflict
	}
	return nil
}

// newAPIError reads a failed response's body through a size limit and
// closes it.
func newAPIError(op string, resp *http.Response) *APIError {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	e := &APIError{Operation: op, StatusCode: resp.StatusCode, Body: body, RequestID: resp.Header.Get("X-Request-Id")}
	e.RetryAfter, _ = parseRetryAfter(resp.Header.Get("Retry-After"), answeredAt(resp))
	e.decodeBody()
	return e
}

func (e *APIError) decodeBody() {
	trimmed := bytes.TrimSpace(e.Body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return
	}
	var d gen.ApiError
	if json.Unmarshal(trimmed, &d) != nil {
		return
	}
	e.Detail = &d
	if d.Message != nil {
		e.Message = *d.Message
	} else if d.Error != nil {
		e.Message = *d.Error
	}
	if e.RequestID == "" && d.RequestId != nil {
		e.RequestID = *d.RequestId
	}
}

// RequestError is a call that got no HTTP response: the connection failed,
// was cut, or the context ended. For a state-changing operation whose
// request may have reached the server, MayHaveBeenApplied is set and
// errors.Is(err, ErrMayHaveBeenApplied) holds. A configuration the server
// refuses whatever the tries (a certificate that does not verify, https to
// a plain-HTTP port, a host that does not exist) is never retried, and Hint
// says what to change.
type RequestError struct {
	Operation          string
	Attempts           []Attempt
	MayHaveBeenApplied bool
	Err                error
	Hint               string // what to change in the configuration, "" when the failure is not one of it

	secrets *secretSet // values of the call's sensitive fields: never quoted
}

func (e *RequestError) Error() string {
	msg := fmt.Sprintf("facade: %s: %v", e.Operation, e.Err)
	if len(e.Attempts) > 1 {
		msg += fmt.Sprintf(" after %d attempts", len(e.Attempts))
	}
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	if e.MayHaveBeenApplied {
		msg += "; the operation may have been applied"
	}
	return e.secrets.scrub(msg)
}

// Unwrap returns the transport or context error.
func (e *RequestError) Unwrap() error { return e.Err }

// Is reports ErrMayHaveBeenApplied when set.
func (e *RequestError) Is(target error) bool {
	return target == ErrMayHaveBeenApplied && e.MayHaveBeenApplied
}

// ValidationError is bad input found before any request was sent. It
// matches ErrValidation.
type ValidationError struct {
	Operation string
	Field     string
	Reason    string
}

func (e *ValidationError) Error() string {
	return fmt.Sprintf("facade: %s: %s: %s", e.Operation, e.Field, e.Reason)
}

// Is matches ErrValidation.
func (e *ValidationError) Is(target error) bool { return target == ErrValidation }
