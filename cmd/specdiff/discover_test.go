package main

import (
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// documentServer is a TLS server that publishes the models spec at the
// given paths (and an HTML page at the html paths) to callers that send the
// key; it answers 404 elsewhere. It returns the base URL (ending in /api/v1)
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
		case contains(at, r.URL.Path):
			w.Write(doc)
		case contains(html, r.URL.Path):
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

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestServerDocumentIsFoundWhereJavaServersPublishIt(t *testing.T) {
	for _, prefix := range []string{"", "/api/v1"} {
		for _, loc := range docLocations {
			t.Run(prefix+loc, func(t *testing.T) {
				t.Parallel()
				// An HTML page at an earlier location is passed over.
				base, ca := documentServer(t, []string{prefix + loc}, []string{"/v3/api-docs"})
				code, out, errs := runSpecdiff(t, nil, "-spec", modelsSpec, "-o", "json", "-ca-cert", ca,
					"-header", "Authorization: Bearer key", base)
				if code != exitClean {
					t.Fatalf("exit %d; stderr %s", code, errs)
				}
				want := strings.TrimSuffix(base, "/api/v1") + prefix + loc
				if !strings.Contains(errs, "using the server's OpenAPI document at "+want+"\n") {
					t.Errorf("stderr does not name %s: %q", want, errs)
				}
				var rep jsonReport
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatal(err)
				}
				if got := rep.Results[0].Source; got != want {
					t.Errorf("source %s, want %s", got, want)
				}
			})
		}
	}
}

func TestServerWithoutDocumentListsWhereItLooked(t *testing.T) {
	base, ca := documentServer(t, nil, []string{"/openapi.json"})
	code, _, errs := runSpecdiff(t, nil, "-spec", modelsSpec, "-ca-cert", ca, "-header", "Authorization: Bearer key", base)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	root := strings.TrimSuffix(base, "/api/v1")
	if !strings.Contains(errs, "no OpenAPI document found for "+base) {
		t.Errorf("stderr %q does not say what was not found", errs)
	}
	for _, prefix := range []string{root, base} {
		for _, loc := range docLocations {
			answer := "404 Not Found"
			if prefix == root && loc == "/openapi.json" {
				answer = "200 OK, not an OpenAPI document"
			}
			if line := prefix + loc + ": " + answer + "\n"; !strings.Contains(errs, line) {
				t.Errorf("stderr lacks %q:\n%s", line, errs)
			}
		}
	}
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

func TestDocumentURLsAreFetchedAsGiven(t *testing.T) {
	tests := map[string]bool{
		"https://h/api/v1":                   true,
		"https://h/api/v1/":                  true,
		"https://h":                          true,
		"https://h/api/v1/openapi.json":      false,
		"https://h/v3/api-docs":              false,
		"https://h/v3/api-docs/public":       false,
		"https://h/docs/listing.md":          false,
		"https://h/api/v1?token=x":           true,
		"https://h/prefix/v2/api-docs?g=all": false,
	}
	for raw, server := range tests {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := isServerURL(u); got != server {
			t.Errorf("isServerURL(%s) = %v, want %v", raw, got, server)
		}
	}
}

// TestFlagsMayFollowTheURL runs the two commands of the README in the
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
