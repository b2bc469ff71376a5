package facade

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/testkit/recorded"
)

// recordedServer replays what a real server was recorded answering
// (internal/testkit/recorded), not the fake, in the relations the recordings show
// between a run and its ids.
type recordedServer struct{ *recorded.Server }

func newRecorded(t testing.TB, opts ...Option) (*recordedServer, *Client) {
	t.Helper()
	rs := &recordedServer{recorded.NewServer(t)}
	return rs, newTestClient(t, rs.URL, append([]Option{WithClock(faketest.NewInstantClock())}, opts...)...)
}

// operationAt finds the operation of a method and path.
func operationAt(method, path string) (gen.OperationID, bool) {
	return recorded.OperationAt(method, path)
}

func (rs *recordedServer) lastQuery(op gen.OperationID) string             { return rs.LastQuery(op) }
func (rs *recordedServer) calls(op gen.OperationID) int                    { return rs.Calls(op) }
func (rs *recordedServer) lastForm(op gen.OperationID) map[string][]string { return rs.LastForm(op) }
func (rs *recordedServer) lastBody(op gen.OperationID) string              { return rs.LastBody(op) }

// exportEveryPage is the loop of a real client: every dashboard page of a
// result, each read whole.
func exportEveryPage(ctx context.Context, c *Client, resultID ids.ExperimentResultID) ([][]byte, error) {
	pages, err := c.Dashboards.Pages(ctx, resultID)
	if err != nil {
		return nil, err
	}
	var books [][]byte
	for _, p := range pages {
		d, err := c.Dashboards.ExportPage(ctx, resultID, p.Id)
		if err != nil {
			return nil, err
		}
		b, err := d.ReadAll(nil)
		if err != nil {
			return nil, err
		}
		books = append(books, b)
	}
	return books, nil
}

// The workflow of a real client against what the real server answered:
// start a run and wait for it, run synchronously, read the result's pages,
// export the dashboard, import and wait, and a denied call.
func TestRecordedAnswersDriveTheFacade(t *testing.T) {
	t.Run("Start, Wait, ResultID, export", func(t *testing.T) {
		rs, c := newRecorded(t)
		run, err := c.Experiments.Start(testCtx(t), 5101, nil)
		require.NoError(t, err)
		assert.EqualValues(t, 5101, EvidenceOf(run).StartAnswer.AnimationModelId)
		st, err := run.Wait(testCtx(t), nil)
		require.NoError(t, err)
		assert.True(t, *st.Finished)
		assert.GreaterOrEqual(t, rs.calls(gen.OpGetExperimentStatus)-1, 4, "the stale end, the run under way, its end, and a read a stale window later that settles it (after one read before the start)")
		assert.Equal(t, EndSeenUnderWay, EvidenceOf(run).End)
		id, err := run.ResultID()
		require.NoError(t, err)
		assert.EqualValues(t, 90101, id, "the new run's result, not the last listed (90021)")
		books, err := exportEveryPage(testCtx(t), c, id)
		require.NoError(t, err)
		assert.Len(t, books, 2)
		assert.Equal(t, "experimentResultId=90101&pageId=90106", rs.lastQuery(gen.OpExportDashboardPage), "pages from experimentResultId+2")
	})
	t.Run("RunSync success", func(t *testing.T) {
		_, c := newRecorded(t)
		out, err := c.Experiments.RunSync(testCtx(t), 5101)
		require.NoError(t, err)
		assert.EqualValues(t, 90101, out.ExperimentResultId)
		latest, err := c.Experiments.LatestRun(testCtx(t), 5101)
		require.NoError(t, err)
		assert.Equal(t, out.ExperimentResultId, latest.RcId, "the run is listed under its result id")
		assert.Equal(t, ids.RunID(out.ExperimentResultId-1), latest.Id)
		assert.Equal(t, "Statistics 3", latest.Name)
	})
	t.Run("RunSync HAS_ERRORS", func(t *testing.T) {
		_, c := newRecorded(t)
		out, err := c.Experiments.RunSync(testCtx(t), 5104)
		assert.Nil(t, out, "the rcId the server puts in experimentResultId is no result")
		var se *StateError
		require.ErrorAs(t, err, &se)
		assert.ErrorIs(t, err, ErrFailed)
		assert.Equal(t, "validation HAS_ERRORS", se.State)
		assert.Len(t, se.Details, 301, "every message is kept")
		assert.Len(t, se.Validation, 301)
		assert.Equal(t, DetailGroup{Detail: "Product is not defined (DC Berlin)", Count: 90}, se.Groups()[1])
		assert.Less(t, len(err.Error()), 600, "the message stays short: %s", err)
		assert.Contains(t, err.Error(), "Product is not defined (DC Berlin) (90 times)")
		assert.Contains(t, err.Error(), "and 2 more (301 in all)")
	})
	t.Run("result pages", func(t *testing.T) {
		_, c := newRecorded(t)
		var ids []string
		for p, err := range c.Results.Result(testCtx(t), 5101, nil) {
			require.NoError(t, err)
			ids = append(ids, p.Page.Id)
		}
		assert.Equal(t, []string{"93424", "93431", "93438"}, ids)
	})
	t.Run("import and wait", func(t *testing.T) {
		rs, c := newRecorded(t)
		st, err := c.ImportExcelAndWait(testCtx(t), 12, "Variant", UploadReader("variant", strings.NewReader("PK")), nil, nil)
		require.NoError(t, err)
		assert.EqualValues(t, 1207, *st.ScenarioId)
		assert.Equal(t, []string{"true"}, rs.lastForm(gen.OpImportExcel)["needToImportExperiments"])
		assert.Equal(t, "jobId=78", rs.lastQuery(gen.OpGetImportStatus))
	})
	t.Run("denied", func(t *testing.T) {
		rs, c := newRecorded(t)
		_, err := c.Scenarios.ConvertSSEResult(testCtx(t), 90011, false, nil)
		assert.ErrorIs(t, err, ErrForbidden)
		assert.NotErrorIs(t, err, ErrServer, "classed by its message: one decision")
		assert.NotErrorIs(t, err, ErrMayHaveBeenApplied, "access is denied before the server acts")
		assert.ErrorContains(t, err, "Access is denied")
		assert.ErrorContains(t, err, "the id may be wrong")
		assert.Equal(t, 1, rs.calls(gen.OpConvertSSEResultToScenario))
	})
}

