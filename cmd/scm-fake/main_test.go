package main

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/api"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

// running is a server started through the command's entry point.
type running struct {
	base, key, docs string // as printed
	stderr          *faketest.Buffer
}

// start runs scm-fake with args on a free loopback port until the test
// ends, and returns what it printed once it serves.
func start(t *testing.T, args ...string) running {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	stdout, stderr := &faketest.Buffer{}, &faketest.Buffer{}
	done := make(chan int, 1)
	go func() { done <- serve(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), stdout, stderr) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			assert.Equal(t, 0, code, "exit code; stderr: %s", stderr)
		case <-time.After(10 * time.Second):
			t.Error("scm-fake did not stop within 10s of its context ending")
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "API docs:") {
		select {
		case code := <-done:
			t.Fatalf("scm-fake exited with %d before serving; stderr: %s", code, stderr)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("scm-fake printed no base URL within 10s: %q", stdout)
		}
	}
	r := running{stderr: stderr}
	for _, line := range strings.Split(stdout.String(), "\n") {
		name, value, _ := strings.Cut(line, ":")
		switch value = strings.TrimSpace(value); name {
		case "base URL":
			r.base = value
		case "API key":
			r.key = value
		case "API docs":
			r.docs = value
		}
	}
	return r
}

func get(t *testing.T, c *http.Client, url, key string) (*http.Response, []byte, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("Authorization", key)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp, body, err
}

// TestServe serves the fake on a loopback port, calls it with the printed
// base URL and key, and shuts it down.
func TestServe(t *testing.T) {
	srv := start(t)
	assert.True(t, strings.HasPrefix(srv.base, "http://127.0.0.1:") && strings.HasSuffix(srv.base, "/api/v1"), srv.base)
	resp, _, err := get(t, http.DefaultClient, srv.base+"/open/user", "Bearer "+srv.key)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Empty(t, srv.stderr.String(), "nothing is logged without -log")
}

// TestLogWritesALinePerRequest checks -log: a line per request on stderr
// with the operation (or method and path), the status and the duration.
func TestLogWritesALinePerRequest(t *testing.T) {
	srv := start(t, "-log")
	root := strings.TrimSuffix(srv.base, fake.BasePath)
	calls := map[string]string{ // URL -> the line it logs, as a pattern
		srv.base + "/open/project/list":              `getProjects 200`,
		srv.base + "/open/scenario/list?projectId=1": `getScenarios 200`,
		srv.base + "/open/scenario/list":             `getScenarios 400`,
		root + "/nothing/here":                       `GET /nothing/here 404`,
	}
	for url := range calls {
		_, _, err := get(t, http.DefaultClient, url, srv.key)
		require.NoError(t, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(srv.stderr.String(), "\n") < len(calls) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond) // the line is written once the answer is sent
	}
	lines := strings.Split(strings.TrimSuffix(srv.stderr.String(), "\n"), "\n")
	require.Len(t, lines, len(calls), "one line per request: %q", lines)
	for _, want := range calls {
		pattern := regexp.MustCompile(`^` + want + ` \d+(\.\d+)?(ns|µs|ms|s)$`)
		assert.True(t, slicesContainsMatch(lines, pattern), "no line matches %s in %q", pattern, lines)
	}
}

func slicesContainsMatch(lines []string, re *regexp.Regexp) bool {
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// TestTLSServesACertificateClientsCanTrust checks -tls: the printed base URL
// is https, a client trusting the written PEM file calls it by 127.0.0.1 and
// by localhost, and a client without it is refused the certificate.
func TestTLSServesACertificateClientsCanTrust(t *testing.T) {
	pemFile := filepath.Join(t.TempDir(), "fake-ca.pem")
	srv := start(t, "--tls", "--tls-cert-out", pemFile)
	require.True(t, strings.HasPrefix(srv.base, "https://127.0.0.1:"), srv.base)
	data, err := os.ReadFile(pemFile)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(data), "no certificate in %s", pemFile)
	trusting := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	t.Cleanup(trusting.CloseIdleConnections)
	for _, base := range []string{srv.base, strings.Replace(srv.base, "127.0.0.1", "localhost", 1)} {
		resp, _, err := get(t, trusting, base+"/open/user", srv.key)
		require.NoError(t, err, base)
		assert.Equal(t, http.StatusOK, resp.StatusCode, base)
	}
	_, _, err = get(t, &http.Client{Transport: &http.Transport{}}, srv.base+"/open/user", srv.key)
	var unknown x509.UnknownAuthorityError
	assert.True(t, errors.As(err, &unknown), "a client without the PEM file: %v", err)
}

