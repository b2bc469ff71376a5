package facade

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/scmodel/scmgo/internal/textcut"
	"github.com/scmodel/scmgo/limits"

	"github.com/scmodel/scmgo/gen"
)

// Sentinels for errors.Is: each is a decision a caller makes. The table
// of the package doc ("Errors") says which error matches which, and what to
// do. An [*APIError] matches the one of its status; a real server answers
// every error with 500, and the message of a 500 classes it further (see
// [APIError.Is]).
var (
	// ErrValidation: the input is wrong; fix it. Bad input found before
	// sending ([*ValidationError]: a field, a base URL that would carry the
	// key over plain http, a resume token this client cannot read, a Run
	// made from its rcId alone asked for its start or its result), or a
	// 400 answer.
	ErrValidation = errors.New("invalid input")
	// ErrUnauthorized: a 401; fix the API key.
	ErrUnauthorized = errors.New("unauthorized")
	// ErrForbidden: a 403, or a 500 saying access is denied, which a real
	// server also answers for an id the user does not own: check the
	// user's rights, or the id.
	ErrForbidden = errors.New("forbidden")
	// ErrNotFound: a 404, or a 500 naming an id the server has nothing
	// for; check the id.
	ErrNotFound = errors.New("not found")
	// ErrConflict: the server's state refuses the call (a 409, a variation
	// created while nothing is selected); change that state first.
	ErrConflict = errors.New("conflict")
	// ErrServer: the server failed (a 5xx its message does not class
	// otherwise, or a 429 past the retries or the Retry-After cap); try
	// again later.
	ErrServer = errors.New("server error")
	// ErrMayHaveBeenApplied: a state-changing call failed after its
	// request may have reached the server; check the server before sending
	// it again. It matches beside the error's other sentinel.
	ErrMayHaveBeenApplied = errors.New("the operation may have been applied")
	// ErrTimeout: a wait gave up, WaitOptions.MaxWait having passed, or an
	// attempt saw nothing move for the attempt timeout ([WithAttemptTimeout]:
	// then a [*RequestError], or an [*APIError] whose answer stalled); wait
	// longer, or raise the bound.
	ErrTimeout = errors.New("timed out")
	// ErrMalformed: the answer is not what the SDK needs to go on
	// ([*MalformedError]: a missing value, an id that cannot be one, pages
	// that cycle; or an [*APIError] whose 2xx body does not decode); report
	// it to the server's maintainers.
	ErrMalformed = errors.New("the answer is not what the SDK needs")
)

// errAttemptTimeout ends an attempt that saw nothing move for the attempt
// timeout; it matches ErrTimeout.
var errAttemptTimeout = fmt.Errorf("attempt %w", ErrTimeout)

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

// Is matches the one sentinel of the answer's status, as a real server
// words its 500s, and [ErrMayHaveBeenApplied] when MayHaveBeenApplied is
// set:
//   - [ErrRunUnderWay]: a start refused because a run is under way
//     ([WithRunUnderWayMessages]);
//   - [ErrValidation]: 400;
//   - [ErrUnauthorized]: 401;
//   - [ErrForbidden]: 403, and a 500 saying "Access is denied" (a real
//     server also answers so for an id the user does not own);
//   - [ErrNotFound]: 404, and a 500 saying "no such ..." (an unknown id)
//     or Java's text for an id it found nothing for, `Cannot invoke
//     "...getCharts()" because "dashboardPage" is null`;
//   - [ErrConflict]: 409;
//   - [ErrServer]: 429, and every other 5xx;
//   - [ErrMalformed]: a 2xx whose body does not decode (Err; a body that
//     broke off or stalled is not malformed: it matches what its failure
//     matches, such as [ErrTimeout]).
func (e *APIError) Is(target error) bool {
	if target == ErrMayHaveBeenApplied {
		return e.MayHaveBeenApplied
	}
	return target != nil && e.kind() == target
}