// A wait never yields an earlier run's end or result, whatever the status
// shows right after the start: the recorded server answers the last run's
// end first.
func TestWaitNeverTakesAnEarlierRun(t *testing.T) {
	t.Run("the run ends unseen: the runs list tells", func(t *testing.T) {
		rs, c := newRecorded(t)
		rs.RunsEndUnseen()
		run, err := c.Experiments.Start(testCtx(t), 5101, nil)
		require.NoError(t, err)
		first, err := run.Poll(testCtx(t))
		require.NoError(t, err)
		assert.True(t, *first.Finished, "the first read shows the last run's end")
		assert.False(t, run.Done(), "and is not taken as this run's")
		_, err = run.Wait(testCtx(t), nil)
		require.NoError(t, err)
		assert.Equal(t, EndListed, EvidenceOf(run).End)
		id, err := run.ResultID()
		require.NoError(t, err)
		assert.EqualValues(t, 90101, id)
	})
	t.Run("a result is not listed before the run ends", func(t *testing.T) {
		_, c := newRecorded(t)
		run, err := c.Experiments.Start(testCtx(t), 5101, nil)
		require.NoError(t, err)
		_, err = run.ResultID()
		assert.ErrorIs(t, err, ErrValidation, "the last listed result (90021) is not this run's")
		assert.ErrorContains(t, err, "not decided yet")
	})
	t.Run("a VARIATION run is never listed", func(t *testing.T) {
		_, c := newRecorded(t)
		run, err := c.Experiments.Start(testCtx(t), 5102, nil)
		require.NoError(t, err)
		_, err = run.Wait(testCtx(t), nil)
		require.NoError(t, err)
		assert.Equal(t, EndSeenUnderWay, EvidenceOf(run).End)
		_, err = run.ResultID()
		assert.ErrorIs(t, err, ErrValidation)
		assert.ErrorContains(t, err, "RunSync")
	})
	t.Run("a run resumed from its rcId alone has no result of its own", func(t *testing.T) {
		_, c := newRecorded(t)
		_, err := c.Run(5101).ResultID()
		assert.ErrorIs(t, err, ErrValidation)
	})
	t.Run("a run resumed from its token tells its result", func(t *testing.T) {
		_, c := newRecorded(t)
		run, err := c.Experiments.Start(testCtx(t), 5101, nil)
		require.NoError(t, err)
		resumed, err := c.ResumeRunFromToken(must(run.ResumeToken())(t))
		require.NoError(t, err)
		_, err = resumed.Wait(testCtx(t), nil)
		require.NoError(t, err)
		id, err := resumed.ResultID()
		require.NoError(t, err)
		assert.EqualValues(t, 90101, id)
	})
}
