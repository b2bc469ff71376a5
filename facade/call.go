package facade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/gen"
)

// call is one operation to send: its metadata, a builder that makes a fresh
// request for every attempt (so bodies are replayable), and the JSON body
// for debug logging.
type call struct {
	op      gen.Operation
	build   func(server string) (*http.Request, error)
	logBody any
	// readOnce: the body comes from a reader that can be read only once
	// (UploadReader). An attempt may have taken part of it before failing,
	// so the call is never tried again: a second attempt would send the
	// rest as if it were the whole.
	readOnce bool
}

func newCall(opID gen.OperationID, build func(server string) (*http.Request, error)) call {
	op, ok := gen.LookupSharedOperation(opID) // read only: no copy on every request
	if !ok {
		panic("facade: unknown operation " + string(opID))
	}
	return call{op: *op, build: build}
}

func (cl call) withBody(body any) call {
	cl.logBody = body
	return cl
}

// consumeFunc reads a successful response; the caller closes the body.
type consumeFunc func(resp *http.Response) error

// tries is the attempt budget of one call: its retry policy and the
// attempts made so far. A download that resumes spends the same budget.
type tries struct {
	policy   RetryPolicy
	attempts []Attempt
}

func (c *Client) newTries() *tries { return &tries{policy: c.cfg.retry.withDefaults()} }

// do sends the call with retries. With consume, the successful body is
// consumed inside the retry loop, read through Limits.MaxBodyBytes, so a
// body of a safe operation that stalls or breaks off is fetched again.
// Without consume, the successful response is returned open.
func (c *Client) do(ctx context.Context, cl call, consume consumeFunc) (*http.Response, error) {
	return c.send(ctx, cl, consume, c.newTries())
}

// send is do spending the budget t.
func (c *Client) send(ctx context.Context, cl call, consume consumeFunc, t *tries) (_ *http.Response, err error) {
	ctx = context.WithValue(ctx, operationKey{}, cl.op.ID)
	if c.cfg.observer != nil {
		var ob observing
		ctx, ob = c.startCall(ctx, cl)
		defer func() { ob.endCall(ctx, t, err) }()
	}
	for {
		n := len(t.attempts) + 1
		resp, a, secrets, err := c.attempt(ctx, cl, n)
		if err == nil && resp.StatusCode/100 == 2 {
			if consume == nil {
				return resp, nil
			}
			if err = c.consumeAndClose(cl, resp, consume); err == nil {
				return nil, nil
			}
			a.Err = errors.Unwrap(err) // the failure reading the body
		}
		t.attempts = append(t.attempts, a)
		failure := c.failure(cl, resp, err, t.attempts, secrets)
		delay, again := c.retryDelay(ctx, cl, t.policy, n, failure)
		if !again {
			return nil, failure
		}
		if cl.readOnce {
			return nil, fmt.Errorf("%w; not tried again: the upload comes from a reader (UploadReader), "+
				"which an attempt may have read part of; UploadFile is opened again for each attempt", failure)
		}
		c.observeRetry(ctx, cl, n, delay, failure)
		if err := c.retrySleep(ctx, delay, failure); err != nil {
			return nil, err
		}
		t.attempts[len(t.attempts)-1].Delay = delay
	}
}

// retrySleep waits delay before the next attempt of a call that failed
// with last. A wait that the context's deadline would cut is not begun,
// and a wait the context ends stops: both return last joined with the
// context's error, so errors.Is finds either.
func (c *Client) retrySleep(ctx context.Context, delay time.Duration, last error) error {
	if deadline, ok := ctx.Deadline(); ok && delay > 0 && c.realClock() && time.Until(deadline) < delay {
		return retryStopped(last, context.DeadlineExceeded)
	}
	if err := sleep(ctx, c.cfg.clock, delay); err != nil {
		return retryStopped(last, err)
	}
	return nil
}

// realClock reports whether the client waits on real time: only then can
// a wait be measured against the context's deadline, which is real time.
// On an injected clock the wait itself ends with the context.
func (c *Client) realClock() bool {
	_, real := c.cfg.clock.(clock.Real)
	return real
}

// retryStopped is the failure last of a call whose retry cause stopped.
func retryStopped(last, cause error) error {
	return fmt.Errorf("%w; gave up retrying: %w", last, cause)
}

