package facade

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// finalAttempt checks a call that failed on the client's configuration:
// one attempt, not applied, and a hint.
func finalAttempt(t *testing.T, err error) *RequestError {
	t.Helper()
	var reqErr *RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.Len(t, reqErr.Attempts, 1, "not retried")
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	return reqErr
}

// A certificate for other names is not cured by trusting its CA, which is
// trusted already: the hint names the host asked for and the names the
// certificate has.
func TestCertificateForAnotherName(t *testing.T) {
	srv, requests := tlsFake(t)
	wrongName := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/api/v1"
	c := newTestClient(t, wrongName, WithCACertFile(caFile(t, srv)), WithClock(faketest.NewInstantClock()))
	_, err := c.Scenarios.Copy(testCtx(t), 101, "GFA", nil)
	reqErr := finalAttempt(t, err)
	assert.Contains(t, reqErr.Hint, "the server's certificate is for example.com, *.example.com, 127.0.0.1, ::1, not localhost")
	assert.Contains(t, reqErr.Hint, "use one of its names in the base URL")
	assert.NotContains(t, err.Error(), "WithCACertFile", "its CA is trusted already")
	assert.Zero(t, requests.Load())
}

// A server that refuses the TLS handshake (here, for want of a client
// certificate) refuses it again: not retried, and the hint says what it may
// want.
func TestHandshakeRefusedByTheServer(t *testing.T) {
	srv := httptest.NewUnstartedServer(fake.NewHandler(fake.WithAPIKeys(testKey)))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	srv.Config.ErrorLog = discardLog()
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL+"/api/v1", WithCACertFile(caFile(t, srv)), WithClock(faketest.NewInstantClock()))
	_, err := c.User.Current(testCtx(t))
	reqErr := finalAttempt(t, err)
	assert.Contains(t, reqErr.Hint, "client certificate")
}

// A state-changing call whose TLS handshake the server refuses was not
// applied, though its request is written (as a rule): under TLS 1.3 the
// client's side of the handshake ends before the server has checked the
// client's certificate, so the request goes out before the refusal comes
// back. The refusal, not how far the request got, says that nothing
// reached the server's handler.
func TestHandshakeRefusalIsNotApplied(t *testing.T) {
	var handled atomic.Int32
	h := fake.NewHandler(fake.WithAPIKeys(testKey), fake.WithLicense())
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handled.Add(1)
		h.ServeHTTP(w, r)
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert, MinVersion: tls.VersionTLS13}
	srv.Config.ErrorLog = discardLog()
	srv.Listener = lingerListener{srv.Listener}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL+"/api/v1", WithCACertFile(caFile(t, srv)), WithClock(faketest.NewInstantClock()))
	_, err := c.Scenarios.Copy(testCtx(t), 101, "GFA", nil)
	reqErr := finalAttempt(t, err)
	assert.Contains(t, reqErr.Hint, "client certificate")
	assert.Zero(t, handled.Load(), "no request reached the handler")
}

// lingerListener's connections linger when the server closes them, as a
// server's that sets SO_LINGER does: they stop sending, then wait for the
// client to close its side. So what the server sent last, a TLS alert,
// reaches the client, where an abortive close would have it lost to a
// reset whenever the client's request is still arriving.
type lingerListener struct{ net.Listener }

func (l lingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return lingerConn{c}, nil
}

type lingerConn struct{ net.Conn }

func (c lingerConn) Close() error {
	if tc, ok := c.Conn.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
		_ = tc.SetReadDeadline(time.Now().Add(10 * time.Second)) // a bound, should the client never close
		_, _ = io.Copy(io.Discard, tc)
	}
	return c.Conn.Close()
}

// A host that does not exist is not looked up again.
func TestUnknownHost(t *testing.T) {
	var dials atomic.Int32
	tr := defaultTransport().(*http.Transport)
	tr.DialContext = func(_ context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: "scm.invalid", IsNotFound: true}}
	}
	c := newTestClient(t, "https://scm.invalid/api/v1", WithHTTPClient(&http.Client{Transport: tr}), WithClock(faketest.NewInstantClock()))
	_, err := c.User.Current(testCtx(t))
	reqErr := finalAttempt(t, err)
	assert.Contains(t, reqErr.Hint, "no host is named scm.invalid")
	assert.EqualValues(t, 1, dials.Load())
}

