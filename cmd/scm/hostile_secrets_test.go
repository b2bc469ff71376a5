package main

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A server that quotes the key encoded (base64, the Basic value of
// user:key, hex): in an error's message and request id, and as the name
// of a property the drift report lists. Neither stderr, the -v logs,
// stdout nor the drift report shows it.
func TestHostileEncodedKeyNeverPrinted(t *testing.T) {
	for name, spelled := range map[string]string{
		"base64":         base64.StdEncoding.EncodeToString([]byte(testKey)),
		"base64url raw":  base64.RawURLEncoding.EncodeToString([]byte(testKey)),
		"Basic user:key": "Basic " + base64.StdEncoding.EncodeToString([]byte("scm:"+testKey)),
		"hex":            hex.EncodeToString([]byte(testKey)),
		"HEX":            strings.ToUpper(hex.EncodeToString([]byte(testKey))),
	} {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if strings.HasSuffix(r.URL.Path, "/project/list") {
					w.Header().Set("X-Request-Id", spelled)
					w.WriteHeader(http.StatusBadRequest)
					fmt.Fprintf(w, `{"message":"key %s is not licensed"}`, spelled)
					return
				}
				fmt.Fprintf(w, `{"finished":true,"failed":false,"terminal":true,%q:1}`, spelled)
			}))
			t.Cleanup(srv.Close)
			flags := []string{"--base-url", srv.URL + "/api/v1", "--api-key", testKey}
			report := filepath.Join(t.TempDir(), "drift.json")
			r := scm(t, "", append([]string{"--verbose", "projects"}, flags...)...)
			assert.Equal(t, exitAPI, r.code, r.stderr)
			assert.Contains(t, r.stderr, "is not licensed", "the control: the message is shown")
			texts := []string{r.stdout, r.stderr}
			r = scm(t, "", append([]string{"--verbose", "--drift-report", report, "status", "10303"}, flags...)...)
			require.Equal(t, exitOK, r.code, r.stderr)
			drift, err := os.ReadFile(report)
			require.NoError(t, err)
			assert.Contains(t, string(drift), "ExecutionState", "the control: the report lists the property")
			for _, text := range append(texts, r.stdout, r.stderr, string(drift)) {
				assert.NotContains(t, text, spelled)
				assert.NotContains(t, strings.ToLower(text), strings.ToLower(testKey))
			}
		})
	}
}

// An import job whose status is a new 1 MB text quoting the key, encoded,
// on each poll: scm import --wait shows each status cut and without the
// key, and its stderr stays small.
func TestHostileHugeJobStatesPrintedCut(t *testing.T) {
	spelled := base64.StdEncoding.EncodeToString([]byte("scm:" + testKey))
	var polls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/import-excel"):
			fmt.Fprint(w, `{"jobId":7}`)
		case polls.Add(1) <= 4:
			fmt.Fprintf(w, `{"jobId":7,"status":"key %s poll %d %s"}`, spelled, polls.Load(), strings.Repeat("x", 1<<20))
		default:
			fmt.Fprint(w, `{"jobId":7,"status":"DONE","scenarioId":1001}`)
		}
	}))
	t.Cleanup(srv.Close)
	book := filepath.Join(t.TempDir(), "in.xlsx")
	require.NoError(t, os.WriteFile(book, []byte("PK"), 0o600))
	r := scm(t, "", "import", "excel", book, "--project", "1", "--name", "n", "--wait",
		"--base-url", srv.URL+"/api/v1", "--api-key", testKey)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stderr, "poll 4", "the control: each status is shown")
	assert.Less(t, len(r.stderr), 8<<10, "stderr after 4 statuses of 1 MB")
	assert.NotContains(t, r.stderr+r.stdout, spelled)
}