// consumeAndClose hands the successful resp to consume, its body read
// through Limits.MaxBodyBytes, and closes it.
func (c *Client) consumeAndClose(cl call, resp *http.Response, consume consumeFunc) error {
	defer drainAndClose(resp.Body)
	resp.Body = c.cfg.limits.capBody(cl.op.ID, resp.Body)
	if err := consume(resp); err != nil {
		return &APIError{Operation: cl.op.ID, StatusCode: resp.StatusCode, RequestID: resp.Header.Get("X-Request-Id"),
			MayHaveBeenApplied: cl.op.ChangesState, Err: err}
	}
	return nil
}

// attempt sends one request. The attempt timeout bounds every wait on the
// server, not transfers that are moving (see watchdog); a returned body
// stays readable until closed. It also returns the values of the call's
// sensitive fields, which no error may quote.
func (c *Client) attempt(ctx context.Context, cl call, n int) (*http.Response, Attempt, *secretSet, error) {
	if err := ctx.Err(); err != nil {
		return nil, Attempt{Err: err}, nil, fmt.Errorf("%w: %w", errNotSent, err)
	}
	req, err := cl.build(c.baseURL)
	if err != nil {
		return nil, Attempt{Err: err}, nil, fmt.Errorf("%w: %w", errBuild, err)
	}
	secrets := c.secretsOf(cl, req).union(contextSecrets(ctx))
	expectContinue(req)
	actx, cancel := context.WithCancel(withSecretsContext(ctx, secrets)) // what reads the answer scrubs them
	actx = c.startAttempt(actx, cl, req, n)
	wire := &wireTrace{}
	req = req.WithContext(wire.with(actx))
	sending := req.Body != nil && req.Body != http.NoBody
	var dog *watchdog
	if c.cfg.attemptTimeout > 0 {
		dog = newWatchdog(c.cfg.watchClock, c.cfg.attemptTimeout, cancel, sending, cl.op.HeldOpen, wire)
		if sending {
			left := req.ContentLength
			if left <= 0 {
				left = -1
			}
			req.Body = &sendingBody{ReadCloser: req.Body, w: dog, left: left}
		}
	}
	start := time.Now()
	resp, err := c.hc.Do(req) // the client's transport keeps state-changing requests from being replayed
	resp, err = c.watchResponse(ctx, dog, cancel, resp, cutURL(err))
	err = wire.classify(err, sending)
	a := Attempt{Duration: time.Since(start), Err: err}
	if err == nil {
		a.Status = resp.StatusCode
		a.RetryAfter, _ = parseRetryAfter(resp.Header.Get("Retry-After"), answeredAt(resp))
	}
	c.logAttempt(ctx, cl, req, n, a, secrets)
	c.endAttempt(actx, cl, req, n, a)
	return resp, a, secrets, err
}

