package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/fake"
)

// driftingFake serves the fake behind a proxy that adds a field the spec
// does not name to every project and gives each project's name a number,
// as a server whose model changed would.
func driftingFake(t *testing.T) []string {
	t.Helper()
	return rewritingFake(t, "/open/project/list", func(_ int, p map[string]any) {
		p["tenant"], p["name"] = "acme", 42
	})
}

// rewritingFake serves the fake behind a proxy that passes each item of
// the list answered at path (a path suffix) through edit, and returns the
// flags that reach it.
func rewritingFake(t *testing.T, path string, edit func(i int, item map[string]any)) []string {
	t.Helper()
	srv, flags := newServer(t)
	target, err := url.Parse(strings.TrimSuffix(srv.URL, fake.BasePath))
	require.NoError(t, err)
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasSuffix(resp.Request.URL.Path, path) {
			return nil
		}
		var items []map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&items); err != nil {
			return err
		}
		for i, item := range items {
			edit(i, item)
		}
		b, _ := json.Marshal(items)
		resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	front := httptest.NewServer(proxy)
	t.Cleanup(front.Close)
	flags[1] = front.URL + fake.BasePath
	return flags
}

// A command whose answers differ from the spec still does its job, and
// ends with one line on standard error that counts the differences;
// --drift-report writes them as JSON, in the form specdiff overlay reads.
func TestDriftIsCountedAndReported(t *testing.T) {
	flags := driftingFake(t)
	r := scm(t, "", append([]string{"projects"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stdout, "42", "the retyped name is shown as the server sent it")
	assert.Equal(t, "scm: the server's answers differed from the spec in 2 places; --drift-report FILE writes them as JSON (specdiff overlay turns them into a spec fix)\n", r.stderr)

	report := filepath.Join(t.TempDir(), "drift.json")
	r = scm(t, "", append([]string{"projects", "--drift-report", report}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "scm: the server's answers differed from the spec in 2 places; written to "+report+"\n", r.stderr)
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	var found []drift.Finding
	require.NoError(t, json.Unmarshal(b, &found))
	var paths []string
	for _, f := range found {
		paths = append(paths, f.Kind+" "+f.Path)
		assert.Equal(t, "getProjects", f.Operation)
	}
	assert.Equal(t, []string{"probe-unknown-field ApiProjectResponse.tenant", "probe-type ApiProjectResponse.name"}, paths)

	r = scm(t, "", append([]string{"projects", "-v"}, flags...)...)
	assert.Equal(t, 2, strings.Count(r.stderr, "scm answer differs from the spec"), "--verbose logs each difference:\n%s", r.stderr)
}

// A command whose answers match the spec says nothing of drift; a report
// asked for is an empty list.
func TestNoDriftNoLine(t *testing.T) {
	_, flags := newServer(t)
	report := filepath.Join(t.TempDir(), "drift.json")
	r := scm(t, "", append([]string{"projects", "--drift-report", report}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Empty(t, r.stderr)
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	assert.JSONEq(t, `[]`, string(b))
}
