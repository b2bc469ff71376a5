package api_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/api"
	"github.com/scmodel/scmgo/internal/spec"
)

// recordedLine is one answer of recorded-answers.jsonl: the operation, the
// HTTP status when it was an error (500), and the body.
type recordedLine struct {
	Operation string          `json:"operation"`
	Status    int             `json:"status"`
	JSON      json.RawMessage `json:"json"`
}

// recordedAnswers reads the repository's copy of the shared recordings.
func recordedAnswers(t *testing.T) []recordedLine {
	t.Helper()
	f, err := os.Open("../internal/recorded/answers/recorded-answers.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var out []recordedLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l recordedLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), "line %d", len(out)+1)
		if l.Status == 0 {
			l.Status = 200
		}
		out = append(out, l)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out)
	return out
}

// TestRecordedAnswersValidateStrictly validates every recorded answer of
// the real server against its operation's response schema under plain JSON
// Schema rules (discriminators ignored, oneOf exactly one, null only where
// nullable), as Prism or ajv would.
func TestRecordedAnswersValidateStrictly(t *testing.T) {
	doc, err := spec.LoadStrict(api.Spec)
	require.NoError(t, err)
	for i, l := range recordedAnswers(t) {
		t.Run(fmt.Sprintf("%d_%s", i+1, l.Operation), func(t *testing.T) {
			require.NoError(t, spec.ValidateAnswer(doc, l.Operation, l.Status, l.JSON))
		})
	}
}

// TestRecordedAnswerFilesValidateStrictly does the same for the answers
// the recorded server serves, one file per operation
// (<operationId>[.<query>][.error].json, an error being a 500).
func TestRecordedAnswerFilesValidateStrictly(t *testing.T) {
	doc, err := spec.LoadStrict(api.Spec)
	require.NoError(t, err)
	files, err := filepath.Glob("../internal/recorded/answers/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(file)
			require.NoError(t, err)
			op, _, _ := strings.Cut(name, ".")
			status := 200
			if strings.HasSuffix(name, ".error.json") {
				status = 500
			}
			require.NoError(t, spec.ValidateAnswer(doc, op, status, body))
		})
	}
}
