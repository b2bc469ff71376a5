package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// TestServe serves the fake on a loopback port, calls it with the printed
// base URL and key, and shuts it down.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	printed := make(chan struct{})
	done := make(chan error, 1)
	w := &notifyWriter{buf: &out, once: printed}
	go func() { done <- fake.DefaultDevServer().Serve(ctx, ln, w) }()
	<-printed
	lines := strings.Split(out.String(), "\n")
	base := strings.TrimSpace(strings.TrimPrefix(lines[0], "base URL:"))
	key := strings.TrimSpace(strings.TrimPrefix(lines[1], "API key:"))
	assert.True(t, strings.HasSuffix(base, "/api/v1"))
	req, err := http.NewRequest(http.MethodGet, base+"/open/user", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	cancel()
	assert.NoError(t, <-done)
}

type notifyWriter struct {
	buf  *bytes.Buffer
	once chan struct{}
}

func (n *notifyWriter) Write(p []byte) (int, error) {
	k, err := n.buf.Write(p)
	close(n.once)
	return k, err
}

func TestBadFlag(t *testing.T) {
	var out bytes.Buffer
	assert.Error(t, run(context.Background(), []string{"-nope"}, &out))
}
