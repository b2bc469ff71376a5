package facade

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

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
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL+"/api/v1", WithCACertFile(caFile(t, srv)), WithClock(faketest.NewInstantClock()))
	_, err := c.Scenarios.Copy(testCtx(t), 101, "GFA", nil)
	reqErr := finalAttempt(t, err)
	assert.Contains(t, reqErr.Hint, "client certificate")
	assert.Zero(t, handled.Load(), "no request reached the handler")
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
