package fake

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// WithLogger receives what the server's http.Server logs, at Error level:
// here the panic of a handler (the fake's own never panic but to drop a
// connection, which net/http does not log).
func TestWithLoggerReceivesServerLog(t *testing.T) {
	logs := &lockedBuffer{}
	srv := NewServer(WithLogger(slog.New(slog.NewTextHandler(logs, nil))))
	defer srv.Close()
	srv.inner = http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("a handler failed") })
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/open/user", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", srv.APIKey)
	if resp, err := srv.Client().Do(req); err == nil {
		resp.Body.Close()
	}
	srv.Close()
	logs.mu.Lock()
	defer logs.mu.Unlock()
	assert.Contains(t, logs.b.String(), "level=ERROR")
	assert.Contains(t, logs.b.String(), "panic serving")
	assert.Contains(t, logs.b.String(), "a handler failed")
}
