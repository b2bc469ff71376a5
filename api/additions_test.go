package api_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// additionsFile holds the operations the spec has beyond the reference, one
// JSON line each (an additionLine), checked as the reference's rows are.
// TestSpecHasEveryReferenceOperation prints the line that accepts an
// operation of the spec that is in neither; it is named here from the
// module root, as the messages name it.
const additionsFile = "api/additions.jsonl"

// additionLine is a line of additionsFile: a row of the reference's table
// (referenceOp) in JSON, every field present.
type additionLine struct {
	ID           string `json:"id"`
	Snake        string `json:"snake"`
	Tag          string `json:"tag"`
	Route        string `json:"route"`
	ChangesState bool   `json:"changesState"`
	Params       string `json:"params"`
	Body         string `json:"body"`
	Response     string `json:"response"`
}

func (l additionLine) row() referenceOp {
	return referenceOp{l.ID, l.Snake, l.Tag, l.Route, l.ChangesState, l.Params, l.Body, l.Response}
}

// additionLineOf is the line of additionsFile that accepts row.
func additionLineOf(row referenceOp) string {
	b, err := json.Marshal(additionLine{row.id, row.snake, row.tag, row.route, row.changesState, row.params, row.body, row.response})
	if err != nil {
		panic(err) // strings and a bool always marshal
	}
	return string(b)
}

// loadAdditions reads additionsFile (the test runs in api/).
func loadAdditions(t *testing.T) []referenceOp {
	t.Helper()
	b, err := os.ReadFile("additions.jsonl")
	if err != nil {
		t.Fatalf("%s: %v", additionsFile, err)
	}
	rows, err := readAdditions(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// readAdditions reads the lines of additionsFile: each a JSON object with
// every field of additionLine and no other, each operation once; blank
// lines are skipped. An error names the file and the line.
func readAdditions(r io.Reader) ([]referenceOp, error) {
	var rows []referenceOp
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		row, err := readAdditionLine(sc.Bytes())
		if err == nil && slices.ContainsFunc(rows, func(o referenceOp) bool { return o.id == row.id }) {
			err = fmt.Errorf("%s is accepted twice: keep one line", row.id)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", additionsFile, n, err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", additionsFile, err)
	}
	return rows, nil
}

// readAdditionLine reads one line, which must hold every field.
func readAdditionLine(b []byte) (referenceOp, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return referenceOp{}, fmt.Errorf("not a JSON object: %w; paste the line TestSpecHasEveryReferenceOperation prints", err)
	}
	want := []string{"id", "snake", "tag", "route", "changesState", "params", "body", "response"}
	for _, name := range want {
		if _, ok := fields[name]; !ok {
			return referenceOp{}, fmt.Errorf("no field %q; paste the line TestSpecHasEveryReferenceOperation prints", name)
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var l additionLine
	if err := dec.Decode(&l); err != nil {
		return referenceOp{}, fmt.Errorf("%w; the fields are %v", err, want)
	}
	if l.ID == "" {
		return referenceOp{}, fmt.Errorf("empty id")
	}
	return l.row(), nil
}

// The line the reference test prints for an operation reads back as the
// row that describes it, so pasting it accepts exactly that shape.
func TestTheAdditionLinePrintedReadsBackAsItsRow(t *testing.T) {
	ops := specOperations(loadSpec(t))
	for _, id := range []string{"getScenarios", "copyScenario", "importExcel"} {
		op, ok := ops[id]
		require.True(t, ok, "the spec has no %s: pick another operation", id)
		want := describeOperation(id, op)
		rows, err := readAdditions(strings.NewReader(additionLineOf(want) + "\n"))
		require.NoError(t, err)
		assert.Equal(t, []referenceOp{want}, rows, id)
	}
}

// The additions file is read strictly: every field, no other, valid JSON,
// each operation once; errors name the file and the line.
func TestAdditionsFileIsReadStrictly(t *testing.T) {
	const a = `{"id":"a","snake":"a","tag":"T","route":"GET /a","changesState":false,"params":"","body":"","response":"boolean"}`
	const b = `{"id":"b","snake":"b","tag":"T","route":"POST /b","changesState":true,"params":"x:int64!","body":"json X","response":""}`
	rows, err := readAdditions(strings.NewReader(a + "\n\n" + b + "\n"))
	require.NoError(t, err)
	assert.Equal(t, []referenceOp{
		{"a", "a", "T", "GET /a", false, "", "", "boolean"},
		{"b", "b", "T", "POST /b", true, "x:int64!", "json X", ""},
	}, rows)
	for name, c := range map[string]struct{ text, want string }{
		"not JSON":         {a + "\n{id: c}\n", "api/additions.jsonl:2: not a JSON object"},
		"a field missing":  {strings.Replace(a, `"route":"GET /a",`, "", 1), `api/additions.jsonl:1: no field "route"`},
		"an unknown field": {strings.Replace(a, `"tag"`, `"x-paging":false,"tag"`, 1), `api/additions.jsonl:1: json: unknown field "x-paging"`},
		"a wrong type":     {strings.Replace(a, `"changesState":false`, `"changesState":"no"`, 1), "api/additions.jsonl:1: json: cannot unmarshal"},
		"an empty id":      {strings.Replace(a, `"id":"a"`, `"id":""`, 1), "api/additions.jsonl:1: empty id"},
		"twice":            {a + "\n" + b + "\n" + a, "api/additions.jsonl:3: a is accepted twice"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := readAdditions(strings.NewReader(c.text))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