// kind is the sentinel the answer matches besides ErrMayHaveBeenApplied,
// nil for none.
func (e *APIError) kind() error {
	switch {
	case e.Err != nil:
		if retryableBody(e.Err) || errors.Is(e.Err, limits.ErrLimit) || errors.Is(e.Err, context.Canceled) || errors.Is(e.Err, context.DeadlineExceeded) {
			return nil
		}
		return ErrMalformed
	case e.underWay:
		return ErrRunUnderWay
	case e.StatusCode >= 500 && e.deniedAccess():
		return ErrForbidden
	case e.StatusCode >= 500 && (unknownID(e.Message) || nullLookup(e.Message)):
		return ErrNotFound
	case e.StatusCode >= 500 || e.StatusCode == http.StatusTooManyRequests:
		return ErrServer
	}
	return statusSentinel(e.StatusCode)
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
		return ErrValidation
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

// RequestError is a call that got no whole answer: the connection failed,
// was cut, or the context ended, or a download broke off and could not go
// on (Broken). For a state-changing operation whose request may have
// reached the server, MayHaveBeenApplied is set and errors.Is(err,
// ErrMayHaveBeenApplied) holds. A configuration the server refuses
// whatever the tries (a certificate that does not verify, https to a
// plain-HTTP port, a host that does not exist) is never retried, and Hint
// says what to change. It unwraps to the failure (an attempt that timed
// out matches [ErrTimeout]; a download's resume request that failed is
// that request's [*APIError]).
type RequestError struct {
	Operation          string
	Attempts           []Attempt
	MayHaveBeenApplied bool
	Err                error
	Hint               string // what to change in the configuration, "" when the failure is not one of it
	// Broken is set for a download that broke off and could not go on
	// ([Download]): how much of it reached the caller, and why the rest
	// could not be had.
	Broken *BrokenDownload

	secrets *secretSet // values of the call's sensitive fields: never quoted
}

// BrokenDownload is how far a download got before it broke off for good.
type BrokenDownload struct {
	Delivered int64  // bytes handed to the caller
	Size      int64  // the whole download's length, -1 when the server did not say
	Reason    string // why the download could not go on: the server does not take Range requests or gave no strong validator, it sent the whole workbook again, its 206 was not the rest asked for, the attempts ran out
}

func (e *RequestError) Error() string {
	if b := e.Broken; b != nil {
		return e.secrets.scrub(e.brokenText(b))
	}
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

// brokenText is the text of a download that broke off.
func (e *RequestError) brokenText(b *BrokenDownload) string {
	of := ""
	if b.Size >= 0 {
		of = fmt.Sprintf(" of %d", b.Size)
	}
	msg := fmt.Sprintf("facade: %s: the download broke off after %d%s bytes were delivered: %v", e.Operation, b.Delivered, of, e.Err)
	if b.Reason != "" {
		msg += "; " + b.Reason
	}
	if len(e.Attempts) > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", len(e.Attempts))
	}
	return msg
}

// Unwrap returns the transport or context error.
func (e *RequestError) Unwrap() error { return e.Err }

// Is reports ErrMayHaveBeenApplied when set.
func (e *RequestError) Is(target error) bool {
	return target == ErrMayHaveBeenApplied && e.MayHaveBeenApplied
}

// ValidationError is bad input found before any request was sent: a
// field of a call (Field names it), a base URL [New] refuses, a resume
// token this client cannot read, a [Run] asked what it cannot know. It
// matches ErrValidation.
type ValidationError struct {
	Operation string // camelCase operationId, or the function or method refused
	Field     string // the input at fault, "" when Reason names it
	Reason    string
}

func (e *ValidationError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("facade: %s: %s", e.Operation, e.Reason)
	}
	return fmt.Sprintf("facade: %s: %s: %s", e.Operation, e.Field, e.Reason)
}

// Is matches ErrValidation.
func (e *ValidationError) Is(target error) bool { return target == ErrValidation }
