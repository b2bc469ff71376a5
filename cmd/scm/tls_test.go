package main

import (
	"encoding/pem"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scmodel/scmgo/fake"
)

// A server with a certificate of its own: refused until its CA is trusted
// (--ca-cert or SCM_CA_CERT) or verification is skipped, with a warning.
func TestTLSFlags(t *testing.T) {
	srv := httptest.NewUnstartedServer(fake.NewHandler(fake.WithAPIKeys(testKey)))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	flags := []string{"--base-url", srv.URL + "/api/v1", "--api-key", testKey, "call", "getCurrentUser"}

	r := scm(t, "", flags...)
	assert.Equal(t, exitAPI, r.code)
	assert.Contains(t, r.stderr, "certificate")
	assert.Contains(t, r.stderr, "--ca-cert")
	assert.NotContains(t, r.stderr, "may have been applied")

	r = scm(t, "", append([]string{"--ca-cert", ca}, flags...)...)
	assert.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, `"username"`)

	t.Setenv("SCM_CA_CERT", ca)
	r = scm(t, "", flags...)
	assert.Equal(t, exitOK, r.code, r.stderr)
	t.Setenv("SCM_CA_CERT", "")

	r = scm(t, "", append([]string{"--insecure-skip-verify"}, flags...)...)
	assert.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stderr, "level=WARN")
	assert.Contains(t, r.stderr, "certificate verification is off")

	r = scm(t, "", append([]string{"--ca-cert", filepath.Join(t.TempDir(), "absent.pem")}, flags...)...)
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "scm call: --ca-cert: open ")
}
