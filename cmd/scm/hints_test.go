package main

import (
	"encoding/pem"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// tlsFake serves the fake over HTTPS with httptest's certificate (for
// example.com, 127.0.0.1 and ::1), and returns the file of that
// certificate for --ca-cert.
func tlsFake(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	srv := httptest.NewUnstartedServer(fake.NewHandler(fake.WithAPIKeys(testKey)))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))
	return srv, ca
}

// A base URL whose scheme or host does not fit the server fails with what
// to change, as the last line of scm's output.
func TestConnectionHints(t *testing.T) {
	tlsSrv, ca := tlsFake(t)
	plain := httptest.NewServer(fake.NewHandler(fake.WithAPIKeys(testKey)))
	t.Cleanup(plain.Close)
	tlsHost := strings.TrimPrefix(tlsSrv.URL, "https://")
	plainHost := strings.TrimPrefix(plain.URL, "http://")
	port := tlsHost[strings.LastIndex(tlsHost, ":")+1:]
	cases := map[string]struct {
		baseURL string
		want    string
	}{
		"http to an https port": {"http://" + tlsHost + "/api/v1",
			"scm projects: getProjects: the server speaks HTTPS on " + tlsHost + ", and --base-url says http: use https://" + tlsHost +
				"/api/v1 (--base-url or SCM_BASE_URL); the server answered: 400 Bad Request\n"},
		"https to an http port": {"https://" + plainHost + "/api/v1",
			"scm projects: getProjects: the server speaks plain HTTP on " + plainHost + ", not HTTPS: use http://" + plainHost +
				"/api/v1 (--base-url or SCM_BASE_URL; --insecure-http for a host that is not loopback); http: server gave HTTP response to HTTPS client\n"},
		"a name the certificate does not hold": {"https://localhost:" + port + "/api/v1",
			"scm projects: getProjects: the server's certificate is for example.com, *.example.com, 127.0.0.1, ::1, not localhost: use one of those names as the host in --base-url, e.g. https://127.0.0.1:" +
				port + "/api/v1 (the name is what does not match: trusting the certificate's CA again changes nothing)\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := scm(t, "", "projects", "--base-url", tc.baseURL, "--api-key", testKey, "--ca-cert", ca)
			assert.Equal(t, exitAPI, r.code)
			assert.Equal(t, tc.want, r.stderr)
			assert.NotContains(t, r.stderr, "trust its CA with")
		})
	}
	r := scm(t, "", "projects", "--base-url", tlsSrv.URL+"/api/v1", "--api-key", testKey, "--ca-cert", ca)
	assert.Equal(t, exitOK, r.code, "the right scheme and name work: %s", r.stderr)
}
