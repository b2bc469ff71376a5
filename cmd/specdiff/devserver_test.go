package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// serveDevFake serves the standalone fake (fake.DevServer, what scm-fake
// and scm serve-fake run) with the command-line flags args until the test
// ends, and returns the base URL it printed.
func serveDevFake(t *testing.T, args ...string) string {
	t.Helper()
	srv := fake.DefaultDevServer()
	fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
	srv.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	out := &faketest.Buffer{}
	done := make(chan error, 1)
	ctx, cancel := context.WithCancel(t.Context())
	go func() { done <- srv.Serve(ctx, ln, out) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serving: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the fake did not stop within 10s")
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "API docs:") {
		if time.Now().After(deadline) {
			t.Fatalf("the fake printed no base URL within 10s: %q", out)
		}
		time.Sleep(5 * time.Millisecond)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	return strings.TrimSpace(strings.TrimPrefix(first, "base URL:"))
}

// TestDiffAndProbeTheStandaloneFakeOverTLS does what docs/drift.md suggests
// trying locally: serve the fake with -tls, then give specdiff its base
// URL and the written certificate. specdiff finds the fake's document at
// /v3/api-docs and both commands find no drift; without the certificate
// they fail naming -ca-cert.
func TestDiffAndProbeTheStandaloneFakeOverTLS(t *testing.T) {
	t.Parallel()
	pem := filepath.Join(t.TempDir(), "fake-ca.pem")
	base := serveDevFake(t, "-tls", "-tls-cert-out", pem)
	if !strings.HasPrefix(base, "https://") {
		t.Fatalf("base URL %q, want https", base)
	}
	embedded, err := specdoc.Load("", 0)
	if err != nil {
		t.Fatal(err)
	}
	key := "Authorization: " + fake.DefaultAPIKey
	docs := strings.TrimSuffix(base, fake.BasePath) + "/v3/api-docs"
	tests := map[string]struct {
		args       []string
		code       int
		out, notes string
	}{
		"diff":               {[]string{"-ca-cert", pem, base}, exitClean, "specdiff diff: no drift in 1 listing\n", "using the server's OpenAPI document at " + docs},
		"probe":              {[]string{"probe", "-ca-cert", pem, "-header", key, base}, exitClean, "specdiff probe: no drift in 1 server", ""},
		"diff, untrusted":    {[]string{base}, exitError, "", "-ca-cert FILE"},
		"probe, untrusted":   {[]string{"probe", "-header", key, base}, exitError, "", "-ca-cert FILE"},
		"the document's URL": {[]string{"-ca-cert", pem, docs}, exitClean, fmt.Sprintf("api/openapi.yaml (embedded) vs %s (openapi-3.0.3, %d operations)", docs, len(embedded.Ops)), ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runSpecdiff(t, nil, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errs, tc.notes) {
				t.Errorf("exit %d (want %d); stdout lacks %q or stderr %q:\n%s%s", code, tc.code, tc.out, tc.notes, out, errs)
			}
		})
	}
}
