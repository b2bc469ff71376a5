package facade

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
)

const (
	testKey        = "sk-test-SECRET-key-123"
	testDBPassword = "db-pass-SECRET-456"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// guardHandler is a debug-level slog handler that fails the test when a
// record, rendered as text, contains the API key, the database password or
// a secret the test gave to watch. Every client made by the test helpers
// logs through it, so the whole suite's logging is checked.
type guardHandler struct {
	t       testing.TB
	mu      *sync.Mutex
	lines   *[]string
	secrets *[]string // watched besides the key and the password
	attrs   []slog.Attr
}

func newGuard(t testing.TB) *guardHandler {
	return &guardHandler{t: t, mu: new(sync.Mutex), lines: new([]string), secrets: new([]string)}
}

// watch adds secrets no log line may contain.
func (g *guardHandler) watch(secrets ...string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	*g.secrets = append(*g.secrets, secrets...)
}

func (g *guardHandler) Enabled(context.Context, slog.Level) bool { return true }

func (g *guardHandler) Handle(_ context.Context, r slog.Record) error {
	var buf bytes.Buffer
	h := slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})
	if err := h.WithAttrs(g.attrs).Handle(context.Background(), r); err != nil {
		return err
	}
	line := buf.String()
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, secret := range append([]string{testKey, testDBPassword}, *g.secrets...) {
		if strings.Contains(line, secret) {
			g.t.Errorf("a log line leaks a secret (%s): %s", secret, line)
		}
	}
	*g.lines = append(*g.lines, line)
	return nil
}

func (g *guardHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *g
	c.attrs = append(append([]slog.Attr(nil), g.attrs...), attrs...)
	return &c
}

func (g *guardHandler) WithGroup(string) slog.Handler { return g }

func (g *guardHandler) Lines() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), *g.lines...)
}

// fastRetries keeps retry delays short in tests.
var fastRetries = RetryPolicy{MaxAttempts: 4, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond, MaxRetryAfter: 2 * time.Second}

// newTestClient builds a client for url with the test key, fast retries and
// the guard logger, closing its idle connections at cleanup.
func newTestClient(t testing.TB, url string, opts ...Option) *Client {
	t.Helper()
	base := []Option{WithAPIKey(testKey), WithRetryPolicy(fastRetries), WithLogger(slog.New(newGuard(t)))}
	c, err := New(url, append(base, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// newFake starts a fake server that accepts the test key and a client for it.
func newFake(t testing.TB, opts ...fake.Option) (*fake.Server, *Client) {
	t.Helper()
	srv := faketest.NewServer(t, append([]fake.Option{fake.WithAPIKeys(testKey)}, opts...)...)
	return srv, newTestClient(t, srv.URL)
}

// newStub serves handler under /api/v1 on an httptest server, for cases the
// fake cannot express.
func newStub(t testing.TB, handler http.HandlerFunc, opts ...Option) (*httptest.Server, *Client) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", handler)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, newTestClient(t, srv.URL+"/api/v1", opts...)
}

// testCtx is the context of a test that waits: it ends with the test, or
// after 10 s, so a regression fails in seconds instead of hanging.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func contextWithTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

func sloggerFor(h slog.Handler) *slog.Logger { return slog.New(h) }
