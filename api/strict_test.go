package api_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
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
	f, err := os.Open("../internal/testkit/recorded/answers/recorded-answers.jsonl")
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
	files, err := filepath.Glob("../internal/testkit/recorded/answers/*.json")
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

// TestEveryRecordedResponseHasAnExample: every response the recordings show
// (an operation's 200, and the shared error response for the 500s) carries
// an example made from a recorded answer, and every example validates
// strictly against its schema.
func TestEveryRecordedResponseHasAnExample(t *testing.T) {
	doc, err := spec.LoadStrict(api.Spec)
	require.NoError(t, err)
	type response struct {
		op     string
		status int
	}
	shown := map[response]bool{}
	for _, l := range recordedAnswers(t) {
		shown[response{l.Operation, l.Status}] = true
	}
	files, err := filepath.Glob("../internal/testkit/recorded/answers/*.json")
	require.NoError(t, err)
	for _, file := range files {
		op, _, _ := strings.Cut(filepath.Base(file), ".")
		shown[response{op, map[bool]int{true: 500, false: 200}[strings.HasSuffix(file, ".error.json")]}] = true
	}
	for r := range shown {
		op, status := r.op, r.status
		t.Run(fmt.Sprintf("%s_%d", op, status), func(t *testing.T) {
			media := jsonMedia(t, doc, op, status)
			var examples []any
			if media.Example != nil {
				examples = append(examples, media.Example)
			}
			for _, ex := range media.Examples {
				examples = append(examples, ex.Value.Value)
			}
			require.NotEmpty(t, examples, "%s: the %d response has no example", op, status)
			for _, ex := range examples {
				assert.NoError(t, spec.ValidateValue(media.Schema.Value, ex))
			}
		})
	}
}

// jsonMedia is the application/json content of op's response for status.
func jsonMedia(t *testing.T, doc *openapi3.T, op string, status int) *openapi3.MediaType {
	t.Helper()
	for _, item := range doc.Paths.Map() {
		for _, o := range item.Operations() {
			if o.OperationID == op {
				r := o.Responses.Status(status)
				require.NotNil(t, r, "%s has no response %d", op, status)
				media := r.Value.Content.Get("application/json")
				require.NotNil(t, media, "%s: response %d is not JSON", op, status)
				return media
			}
		}
	}
	t.Fatalf("no operation %s in the spec", op)
	return nil
}