// expectContinue asks the server to accept a streamed body (an upload of
// unknown length) before it is sent (Expect: 100-continue, as curl does for
// large bodies): a server that refuses the request, or a port that speaks
// HTTPS to a plain-HTTP request, answers before the body, so its answer is
// read instead of a broken pipe. A server that ignores the header gets the
// body after the transport's ExpectContinueTimeout (1 s by default).
func expectContinue(req *http.Request) {
	if req.Body != nil && req.Body != http.NoBody && req.ContentLength <= 0 {
		req.Header.Set("Expect", "100-continue")
	}
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

// errNotSent marks a failure before the request left: nothing was applied.
var errNotSent = errors.New("not sent")

// failure turns a failed attempt into the error returned to the caller.
func (c *Client) failure(cl call, resp *http.Response, err error, attempts []Attempt, secrets *secretSet) error {
	var apiErr *APIError
	switch {
	case errors.As(err, &apiErr):
	case err != nil:
		return &RequestError{Operation: cl.op.ID, Attempts: attempts, Err: err, Hint: configHint(err, c.parsedBaseURL()),
			MayHaveBeenApplied: cl.op.ChangesState && mayHaveReachedServer(err), secrets: secrets}
	default:
		apiErr = newAPIError(cl.op.ID, resp)
		apiErr.underWay = c.refusedUnderWay(cl.op.ID, apiErr)
		apiErr.MayHaveBeenApplied = cl.op.ChangesState && apiErr.StatusCode >= 500 &&
			apiErr.StatusCode != http.StatusServiceUnavailable && apiErr.StatusCode != http.StatusNotImplemented &&
			!apiErr.refusedBeforeActing() && !apiErr.underWay
		apiErr.Hint = c.statusHint(apiErr)
	}
	apiErr.Attempts, apiErr.maxLen = attempts, c.cfg.limits.MaxReportedLen
	apiErr.withSecrets(secrets)
	return apiErr
}

// statusHint says what the SDK suspects is wrong with the configuration
// when the server answers with an error status.
func (c *Client) statusHint(e *APIError) string {
	switch {
	case plainHTTPToHTTPS(e.StatusCode, e.Body):
		return "the server speaks HTTPS on this port: use " + withScheme(c.parsedBaseURL(), "https") + " as the base URL"
	case e.StatusCode == http.StatusNotFound && !strings.HasSuffix(c.baseURL, versionPrefix+"/"):
		return fmt.Sprintf("the base URL %s does not end in %s, which the interface's paths are relative to", c.baseURL, versionPrefix)
	case e.deniedAccess():
		return "a server answers so also for an id that does not exist or that the user does not own: the id may be wrong"
	case e.underWay:
		return "the configuration has a run under way, not this start's: nothing was started; start again once it has ended (ExperimentsService.Activity)"
	}
	return ""
}

// parsedBaseURL is the base URL without its trailing slash, as a hint
// quotes it.
func (c *Client) parsedBaseURL() *url.URL {
	u, err := url.Parse(strings.TrimSuffix(c.baseURL, "/"))
	if err != nil {
		return nil
	}
	return u
}

// retryDelay decides whether a failed attempt n is retried, and after how
// long: by the policy's rules, then by its ShouldRetry hook where one is
// set and may be consulted. A state-changing call is retried only when its
// request never left.
func (c *Client) retryDelay(ctx context.Context, cl call, p RetryPolicy, n int, failure error) (time.Duration, bool) {
	if n >= p.MaxAttempts || ctx.Err() != nil {
		return 0, false
	}
	d, retry := c.policyDelay(cl, p, n, failure)
	if p.ShouldRetry == nil || !mayAsk(cl, p, failure) {
		return d, retry
	}
	if !p.ShouldRetry(RetryAttempt{Operation: string(cl.op.ID), Attempt: n, Err: failure, Retry: retry}) {
		return 0, false
	}
	if !retry {
		d = p.backoff(n)
		var apiErr *APIError
		if errors.As(failure, &apiErr) && apiErr.RetryAfter > 0 {
			d = apiErr.RetryAfter
		}
	}
	return d, true
}

// mayAsk reports whether the ShouldRetry hook may decide on a failure:
// never for a state-changing call whose request may have left, nor for a
// Retry-After past the policy's cap.
func mayAsk(cl call, p RetryPolicy, failure error) bool {
	var apiErr *APIError
	if errors.As(failure, &apiErr) {
		return !cl.op.ChangesState && apiErr.RetryAfter <= p.MaxRetryAfter
	}
	var reqErr *RequestError
	return errors.As(failure, &reqErr) && (!cl.op.ChangesState || neverSent(reqErr.Err))
}

// policyDelay is retryDelay by the policy's rules alone.
func (c *Client) policyDelay(cl call, p RetryPolicy, n int, failure error) (time.Duration, bool) {
	var apiErr *APIError
	if !errors.As(failure, &apiErr) {
		var reqErr *RequestError
		if !errors.As(failure, &reqErr) || !retryableTransport(reqErr.Err) || cl.op.ChangesState && !neverSent(reqErr.Err) {
			return 0, false
		}
		return p.backoff(n), true
	}
	if cl.op.ChangesState {
		return 0, false
	}
	if apiErr.Err != nil {
		return p.backoff(n), retryableBody(apiErr.Err)
	}
	if !p.retryableStatus(apiErr.StatusCode) || apiErr.refusedBeforeActing() || nullLookup(apiErr.Message) ||
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

// mayHaveReachedServer is false only when the request provably never left:
// it was not built, the connection was never made, its headers were never
// written whole (see wireTrace), or the client's
// configuration was refused before anything was sent (a TLS handshake that
// failed, a scheme that does not match the port, a key refused over http).
func mayHaveReachedServer(err error) bool {
	var cfg *configError
	return !errors.Is(err, errNotSent) && !neverSent(err) && !errors.As(err, &cfg) && configHint(err, nil) == ""
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
		return readBody(resp, func(body []byte) error {
			return c.decodeAnswer(requestContext(resp), cl.op, body, v)
		})
	}
}

// readBody reads the whole body of resp into a pooled buffer and hands it
// to use, which must not keep it: the buffer is reused once use returns.
func readBody(resp *http.Response, use func(body []byte) error) error {
	buf := bodyBuffers.Get().(*bytes.Buffer)
	defer recycle(buf)
	buf.Reset()
	if _, err := buf.ReadFrom(resp.Body); err != nil {
		return err
	}
	return use(buf.Bytes())
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
