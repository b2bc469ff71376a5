package main

import (
	"context"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// readmeWorkflow returns the lines of the shell block that opens the
// README's CLI section.
func readmeWorkflow(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)\n## The CLI\n.*?```sh\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, m, "README.md has no sh block in its CLI section")
	return strings.Split(strings.TrimSpace(string(m[1])), "\n")
}

// The README's CLI workflow runs as written: each line through scm's entry
// point against the fake server as go run ./cmd/scm-fake serves it (its
// key, every user licensed), with runs shortened. A line the test does not
// know fails it, so the block cannot hold a step nobody ran.
func TestREADMEWorkflow(t *testing.T) {
	lines := readmeWorkflow(t)
	t.Chdir(t.TempDir())
	dev := fake.DefaultDevServer()
	dev.RunDuration, dev.ImportDuration = 300*time.Millisecond, 200*time.Millisecond
	devURL := "http://" + dev.Addr + fake.BasePath
	var serverURL string
	require.GreaterOrEqual(t, len(lines), 8)
	for _, line := range lines {
		words, _, err := shellWords(strings.TrimSuffix(strings.TrimSpace(strings.SplitN(line, "#", 2)[0]), "&"))
		require.NoError(t, err, line)
		switch {
		case strings.Join(words, " ") == "go run ./cmd/scm-fake":
			srv := httptest.NewServer(dev.Handler())
			t.Cleanup(srv.Close)
			serverURL = srv.URL + fake.BasePath
		case strings.Join(words, " ") == "go install ./cmd/scm":
		case words[0] == "export":
			readmeExport(t, words[1:], devURL, serverURL)
		case words[0] == "scm":
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			r := scmContext(t, ctx, "", words[1:]...)
			cancel()
			require.Equal(t, exitOK, r.code, "README line %q\nstdout:\n%s\nstderr:\n%s", line, r.stdout, r.stderr)
			assert.NotEmpty(t, r.stdout, line)
		default:
			t.Fatalf("README line %q is none the test knows how to run", line)
		}
	}
	_, err := os.Stat("dashboard.xlsx")
	assert.NoError(t, err, "the workflow ends with the exported workbook")
}

// readmeExport sets the environment of an export line: the fake's URL and
// key, which must be what go run ./cmd/scm-fake serves.
func readmeExport(t *testing.T, assignments []string, devURL, serverURL string) {
	t.Helper()
	for _, a := range assignments {
		name, value, _ := strings.Cut(a, "=")
		switch name {
		case "SCM_BASE_URL":
			require.Equal(t, devURL, value, "the URL go run ./cmd/scm-fake serves")
			require.NotEmpty(t, serverURL, "the export comes after the server starts")
			value = serverURL
		case "SCM_API_KEY":
			require.Equal(t, fake.DefaultAPIKey, value, "the key go run ./cmd/scm-fake takes")
		default:
			t.Fatalf("README exports %s, which the test does not know", name)
		}
		t.Setenv(name, value)
	}
}
