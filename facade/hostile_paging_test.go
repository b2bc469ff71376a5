package facade

import (
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/limits"
)

// rowsServer answers every page request with the row indexes pick gives
// for the request's number (from 1), skip and take, and counts requests.
type rowsServer struct {
	pick     func(n int32, skip, take int) []int64
	requests atomic.Int32
}

func (s *rowsServer) serve(w http.ResponseWriter, r *http.Request) {
	n := s.requests.Add(1)
	if n > 10_000 {
		http.Error(w, "rowsServer: the iterator does not stop", http.StatusBadRequest)
		return
	}
	skip, _ := strconv.Atoi(r.URL.Query().Get("skip"))
	take, _ := strconv.Atoi(r.URL.Query().Get("take"))
	page := gen.ApiStrictTableChartData{EntityList: []gen.Row{}, Type: "TABLE"}
	for _, i := range s.pick(n, skip, take) {
		page.EntityList = append(page.EntityList, gen.Row{Index: i, Cells: []gen.Cell{}})
	}
	_ = json.NewEncoder(w).Encode(page)
}

// pageOfRows is the rows from..from+n-1.
func pageOfRows(from, n int) []int64 { return seqInts(from, n) }

// pageRun is what one paging gave: the rows yielded before the error, the
// error, and the bytes allocated meanwhile.
type pageRun struct {
	rows  []int64
	err   error
	alloc uint64
}

func pageAll(t *testing.T, c *Client, opts *PageOptions) pageRun {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var run pageRun
	errs := 0
	for row, err := range c.Results.ChartTableRows(testCtx(t), 10101, 101, opts) {
		if err != nil {
			run.err = err
			errs++
			continue
		}
		run.rows = append(run.rows, row.Index)
	}
	runtime.ReadMemStats(&after)
	run.alloc = after.TotalAlloc - before.TotalAlloc
	assert.LessOrEqual(t, errs, 1, "an error is yielded once")
	return run
}

// Pages that alternate (A B A B …, or A B C A B C …) whatever the skip end
// the paging at the first page seen again, with a *MalformedError whose Cycle names it:
// the pages before it are yielded once, none twice.
func TestHostilePagesThatAlternate(t *testing.T) {
	for _, period := range []int{2, 3} {
		t.Run(strconv.Itoa(period), func(t *testing.T) {
			srv := &rowsServer{pick: func(n int32, _, take int) []int64 {
				return pageOfRows(int(n-1)%period*take, take)
			}}
			_, c := newStub(t, srv.serve)
			run := pageAll(t, c, &PageOptions{PageSize: 10})
			var cycle *MalformedError
			require.ErrorAs(t, run.err, &cycle)
			assert.ErrorIs(t, run.err, ErrMalformed)
			assert.Equal(t, &MalformedError{Operation: "getExperimentRunResultChartTableData", Cycle: &PageCycle{Skip: int64(period * 10), Earlier: 0, Edge: "first"}}, cycle)
			assert.Equal(t, seqInts(0, period*10), run.rows, "each page once, none after the cycle")
			assert.EqualValues(t, period+1, srv.requests.Load(), "stops at the first page seen again")
			assert.Less(t, run.alloc, uint64(4<<20), "bytes allocated")
		})
	}
}

// A server that ignores skip and answers the same page with a last item
// that changes each time is a cycle too: the first item is found again.
func TestHostilePageWhoseLastItemChanges(t *testing.T) {
	srv := &rowsServer{pick: func(_ int32, skip, take int) []int64 {
		rows := pageOfRows(0, take)
		rows[take-1] = 1000 + int64(skip)
		return rows
	}}
	_, c := newStub(t, srv.serve)
	run := pageAll(t, c, &PageOptions{PageSize: 10, Prefetch: 4})
	var cycle *MalformedError
	require.ErrorAs(t, run.err, &cycle)
	assert.Equal(t, int64(10), cycle.Cycle.Skip)
	assert.Equal(t, "first", cycle.Cycle.Edge)
	assert.Contains(t, run.err.Error(), "getExperimentRunResultChartTableData: paging stopped: the page at skip 10")
	assert.Equal(t, append(seqInts(0, 9), 1000), run.rows, "only the first page")
	assert.LessOrEqual(t, srv.requests.Load(), int32(2+4), "the cycle and at most a window ahead")
}

