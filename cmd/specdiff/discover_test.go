package main

import (
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// documentServer is a TLS server that publishes the models spec at the
// given paths (and an HTML page at the html paths) to callers that send the
// key; it answers 404 elsewhere. (Package fetch's tests check where
// specdiff looks for a server's document; these check its flags.) It returns the base URL (ending in /api/v1)
// and a PEM file of its certificate.
func documentServer(t *testing.T, at, html []string) (base, caFile string) {
	t.Helper()
	doc, err := os.ReadFile(modelsSpec)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Authorization") != "Bearer key":
			http.Error(w, "no key", http.StatusUnauthorized)
		case slices.Contains(at, r.URL.Path):
			w.Write(doc)
		case slices.Contains(html, r.URL.Path):
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!doctype html><title>app</title>"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	block := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	if err := os.WriteFile(caFile, block, 0o600); err != nil {
		t.Fatal(err)
	}
	return srv.URL + "/api/v1", caFile
}

func TestServerCertificateFlags(t *testing.T) {
	base, ca := documentServer(t, []string{"/v3/api-docs"}, nil)
	notPEM := filepath.Join(t.TempDir(), "x.pem")
	os.WriteFile(notPEM, []byte("not a certificate"), 0o600)
	tests := map[string]struct {
		flags []string
		exit  int
		want  string // in stderr
	}{
		"untrusted":            {nil, exitError, "-ca-cert FILE"},
		"ca-cert":              {[]string{"-ca-cert", ca}, exitClean, "using the server's OpenAPI document"},
		"insecure-skip-verify": {[]string{"-insecure-skip-verify"}, exitClean, "certificate is not verified"},
		"ca-cert not PEM":      {[]string{"-ca-cert", notPEM}, exitError, "no PEM certificate"},
		"ca-cert absent":       {[]string{"-ca-cert", notPEM + ".absent"}, exitError, "x.pem.absent"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"-spec", modelsSpec, "-header", "Authorization: Bearer key"}, tc.flags...), base)
			code, _, errs := runSpecdiff(t, nil, args...)
			if code != tc.exit || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %q in it)", code, tc.exit, errs, tc.want)
			}
		})
	}
}

// TestFlagsMayFollowTheURL runs the two commands of docs/drift.md in the
// order the work order writes them: the URL first, then the flags.
func TestFlagsMayFollowTheURL(t *testing.T) {
	base, ca := documentServer(t, []string{"/v3/api-docs"}, nil)
	code, _, errs := runSpecdiff(t, nil, base, "-spec", modelsSpec, "-header", "Authorization: Bearer key", "-ca-cert", ca)
	if code != exitClean || !strings.Contains(errs, "/v3/api-docs") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestParseFlagsTakesArgumentsBetweenFlags(t *testing.T) {
	tests := map[string]struct {
		args, rest []string
		output     string
	}{
		"flags first":   {[]string{"-o", "json", "a", "b"}, []string{"a", "b"}, "json"},
		"flags between": {[]string{"a", "-o", "json", "b"}, []string{"a", "b"}, "json"},
		"flags after":   {[]string{"a", "b", "-o", "markdown"}, []string{"a", "b"}, "markdown"},
		"stdin":         {[]string{"-", "-o", "json"}, []string{"-"}, "json"},
		"double dash":   {[]string{"a", "--", "-o", "json"}, []string{"a", "-o", "json"}, "text"},
		"none":          {nil, nil, "text"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var c common
			e := env{stdout: io.Discard, stderr: io.Discard}
			fs := newFlagSet(e, "t", &c)
			rest, _, ok := parseFlags(e, fs, &c, tc.args)
			if !ok || !slices.Equal(rest, tc.rest) || c.output != tc.output {
				t.Errorf("rest %q, -o %s, ok %v; want %q, %s", rest, c.output, ok, tc.rest, tc.output)
			}
		})
	}
}
