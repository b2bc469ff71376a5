package resultdata_test

import (
	"context"
	"fmt"
	"iter"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/resultdata"
)

// Result reads every page of a result from the server, in order, the rows
// of each page as its workbook has them, marked with the page's id and
// name; each page is reported downloading, reading and done.
func TestResultReadsEveryPage(t *testing.T) {
	c := newFake(t, 3, 2, 4)
	result := runResult(t, c)
	var stages []string
	opts := &resultdata.ResultOptions{Progress: func(p resultdata.PageProgress) {
		s := fmt.Sprintf("%d/%d %s %s", p.Index, p.Total, p.Page.Name, p.Stage)
		if p.Stage == resultdata.Done {
			s += fmt.Sprintf(" %d rows", p.Rows)
		}
		if len(stages) == 0 || stages[len(stages)-1] != s {
			stages = append(stages, s)
		}
	}}
	perPage := map[string]int{}
	for row, err := range resultdata.Result(testCtx(t), c, result, opts) {
		require.NoError(t, err)
		assert.Equal(t, result, row.Chart.ResultID)
		perPage[fmt.Sprintf("%d %s", row.Chart.PageID, row.Chart.Page)]++
	}
	first := fmt.Sprint(pageNumber(t, c, result, 1))
	assert.Equal(t, map[string]int{first + " Overview": 28, fmt.Sprint(pageNumber(t, c, result, 2)) + " Costs": 28,
		fmt.Sprint(pageNumber(t, c, result, 3)) + " Service": 28}, perPage, "a table of 4 rows and a graph of 24 points per page")
	assert.Equal(t, []string{
		"1/3 Overview downloading", "1/3 Overview reading", "1/3 Overview done 28 rows",
		"2/3 Costs downloading", "2/3 Costs reading", "2/3 Costs done 28 rows",
		"3/3 Service downloading", "3/3 Service reading", "3/3 Service done 28 rows",
	}, stages)
}

// An error names the page, and ends the iteration.
func TestResultErrorNamesThePage(t *testing.T) {
	c := newFake(t, 2, 1, 2)
	var err error
	for _, e := range resultdata.Result(testCtx(t), c, 999999, nil) {
		err = e
	}
	require.Error(t, err)
	assert.Contains(t, err.Error(), "999999")

	result := runResult(t, c)
	next, stop := iter.Pull2(resultdata.Result(testCtx(t), c, result, nil))
	defer stop()
	_, err, ok := next()
	require.True(t, ok)
	require.NoError(t, err)
}

// A table chart read through the JSON operations yields the rows its
// page's workbook holds, typed by their JSON values.
func TestReadTableAsTheWorkbook(t *testing.T) {
	c := newFake(t, 2, 1, 6)
	result := runResult(t, c)
	fromBook, _ := read(t, exportPage(t, c, result, pageNumber(t, c, result, 2)))
	charts, err := c.Results.StatisticsPageCharts(testCtx(t), 10101, 83002) // the statistics page Costs: its charts are those of the chart operations
	require.NoError(t, err)
	chartID := charts[0].Id
	chart := resultdata.Chart{ResultID: result, PageID: 2, Page: "Costs", Sheet: "Costs table 1", ChartID: chartID}
	var rows []resultdata.Row
	var notes []resultdata.Note
	src := resultdata.ChartTable(c, 10101, chartID, nil)
	for row, err := range resultdata.ReadTable(testCtx(t), src, chart, &resultdata.Options{Notes: func(n resultdata.Note) { notes = append(notes, n) }}) {
		require.NoError(t, err)
		rows = append(rows, row.Clone())
	}
	assert.Empty(t, notes)
	require.Len(t, rows, 6)
	assert.Equal(t, values(fromBook), values(rows))
	assert.Equal(t, []string{"column1:text", "column2:text", "column3:number", "column4:number"}, columns(rows[0].Chart),
		"the real table data names no columns: they are numbered, and typed by their values")
	assert.Equal(t, []string{"Id:text", "Name:text", "Amount:number", "Count:number"}, columns(fromBook[0].Chart), "the workbook names them")
	assert.Equal(t, chartID, rows[0].Chart.ChartID)
	assert.Zero(t, rows[0].SheetRow)
}

// A table that holds no rows, as every table of the real server did, is
// reported.
func TestReadTableWithoutRows(t *testing.T) {
	var notes []resultdata.Note
	src := tableOf(resultdata.TableBatch{Columns: []string{"Site", "Cost"}})
	for _, err := range resultdata.ReadTable(testCtx(t), src, resultdata.Chart{Sheet: "Costs"}, &resultdata.Options{Notes: func(n resultdata.Note) { notes = append(notes, n) }}) {
		require.NoError(t, err)
		t.Fatal("a row of an empty table")
	}
	assert.Equal(t, []string{"no-rows (read) : the table holds no rows"}, noteTexts(notes))
}

type tableOf resultdata.TableBatch

func (t tableOf) Batches(context.Context) iter.Seq2[resultdata.TableBatch, error] {
	return func(yield func(resultdata.TableBatch, error) bool) { yield(resultdata.TableBatch(t), nil) }
}

// stepRecorder records what a client's observer is told of the steps, and
// in which step each page's export is called.
type stepRecorder struct {
	facade.NopObserver
	mu     sync.Mutex
	events []string
}

type stepIndex struct{}

func (r *stepRecorder) add(e string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}

func (r *stepRecorder) StepStart(ctx context.Context, s facade.StepInfo) context.Context {
	r.add(fmt.Sprintf("start %s %d %s", s.Kind, s.Index, s.Name))
	return context.WithValue(ctx, stepIndex{}, s.Index)
}

func (r *stepRecorder) StepEnd(_ context.Context, s facade.StepInfo, err error) {
	r.add(fmt.Sprintf("end %d %v", s.Index, err))
}

func (r *stepRecorder) CallStart(ctx context.Context, call facade.CallInfo) context.Context {
	if call.Operation == string(gen.OpExportDashboardPage) {
		r.add(fmt.Sprintf("export in step %v", ctx.Value(stepIndex{})))
	}
	return ctx
}

// Each page read is a step of the client's observer, as each page of a
// dashboard export is: begun before its download, ended once its rows were
// yielded, or when the loop stopped.
func TestResultPagesAreSteps(t *testing.T) {
	srv, clk := faketest.NewInstantServer(t, fake.WithRunDuration(0), fake.WithResultSize(2, 1, 2))
	var obs stepRecorder
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk), facade.WithObserver(&obs))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	result := runResult(t, c)
	for _, err := range resultdata.Result(testCtx(t), c, result, nil) {
		require.NoError(t, err)
	}
	assert.Equal(t, []string{
		"start dashboard.page 1 Overview", "export in step 1", "end 1 <nil>",
		"start dashboard.page 2 Costs", "export in step 2", "end 2 <nil>",
	}, obs.events)

	obs.events = nil
	for range resultdata.Result(testCtx(t), c, result, nil) {
		break
	}
	assert.Equal(t, []string{"start dashboard.page 1 Overview", "export in step 1", "end 1 <nil>"}, obs.events, "a loop stopped ends its page's step")
}
