package facade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/scmodel/scmgo/gen"
)

// call is one operation to send: its metadata, a builder that makes a fresh
// request for every attempt (so bodies are replayable), and the JSON body
// for debug logging.
type call struct {
	op      gen.Operation
	build   func(server string) (*http.Request, error)
	logBody any
}

func newCall(opID gen.OperationID, build func(server string) (*http.Request, error)) call {
	op, ok := gen.LookupOperation(opID)
	if !ok {
		panic("facade: unknown operation " + string(opID))
	}
	return call{op: op, build: build}
}

func (cl call) withBody(body any) call {
	cl.logBody = body
	return cl
}

// consumeFunc reads a successful response; the caller closes the body.
type consumeFunc func(resp *http.Response) error

// do sends the call with retries. With consume, the successful body is
// consumed inside the retry loop, so a truncated body of a safe operation is
// retried. Without consume, the successful response is returned open.
func (c *Client) do(ctx context.Context, cl call, consume consumeFunc) (*http.Response, error) {
	ctx = context.WithValue(ctx, operationKey{}, cl.op.ID)
	policy := c.cfg.retry.withDefaults()
	if cl.op.ChangesState {
		policy.MaxAttempts = 1
	}
	var attempts []Attempt
	for n := 1; ; n++ {
		resp, a, err := c.attempt(ctx, cl, n)
		if err == nil && resp.StatusCode/100 == 2 {
			if consume == nil {
				return resp, nil
			}
			err = consumeAndClose(cl, resp, consume)
			if err == nil {
				return nil, nil
			}
		}
		attempts = append(attempts, a)
		failure := c.failure(cl, resp, err, attempts)
		delay, again := c.retryDelay(ctx, policy, n, failure)
		if !again {
			return nil, failure
		}
		attempts[len(attempts)-1].Delay = delay
		if err := sleep(ctx, c.cfg.clock, delay); err != nil {
			return nil, &RequestError{Operation: cl.op.ID, Attempts: attempts, Err: err}
		}
	}
}

func consumeAndClose(cl call, resp *http.Response, consume consumeFunc) error {
	defer drainAndClose(resp.Body)
	if err := consume(resp); err != nil {
		return &APIError{Operation: cl.op.ID, StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id"),
			MayHaveBeenApplied: cl.op.ChangesState, Err: err}
	}
	return nil
}

// attempt sends one request. The attempt timeout bounds every wait on the
// server, not transfers that are moving (see watchdog); a returned body
// stays readable until closed.
func (c *Client) attempt(ctx context.Context, cl call, n int) (*http.Response, Attempt, error) {
	if err := ctx.Err(); err != nil {
		return nil, Attempt{Err: err}, fmt.Errorf("%w: %w", errNotSent, err)
	}
	req, err := cl.build(c.baseURL)
	if err != nil {
		return nil, Attempt{Err: err}, fmt.Errorf("%w: building the request: %w", errNotSent, err)
	}
	actx, cancel := context.WithCancel(ctx)
	req = req.WithContext(actx)
	var dog *watchdog
	if c.cfg.attemptTimeout > 0 {
		sending := req.Body != nil && req.Body != http.NoBody
		dog = newWatchdog(c.cfg.attemptTimeout, cancel, sending)
		if sending {
			req.Body = sendingBody{ReadCloser: req.Body, w: dog}
		}
	}
	if cl.op.ChangesState {
		makeNonReplayable(req)
	}
	start := time.Now()
	resp, err := c.hc.Do(req)
	resp, err = c.watchResponse(ctx, dog, cancel, resp, err)
	a := Attempt{Duration: time.Since(start), Err: err}
	if err == nil {
		a.Status = resp.StatusCode
		a.RetryAfter, _ = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	c.logAttempt(ctx, cl, req, n, a)
	return resp, a, err
}

// watchResponse hands the response body to the watchdog, or turns a failure
// the watchdog caused into an attempt timeout (a refused connection or the
// caller's cancellation is not one).
func (c *Client) watchResponse(ctx context.Context, dog *watchdog, cancel context.CancelFunc, resp *http.Response, err error) (*http.Response, error) {
	if dog == nil {
		if err != nil {
			cancel()
			return nil, err
		}
		resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
		return resp, nil
	}
	if dog.answered() && ctx.Err() == nil {
		if err == nil {
			resp.Body.Close() // its context is cancelled: the body cannot be read
		}
		cancel()
		return nil, dog.err(err)
	}
	if err != nil {
		dog.stop()
		cancel()
		return nil, err
	}
	resp.Body = &receivingBody{ReadCloser: resp.Body, w: dog, cancel: cancel}
	return resp, nil
}

var errAttemptTimeout = errors.New("attempt timed out")

// errNotSent marks a failure before the request left: nothing was applied.
var errNotSent = errors.New("not sent")

// failure turns a failed attempt into the error returned to the caller.
func (c *Client) failure(cl call, resp *http.Response, err error, attempts []Attempt) error {
	var apiErr *APIError
	switch {
	case errors.As(err, &apiErr):
	case isCertificateError(err):
		return &RequestError{Operation: cl.op.ID, Attempts: attempts, Err: fmt.Errorf("%w (%s)", err, tlsHint)}
	case err != nil:
		return &RequestError{Operation: cl.op.ID, Attempts: attempts, Err: err,
			MayHaveBeenApplied: cl.op.ChangesState && mayHaveReachedServer(err)}
	default:
		apiErr = newAPIError(cl.op.ID, resp)
		apiErr.MayHaveBeenApplied = cl.op.ChangesState && apiErr.StatusCode >= 500 && apiErr.StatusCode != http.StatusServiceUnavailable
		if apiErr.StatusCode == http.StatusNotFound && !strings.HasSuffix(c.baseURL, versionPrefix+"/") {
			apiErr.Hint = fmt.Sprintf("the base URL %s does not end in %s, which the interface's paths are relative to", c.baseURL, versionPrefix)
		}
	}
	apiErr.Attempts = attempts
	return apiErr
}

// retryDelay decides whether a failed attempt n is retried, and after how long.
func (c *Client) retryDelay(ctx context.Context, p RetryPolicy, n int, failure error) (time.Duration, bool) {
	if n >= p.MaxAttempts || ctx.Err() != nil {
		return 0, false
	}
	var apiErr *APIError
	if !errors.As(failure, &apiErr) {
		return p.backoff(n), !isTLSError(failure)
	}
	if apiErr.Err != nil {
		return p.backoff(n), isTransientBodyError(apiErr.Err)
	}
	if !retryableStatus(apiErr.StatusCode) || apiErr.deniedAccess() ||
		apiErr.StatusCode == http.StatusInternalServerError && statusCount(apiErr.Attempts, http.StatusInternalServerError) > 1 {
		return 0, false
	}
	if apiErr.RetryAfter > p.MaxRetryAfter {
		return 0, false
	}
	if apiErr.RetryAfter > 0 {
		return apiErr.RetryAfter, true
	}
	return p.backoff(n), true
}

// statusCount counts the attempts answered with status.
func statusCount(attempts []Attempt, status int) int {
	n := 0
	for _, a := range attempts {
		if a.Status == status {
			n++
		}
	}
	return n
}

func isTransientBodyError(err error) bool {
	var netErr net.Error
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &netErr) || strings.Contains(err.Error(), "connection reset")
}