// TestAPIDocsServedWithoutAKey checks that the OpenAPI document is where
// Java servers publish it, as JSON and YAML, without a key, and is the
// spec; operations still need the key.
func TestAPIDocsServedWithoutAKey(t *testing.T) {
	srv := start(t)
	root := strings.TrimSuffix(srv.base, fake.BasePath)
	assert.Equal(t, root+"/v3/api-docs", srv.docs)
	want, err := api.Load()
	require.NoError(t, err)
	for _, path := range []string{"/v3/api-docs", "/v3/api-docs.yaml"} {
		resp, body, err := get(t, http.DefaultClient, root+path, "")
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		doc, err := openapi3.NewLoader().LoadFromData(body)
		require.NoError(t, err, path)
		assert.Equal(t, len(want.Paths.Map()), len(doc.Paths.Map()), path)
		assert.Equal(t, want.Info.Title, doc.Info.Title, path)
	}
	resp, _, err := get(t, http.DefaultClient, root+"/v3/api-docs", "")
	require.NoError(t, err)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	resp, _, err = get(t, http.DefaultClient, srv.base+"/open/user", "")
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

// The help writes every flag as --name, as scm serve-fake's does: no line
// names a flag with one dash.
func TestHelpWritesFlagsWithTwoDashes(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, serve(t.Context(), []string{"-h"}, &out, &errOut))
	assert.NotRegexp(t, `(?m)^  -\w`, errOut.String())
	assert.Regexp(t, `(?m)^  --key string\n`, errOut.String())
}

func TestCommandLine(t *testing.T) {
	for name, tc := range map[string]struct {
		args []string
		code int
		want string
	}{
		"help":             {[]string{"-h"}, 0, "  --unlicensed"},
		"help: tls":        {[]string{"--help"}, 0, "  --tls-cert-out FILE"},
		"help: key":        {[]string{"-h"}, 0, "the default key is " + fake.DefaultAPIKey},
		"bad flag":         {[]string{"--nope"}, 2, "flag provided but not defined: -nope"},
		"bad addr":         {[]string{"--addr", "256.0.0.1:1"}, 1, "scm-fake: listen tcp"},
		"tls without file": {[]string{"--tls"}, 2, "scm-fake: --tls needs --tls-cert-out FILE"},
		"file without tls": {[]string{"--tls-cert-out", "x.pem"}, 2, "scm-fake: --tls-cert-out is written only with --tls"},
		"unwritable file":  {[]string{"--addr", "127.0.0.1:0", "--tls", "--tls-cert-out", "/nonexistent/dir/ca.pem"}, 1, "scm-fake: --tls-cert-out: "},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			var out, errOut bytes.Buffer
			assert.Equal(t, tc.code, serve(ctx, tc.args, &out, &errOut))
			assert.Contains(t, errOut.String(), tc.want)
		})
	}
}

// The dev server starts users licensed, so runs start at once; -unlicensed
// serves what a user without a license gets: 500 "Access is denied".
func TestLicensedByDefault(t *testing.T) {
	for flags, want := range map[string]int{"": http.StatusOK, "-unlicensed": http.StatusInternalServerError} {
		srv := fake.DefaultDevServer()
		fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
		srv.RegisterFlags(fs)
		require.NoError(t, fs.Parse(strings.Fields(flags)))
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ctx, ln, io.Discard) }()
		resp, _, err := get(t, http.DefaultClient, "http://"+ln.Addr().String()+fake.BasePath+"/open/experiments/run?rcId=10101", srv.Key)
		require.NoError(t, err)
		assert.Equal(t, want, resp.StatusCode, "flags %q", flags)
		cancel()
		require.NoError(t, <-done)
	}
}

// The upload and workbook limits come from flags.
func TestLimitFlags(t *testing.T) {
	srv := fake.DefaultDevServer()
	fs := flag.NewFlagSet("scm-fake", flag.ContinueOnError)
	srv.RegisterFlags(fs)
	require.NoError(t, fs.Parse([]string{"-max-upload", "4096", "-max-workbook-inflated", "100"}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	serving, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(serving, ln, io.Discard) }()
	base := "http://" + ln.Addr().String() + fake.BasePath
	for name, tc := range map[string]struct {
		file   []byte
		status int
		want   string
	}{
		"over the upload limit": {bytes.Repeat([]byte("x"), 5000), http.StatusRequestEntityTooLarge, "larger than the server's limit of 4096 bytes"},
		"over the inflated limit": {workbookOf(t, strings.Repeat("<row/>", 100)), http.StatusBadRequest,
			"the parts read inflate to more than 100 bytes: over the limit WorkbookLimits.TotalBytes"},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := upload(ctx, t, base, srv.Key, tc.file)
			assert.Equal(t, tc.status, status)
			assert.Contains(t, body, tc.want)
		})
	}
	stop()
	require.NoError(t, <-done)
}

// upload sends file to importExcel and returns the status and body.
func upload(ctx context.Context, t *testing.T, base, key string, file []byte) (int, string) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	require.NoError(t, mw.WriteField("projectId", "1"))
	require.NoError(t, mw.WriteField("newScenarioName", "x"))
	fw, err := mw.CreateFormFile("file", "x.xlsx")
	require.NoError(t, err)
	_, err = fw.Write(file)
	require.NoError(t, err)
	require.NoError(t, mw.Close())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/open/import/import-excel", &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// workbookOf is a workbook of one sheet whose worksheet part holds rows.
func workbookOf(t *testing.T, rows string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range map[string]string{
		"xl/workbook.xml":            `<workbook xmlns:r="urn:r"><sheets><sheet name="A" r:id="rId1"/></sheets></workbook>`,
		"xl/_rels/workbook.xml.rels": `<Relationships><Relationship Id="rId1" Target="worksheets/a.xml"/></Relationships>`,
		"xl/worksheets/a.xml":        `<worksheet><sheetData>` + rows + `</sheetData></worksheet>`,
	} {
		w, err := zw.Create(name)
		require.NoError(t, err)
		_, err = io.WriteString(w, content)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}