// A request that could not be built was never sent, and building it again
// fails again.
func TestRequestThatCannotBeBuilt(t *testing.T) {
	srv, c := newFake(t)
	broken := errors.New("the body's source is gone")
	_, err := c.Call(testCtx(t), "getScenariosFromImportedDatabase", RawRequest{ContentType: "application/json",
		Body: func() (io.Reader, error) { return nil, broken }})
	finalAttempt(t, err)
	assert.ErrorIs(t, err, broken)
	assert.Zero(t, srv.Calls("getScenariosFromImportedDatabase"))
}

// A redirect to plain http would carry the key unencrypted: the transport
// refuses it, and the refusal is final.
func TestRedirectToPlainHTTPIsRefused(t *testing.T) {
	var sent atomic.Int32
	redirecting := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent.Add(1)
		return &http.Response{StatusCode: http.StatusFound, Header: http.Header{"Location": {"http://scm.example.com/api/v1/open/project/list"}},
			Body: http.NoBody, Request: r}, nil
	})}
	c := newTestClient(t, "https://scm.example.com/api/v1", WithHTTPClient(redirecting), WithClock(faketest.NewInstantClock()))
	_, err := c.Projects.List(testCtx(t))
	finalAttempt(t, err)
	assert.ErrorContains(t, err, "refusing to send the API key over plain http")
	assert.EqualValues(t, 1, sent.Load(), "the redirect was not followed")
}

// An upload asks the server to accept it before its body is sent, so a
// server that refuses it at once is heard, not a broken pipe.
func TestUploadRefusedBeforeItsBody(t *testing.T) {
	var expect atomic.Value
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		expect.Store(r.Header.Get("Expect"))
		w.Header().Set("Connection", "close")
		w.WriteHeader(http.StatusUnauthorized) // without reading the body
	})
	_, err := c.Imports.Excel(testCtx(t), 1, "big", UploadReader("big.xlsx", &patternReader{left: uploadSize}), nil)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusUnauthorized, apiErr.StatusCode)
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.Equal(t, "100-continue", expect.Load())
}

// A request without a body whose write failed never sent the end of its
// headers: the server cannot have it, so it is not sent. With a body, the
// headers may have gone before the body failed.
func TestFailedWriteOfABodylessRequestIsNotSent(t *testing.T) {
	writeErr := &url.Error{Op: "Post", URL: "https://scm.example/api/v1/open/scenario/copy",
		Err: &net.OpError{Op: "write", Net: "tcp", Err: syscall.EPIPE}}
	readErr := &url.Error{Op: "Post", URL: "https://scm.example/api/v1/open/scenario/copy",
		Err: &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}}
	for _, tc := range []struct {
		name    string
		err     error
		hasBody bool
		notSent bool
	}{
		{"bodyless, write failed", writeErr, false, true},
		{"with a body, write failed", writeErr, true, false},
		{"bodyless, read failed", readErr, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &wireTrace{}
			w.wrote.Store(true) // the headers were handed to the connection
			got := w.classify(tc.err, tc.hasBody)
			assert.Equal(t, tc.notSent, errors.Is(got, errNotSent))
			assert.Equal(t, tc.notSent, !mayHaveReachedServer(got))
			assert.ErrorIs(t, got, tc.err.(*url.Error).Err.(*net.OpError).Err, "the failure is kept")
		})
	}
}

// A server's TLS alert is found behind another *net.OpError, where
// errors.As stops at the first.
func TestServerAlertBehindAWriteError(t *testing.T) {
	alert := &net.OpError{Op: "remote error", Err: errors.New("tls: certificate required")}
	err := fmt.Errorf("%w (the server sent a TLS alert: %w)", &net.OpError{Op: "write", Net: "tcp", Err: net.ErrClosed}, alert)
	assert.Contains(t, configHint(err, nil), "client certificate")
	assert.Empty(t, configHint(&net.OpError{Op: "write", Net: "tcp", Err: net.ErrClosed}, nil))
}