// mayHaveReachedServer is false only when the connection was never made or
// its TLS handshake failed: no request was sent then.
func mayHaveReachedServer(err error) bool {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" || isTLSError(err) {
		return false
	}
	return !errors.Is(err, errNotSent)
}

// makeNonReplayable stops net/http from silently resending a request on a
// reused keep-alive connection that died before the response. net/http
// replays a request when its method is GET, HEAD, OPTIONS or TRACE (or it
// has an Idempotency-Key header) and its Body is nil, http.NoBody, or has a
// GetBody. A non-nil empty body without GetBody makes it non-replayable;
// the transport probes the empty body and sends no body bytes.
func makeNonReplayable(req *http.Request) {
	req.GetBody = nil
	req.Header.Del("Idempotency-Key")
	req.Header.Del("X-Idempotency-Key")
	if req.Body == nil || req.Body == http.NoBody {
		req.Body = io.NopCloser(strings.NewReader(""))
		req.ContentLength = 0
	}
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

func drainAndClose(body io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, body, 4<<10)
	body.Close()
}

func sleep(ctx context.Context, clock Clock, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-clock.After(d):
		return nil
	}
}

// decodeInto returns a consumeFunc that decodes the JSON answer of the
// call into v liberally, with the generated decoders: a difference from
// the spec is collected and logged (see Client.Drift), never an error; a
// malformed body is, with the byte offset where it stops being JSON.
func (c *Client) decodeInto(cl call, v any) consumeFunc {
	return func(resp *http.Response) error {
		buf := bodyBuffers.Get().(*bytes.Buffer)
		defer recycle(buf)
		buf.Reset()
		if _, err := buf.ReadFrom(resp.Body); err != nil {
			return err
		}
		return c.decodeAnswer(requestContext(resp), cl.op, buf.Bytes(), v)
	}
}

// requestContext is the context of the request resp answers.
func requestContext(resp *http.Response) context.Context {
	if resp.Request == nil {
		return context.Background()
	}
	return resp.Request.Context()
}

// callJSON sends the call and decodes its JSON response as T.
func callJSON[T any](ctx context.Context, c *Client, cl call) (T, error) {
	var v T
	_, err := c.do(ctx, cl, c.decodeInto(cl, &v))
	return v, err
}

// callPtr is callJSON returning a pointer, for model responses.
func callPtr[T any](ctx context.Context, c *Client, cl call) (*T, error) {
	v := new(T)
	if _, err := c.do(ctx, cl, c.decodeInto(cl, v)); err != nil {
		return nil, err
	}
	return v, nil
}

// callEmpty sends a call whose success has no body.
func callEmpty(ctx context.Context, c *Client, cl call) error {
	_, err := c.do(ctx, cl, func(*http.Response) error { return nil })
	return err
}
