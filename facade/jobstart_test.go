package facade

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// jobStarter starts jobs with one operation, and says whether its answer is
// a list of ApiImportResponse (true) or one.
type jobStarter struct {
	list  bool
	start func(t *testing.T, c *Client) ([]*Job, error)
}

// jobStarters has a case per operation that starts jobs.
var jobStarters = map[gen.OperationID]jobStarter{
	gen.OpImportExcel: {false, func(t *testing.T, c *Client) ([]*Job, error) {
		return one(c.Imports.Excel(testCtx(t), 1, "new", UploadReader("in.xlsx", strings.NewReader("book")), nil))
	}},
	gen.OpCopyScenario: {false, func(t *testing.T, c *Client) ([]*Job, error) {
		return one(c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeSIM, nil))
	}},
	gen.OpImportExcelExisting: {true, func(t *testing.T, c *Client) ([]*Job, error) {
		return c.Imports.ExcelExisting(testCtx(t), 1, 2, "new", UploadReader("in.xlsx", strings.NewReader("book")), nil)
	}},
	gen.OpImportDatabase: {true, func(t *testing.T, c *Client) ([]*Job, error) {
		return c.Imports.Database(testCtx(t), 1, "new", []string{"A"}, testDB(), nil)
	}},
	gen.OpImportDatabaseExisting: {true, func(t *testing.T, c *Client) ([]*Job, error) {
		return c.Imports.DatabaseExisting(testCtx(t), 1, 2, "A", testDB(), nil)
	}},
}

func one(j *Job, err error) ([]*Job, error) {
	if j == nil {
		return nil, err
	}
	return []*Job{j}, err
}

// answering serves answer (an ApiImportResponse, in a list when list is
// set) to every request.
func answering(t *testing.T, answer string, list bool) *Client {
	if list {
		answer = "[" + answer + "]"
	}
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, answer)
	})
	return c
}

// An answer that says why the job could not start is an error naming the
// operation, with the server's reason, and no Job: none has id 0.
func TestJobStartRefusedIsAnError(t *testing.T) {
	const reason = "the workbook has no Projects sheet"
	for op, s := range jobStarters {
		t.Run(string(op), func(t *testing.T) {
			c := answering(t, `{"error":"`+reason+`","jobId":null}`, s.list)
			jobs, err := s.start(t, c)
			var startErr *StateError
			require.ErrorAs(t, err, &startErr)
			assert.Equal(t, StateError{Kind: "job", Operation: string(op), Outcome: Failed, Message: reason},
				StateError{Kind: startErr.Kind, ID: startErr.ID, Operation: startErr.Operation, State: startErr.State, Outcome: startErr.Outcome, Message: startErr.Message})
			assert.Equal(t, fmt.Sprintf("facade: %s: the job did not start: %s", op, reason), err.Error())
			assert.ErrorIs(t, err, ErrFailed)
			assert.Empty(t, jobs)
		})
	}
}

// An answer without a jobId, or with 0, is a MalformedError naming what
// the answer has instead, never a Job with id 0.
func TestJobStartWithoutJobIDIsMissingField(t *testing.T) {
	answers := map[string][]string{
		`{}`:                           nil,
		`{"jobId":0}`:                  nil,
		`{"jobId":null,"error":null}`:  nil,
		`{"error":"","id":7}`:          {"error", "id"},
		`{"job_id":7,"status":"DONE"}`: {"job_id", "status"},
	}
	for op, s := range jobStarters {
		for answer, has := range answers {
			t.Run(string(op)+"/"+answer, func(t *testing.T) {
				jobs, err := s.start(t, answering(t, answer, s.list))
				var missing *MalformedError
				require.ErrorAs(t, err, &missing)
				assert.Equal(t, &MalformedError{Operation: string(op), Model: "ApiImportResponse", Field: "jobId", Has: has}, missing)
				assert.ErrorIs(t, err, ErrMalformed)
				assert.Empty(t, jobs)
			})
		}
	}
}

// Of several jobs, those that started are handed out with the error of
// those that did not.
func TestJobsStartedComeWithTheOthersError(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `[{"jobId":7,"error":null},{"jobId":null,"error":"no such source scenario B"},{"jobId":0}]`)
	})
	jobs, err := c.Imports.Database(testCtx(t), 1, "new", []string{"A", "B", "C"}, testDB(), nil)
	require.Len(t, jobs, 1)
	assert.Equal(t, ids.JobID(7), jobs[0].JobID)
	var startErr *StateError
	require.ErrorAs(t, err, &startErr)
	assert.Equal(t, "no such source scenario B", startErr.Message)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorIs(t, err, ErrMalformed)
}

// The reason a job could not start does not quote the database password
// the call sent.
func TestJobStartReasonDoesNotQuoteThePassword(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `[{"jobId":null,"error":"login failed with password %s"}]`, testDBPassword)
	})
	_, err := c.Imports.Database(testCtx(t), 1, "new", []string{"A"}, testDB(), nil)
	var startErr *StateError
	require.ErrorAs(t, err, &startErr)
	for _, text := range errorTexts(err) {
		assert.NotContains(t, text, testDBPassword)
	}
	assert.Contains(t, err.Error(), "login failed with password "+redacted)
}

// A job status without its status stops the wait with a MalformedError
// naming what the answer has instead: the job's end could never be seen.
func TestJobStatusWithoutStatusStopsTheWait(t *testing.T) {
	for answer, has := range map[string][]string{
		`{"jobId":7,"progress":50}`:              {"jobId", "progress"},
		`{"jobId":7,"status":"","scenarioId":3}`: {"jobId", "scenarioId"},
		`{"state":"DONE"}`:                       {"state"},
	} {
		t.Run(answer, func(t *testing.T) {
			var polls atomic.Int32
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				polls.Add(1)
				fmt.Fprint(w, answer)
			}, WithClock(faketest.NewInstantClock()))
			_, err := c.Job(7).Wait(testCtx(t), &WaitOptions{MaxWait: time.Hour})
			var missing *MalformedError
			require.ErrorAs(t, err, &missing, "after %d polls", polls.Load())
			assert.Equal(t, &MalformedError{Operation: "getImportStatus", Model: "ApiImportScenarioStatus", Field: "status", Has: has}, missing)
			assert.False(t, errors.Is(err, ErrTimeout))
			assert.Equal(t, int32(1), polls.Load(), "polls")
		})
	}
}
