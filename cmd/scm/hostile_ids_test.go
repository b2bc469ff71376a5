package main

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/limits"
)

// idServer answers each path ending in a key of answers with its JSON, and
// counts the requests for the export of a page.
func idServer(t *testing.T, answers map[string]string, exports *atomic.Int32) []string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/export-page") {
			exports.Add(1)
		}
		for suffix, body := range answers {
			if strings.HasSuffix(r.URL.Path, suffix) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, body)
				return
			}
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	return []string{"--base-url", srv.URL + "/api/v1", "--api-key", testKey}
}

// An id from the server that cannot be one ends the command with exit 1,
// the server's fault, naming the field and the value; nothing is printed
// as a success and nothing is asked with it.
func TestHostileIDsAreTheServersFault(t *testing.T) {
	for name, tc := range map[string]struct {
		answers map[string]string
		args    func(dir string) []string
		want    string
	}{
		"negative page id": {
			answers: map[string]string{"/dashboard-pages": `[{"id":-3,"name":"Data"}]`},
			args: func(dir string) []string {
				return []string{"export", "dashboard", "--result", "5", "-o", filepath.Join(dir, "r.xlsx")}
			},
			want: "has no usable [0].id: -3 is not one",
		},
		"negative experimentResultId": {
			answers: map[string]string{"/run-synchronously": `{"validationStatus":"OK","experimentResultId":-7}`},
			args:    func(string) []string { return []string{"run", "10303", "--sync"} },
			want:    "has no usable experimentResultId: -7 is not one",
		},
		"experimentResultId 0": {
			answers: map[string]string{"/run-synchronously": `{"validationStatus":"OK","experimentResultId":0}`},
			args:    func(string) []string { return []string{"run", "10303", "--sync"} },
			want:    "has no experimentResultId",
		},
	} {
		t.Run(name, func(t *testing.T) {
			var exports atomic.Int32
			flags := idServer(t, tc.answers, &exports)
			r := scm(t, "", append(tc.args(t.TempDir()), flags...)...)
			assert.Equal(t, exitAPI, r.code, r.stderr)
			assert.Contains(t, r.stderr, tc.want)
			assert.Empty(t, r.stdout, "nothing printed as a success")
			assert.Zero(t, exports.Load(), "no page exported")
		})
	}
}

// An error about the server's answer exits 1 even when it also holds a
// validation error, the code of the user's input.
func TestAnswerErrorsAreNotUsageErrors(t *testing.T) {
	validation := &facade.ValidationError{Operation: "exportDashboardPage", Field: "pageId", Reason: "must not be negative, got -3"}
	for name, err := range map[string]error{
		"missing field": errors.Join(validation, &facade.MalformedError{Operation: "getExperimentDashboardPages", Field: "id", Value: "-3"}),
		"limit":         errors.Join(validation, &limits.Error{Operation: "getExperiments", Limit: "Limits.MaxBodyBytes"}),
	} {
		assert.Equal(t, exitAPI, exitCode(t.Context(), err), name)
	}
	assert.Equal(t, exitUsage, exitCode(t.Context(), validation), "the user's input alone")
}
