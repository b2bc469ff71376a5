package main

import (
	"bytes"
	"context"
	"flag"
	"io"
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

func TestCommandLine(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		code int
		want string
	}{
		"help":     {[]string{"-h"}, 0, "-unlicensed"},
		"bad flag": {[]string{"-nope"}, 2, "flag provided but not defined: -nope"},
		"bad addr": {[]string{"-addr", "256.0.0.1:1"}, 1, "scm-fake: listen tcp"},
	} {
		t.Run(name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			assert.Equal(t, tc.code, serve(context.Background(), tc.args, &out, &errOut))
			assert.Contains(t, errOut.String(), tc.want)
		})
	}
}

// The dev server starts users licensed, so runs start at once; -unlicensed
// serves the 403 of a user without a license.
func TestLicensedByDefault(t *testing.T) {
	for flags, want := range map[string]int{"": http.StatusOK, "-unlicensed": http.StatusForbidden} {
		srv := fake.DefaultDevServer()
		fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
		srv.RegisterFlags(fs)
		require.NoError(t, fs.Parse(strings.Fields(flags)))
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, ln, io.Discard) }()
		req, err := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+fake.BasePath+"/open/experiments/run?rcId=10101", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", srv.Key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, "flags %q", flags)
		cancel()
		require.NoError(t, <-done)
	}
}