// A server that ignores skip and answers the same page with a first item
// that changes each time is a cycle too: the last item is found again.
func TestHostilePageWhoseFirstItemChanges(t *testing.T) {
	srv := &rowsServer{pick: func(_ int32, skip, take int) []int64 {
		rows := pageOfRows(0, take)
		rows[0] = 1000 + int64(skip)
		return rows
	}}
	_, c := newStub(t, srv.serve)
	run := pageAll(t, c, &PageOptions{PageSize: 10, Prefetch: 4, MaxRequests: 100})
	var cycle *MalformedError
	require.ErrorAs(t, run.err, &cycle)
	assert.Equal(t, &MalformedError{Operation: "getExperimentRunResultChartTableData", Cycle: &PageCycle{Skip: 10, Earlier: 0, Edge: "last"}}, cycle)
	assert.Equal(t, append([]int64{1000}, seqInts(1, 9)...), run.rows, "only the first page")
	assert.LessOrEqual(t, srv.requests.Load(), int32(2+4), "the cycle and at most a window ahead")
}

// A server whose pages never end, each new, is stopped by the request
// budget: every page within it is yielded, then a *limits.Error that names
// the budget and the skip it stopped before.
func TestHostileEndlessPagesMeetTheRequestBudget(t *testing.T) {
	for name, prefetch := range map[string]int{"one at a time": 0, "prefetch": 4} {
		t.Run(name, func(t *testing.T) {
			srv := &rowsServer{pick: func(_ int32, skip, take int) []int64 { return pageOfRows(skip, take) }}
			_, c := newStub(t, srv.serve)
			run := pageAll(t, c, &PageOptions{PageSize: 10, MaxRequests: 50, Prefetch: prefetch})
			var limit *limits.Error
			require.ErrorAs(t, run.err, &limit)
			assert.ErrorIs(t, run.err, limits.ErrLimit)
			assert.Equal(t, "PageOptions.MaxRequests", limit.Limit)
			assert.EqualValues(t, 50, limit.Max)
			assert.Contains(t, run.err.Error(), "getExperimentRunResultChartTableData: paging (stopped before the request at skip 500)")
			assert.Equal(t, seqInts(0, 500), run.rows, "every page within the budget, in order")
			assert.EqualValues(t, 50, srv.requests.Load(), "no request past the budget")
			assert.Less(t, run.alloc, uint64(16<<20), "bytes allocated")
		})
	}
}

// A cycle longer than the pages a paging remembers still ends, at the
// budget: the memory of recent pages does not grow with the cycle.
func TestHostileLongCycleEndsAtTheBudget(t *testing.T) {
	const period = 2 * recentPages
	srv := &rowsServer{pick: func(n int32, _, take int) []int64 {
		return pageOfRows(int(n-1)%period*take, take)
	}}
	_, c := newStub(t, srv.serve)
	run := pageAll(t, c, &PageOptions{PageSize: 2, MaxRequests: 3 * period})
	assert.ErrorIs(t, run.err, limits.ErrLimit)
	assert.EqualValues(t, 3*period, srv.requests.Load())
}

// The clamping server's last page answered again still ends the paging
// without error: a repeat of the previous page is the end of the list.
func TestClampedLastPageIsNotACycle(t *testing.T) {
	srv := &rowsServer{pick: func(_ int32, skip, take int) []int64 {
		return pageOfRows(min(skip, 20), take)
	}}
	_, c := newStub(t, srv.serve)
	run := pageAll(t, c, &PageOptions{PageSize: 10})
	require.NoError(t, run.err)
	assert.Equal(t, seqInts(0, 30), run.rows)
}

func TestMaxRequestsDefaultAndValidation(t *testing.T) {
	o, err := (&PageOptions{}).normalized(gen.OpGetExperimentRunResultChartTableData)
	require.NoError(t, err)
	assert.Equal(t, DefaultMaxRequests, o.MaxRequests)
	_, err = (&PageOptions{MaxRequests: -1}).normalized(gen.OpGetExperimentRunResultChartTableData)
	var v *ValidationError
	require.True(t, errors.As(err, &v), "%v", err)
	assert.Contains(t, err.Error(), "MaxRequests")
}

// A table whose pages legitimately start with equal rows is refused as a
// cycle by default; with KeepRepeatedEdges it is read whole, to its short
// last page.
func TestRepeatedEdgesKeptWhenAsked(t *testing.T) {
	table := [][]int64{{7, 1, 2}, {7, 3, 4}, {5}}
	srv := &rowsServer{pick: func(_ int32, skip, _ int) []int64 { return table[skip/3] }}
	_, c := newStub(t, srv.serve)
	run := pageAll(t, c, &PageOptions{PageSize: 3})
	assert.ErrorIs(t, run.err, ErrMalformed, "refused by default")

	run = pageAll(t, c, &PageOptions{PageSize: 3, KeepRepeatedEdges: true})
	require.NoError(t, run.err)
	assert.Equal(t, []int64{7, 1, 2, 7, 3, 4, 5}, run.rows, "every row, the equal edges included")
}
