package facade

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// tlsFake serves the fake over TLS with httptest's own certificate, and
// counts the requests that got through the handshake.
func tlsFake(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var requests atomic.Int32
	h := fake.NewHandler(fake.WithAPIKeys(testKey), fake.WithLicense())
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		h.ServeHTTP(w, r)
	}))
	srv.Config.ErrorLog = discardLog() // the handshakes refused on purpose
	t.Cleanup(srv.Close)
	return srv, &requests
}

// caFile writes the server's certificate as a PEM file.
func caFile(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	return path
}

func TestTLSOptionsTrustTheServer(t *testing.T) {
	srv, _ := tlsFake(t)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	for name, opt := range map[string]Option{
		"WithCACertFile":         WithCACertFile(caFile(t, srv)),
		"WithTLSConfig":          WithTLSConfig(&tls.Config{RootCAs: pool}),
		"WithInsecureSkipVerify": WithInsecureSkipVerify(),
	} {
		t.Run(name, func(t *testing.T) {
			logs.Reset()
			c, err := New(srv.URL+"/api/v1", WithAPIKey(testKey), opt, WithLogger(logger))
			require.NoError(t, err)
			u, err := c.User.Current(testCtx(t))
			require.NoError(t, err)
			assert.NotEmpty(t, u.Username)
			warned := bytes.Count(logs.Bytes(), []byte("level=WARN"))
			if name == "WithInsecureSkipVerify" {
				assert.Equal(t, 1, warned, "logged once: %s", logs.String())
				_, err = c.User.Current(testCtx(t))
				require.NoError(t, err)
				assert.Equal(t, 1, bytes.Count(logs.Bytes(), []byte("level=WARN")), "and not per request")
			} else {
				assert.Zero(t, warned)
			}
		})
	}
}

// An untrusted certificate is neither retried nor reported as possibly
// applied: the handshake failed before anything was sent.
func TestCertificateErrorsAreFinal(t *testing.T) {
	srv, requests := tlsFake(t)
	c, err := New(srv.URL+"/api/v1", WithAPIKey(testKey), WithClock(faketest.NewInstantClock()))
	require.NoError(t, err)

	_, err = c.User.Current(testCtx(t)) // safe: would be retried on a network error
	var reqErr *RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.Len(t, reqErr.Attempts, 1, "not retried")
	assert.Contains(t, err.Error(), "WithCACertFile")

	_, err = c.Scenarios.Copy(testCtx(t), 101, "GFA", nil) // state-changing
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.Zero(t, requests.Load(), "no request reached the handler")
}

func TestTLSOptionsNeedAnHTTPTransport(t *testing.T) {
	custom := &http.Client{Transport: roundTripFunc(http.DefaultTransport.RoundTrip)}
	_, err := New("https://scm.example.com/api/v1", WithHTTPClient(custom), WithInsecureSkipVerify())
	assert.ErrorContains(t, err, "TLS options need an *http.Transport")

	_, err = New("https://scm.example.com/api/v1", WithCACertFile(filepath.Join(t.TempDir(), "absent.pem")))
	assert.ErrorContains(t, err, "WithCACertFile")
	empty := filepath.Join(t.TempDir(), "empty.pem")
	require.NoError(t, os.WriteFile(empty, []byte("not a certificate"), 0o600))
	_, err = New("https://scm.example.com/api/v1", WithCACertFile(empty))
	assert.ErrorContains(t, err, "holds no PEM certificate")
	_, err = New("https://scm.example.com/api/v1", WithTLSConfig(nil))
	assert.Error(t, err)
}

// A tracing transport reads each request's operation from its context.
func TestOperationFromContext(t *testing.T) {
	srv := fake.NewServer(fake.WithAPIKeys(testKey), fake.WithLicense())
	t.Cleanup(srv.Close)
	var mu sync.Mutex
	var ops []string
	tracing := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		op, ok := OperationFromContext(r.Context())
		mu.Lock()
		ops = append(ops, op+map[bool]string{true: "", false: "(none)"}[ok])
		mu.Unlock()
		return http.DefaultTransport.RoundTrip(r)
	})}
	c := newTestClient(t, srv.URL, WithHTTPClient(tracing))
	_, err := c.User.Current(testCtx(t))
	require.NoError(t, err)
	_, err = c.Scenarios.List(testCtx(t), 1)
	require.NoError(t, err)
	assert.Equal(t, []string{"getCurrentUser", "getScenarios"}, ops)
	_, ok := OperationFromContext(testCtx(t))
	assert.False(t, ok)
}

// discardLog silences a test server's log of refused handshakes.
func discardLog() *log.Logger { return log.New(io.Discard, "", 0) }

// A CA file added to the TLS configuration of the caller's transport keeps
// the rest of it: the server sees the caller's server name and TLS version.
func TestCACertFileKeepsTheTransportsTLSConfig(t *testing.T) {
	var mu sync.Mutex
	var seen []*tls.ConnectionState
	h := fake.NewHandler(fake.WithAPIKeys(testKey))
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.TLS)
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	transport := defaultTransport().(*http.Transport)
	transport.TLSClientConfig = &tls.Config{ServerName: "example.com", MinVersion: tls.VersionTLS13}
	c := newTestClient(t, srv.URL+"/api/v1", WithHTTPClient(&http.Client{Transport: transport}), WithCACertFile(caFile(t, srv)))
	_, err := c.User.Current(testCtx(t))
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, seen, 1)
	assert.Equal(t, "example.com", seen[0].ServerName, "the caller's server name")
	assert.Equal(t, uint16(tls.VersionTLS13), seen[0].Version)
	assert.Equal(t, "example.com", transport.TLSClientConfig.ServerName, "the caller's transport is left as it was")
	assert.Nil(t, transport.TLSClientConfig.RootCAs)

	srv.TLS.MaxVersion = tls.VersionTLS12 // below the caller's minimum: refused
	srv.CloseClientConnections()
	c.CloseIdleConnections()
	_, err = c.User.Current(testCtx(t))
	require.Error(t, err, "the caller's MinVersion is kept")
}
