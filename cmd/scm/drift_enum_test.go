package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/drift"
)

// Two values the spec's enumeration does not know, at the same place of
// the same operation's answer, are two differences: each is logged once
// and each is in the report.
func TestEveryUnknownEnumValueIsReported(t *testing.T) {
	flags := rewritingFake(t, "/open/scenario/list", func(i int, s map[string]any) {
		s["type"] = []string{"SIM2", "GFA2"}[i%2]
	})

	report := filepath.Join(t.TempDir(), "drift.json")
	r := scm(t, "", append([]string{"scenarios", "--project", "1", "-v", "--drift-report", report}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	require.GreaterOrEqual(t, strings.Count(r.stdout, "SIM2")+strings.Count(r.stdout, "GFA2"), 3, "the answer has three scenarios or more, so a value repeats:\n%s", r.stdout)
	assert.Equal(t, 2, strings.Count(r.stderr, "scm answer differs from the spec"), "a log line per new value:\n%s", r.stderr)
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	var found []drift.Finding
	require.NoError(t, json.Unmarshal(b, &found))
	var values []string
	for _, f := range found {
		assert.Equal(t, drift.KindEnum+" getScenarios ApiScenarioData.type", f.Kind+" "+f.Operation+" "+f.Path)
		values = append(values, string(f.Value))
	}
	assert.ElementsMatch(t, []string{`"SIM2"`, `"GFA2"`}, values)
}
