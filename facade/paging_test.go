package facade

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableStub serves a table chart of total rows with skip/take. A clamping
// server answers the last page again for any skip past the end.
type tableStub struct {
	total    int
	clamp    bool
	echo     bool // name each answer after its request, so no two bodies are equal
	extra    int  // rows answered beyond take
	latency  time.Duration
	requests atomic.Int32
	limit    int32 // requests answered before a 400 that ends the iteration; 0: no limit
}

// overLimit is the message of the 400 a stub answers past its limit.
const overLimit = "tableStub: more requests than the test allows: the iterator does not stop"

func (s *tableStub) serve(w http.ResponseWriter, r *http.Request) {
	n := s.requests.Add(1)
	if s.limit > 0 && n > s.limit {
		http.Error(w, overLimit, http.StatusBadRequest)
		return
	}
	if s.latency > 0 {
		select {
		case <-time.After(s.latency):
		case <-r.Context().Done():
			return
		}
	}
	skip, _ := strconv.Atoi(r.URL.Query().Get("skip"))
	take, _ := strconv.Atoi(r.URL.Query().Get("take"))
	if s.clamp && skip >= s.total && s.total > 0 {
		skip = max(0, s.total-take)
	}
	page := gen.ApiStrictTableChartData{EntityList: []gen.Row{}, Id: 1, TotalEntityCount: int64(s.total), Type: "TABLE"}
	if s.echo {
		page.Id = int64(n)
	}
	for i := skip; i < min(skip+take+s.extra, s.total); i++ {
		page.EntityList = append(page.EntityList, gen.Row{Index: int64(i), Cells: []gen.Cell{}})
	}
	_ = json.NewEncoder(w).Encode(page)
}

func collectRows(t *testing.T, c *Client, opts *PageOptions) []int64 {
	t.Helper()
	var got []int64
	for row, err := range c.Results.ChartTableRows(testCtx(t), 10101, 101, opts) {
		require.NoError(t, err)
		got = append(got, row.Index)
	}
	return got
}

func seqInts(from, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(from + i)
	}
	return out
}

func TestPagingEdgeCases(t *testing.T) {
	cases := map[string]struct {
		total       int
		clamp       bool
		opts        PageOptions
		want        []int64
		maxRequests int32
		echo        bool
		extra       int
	}{
		"clamping server that changes other fields": {30, true, PageOptions{PageSize: 10}, seqInts(0, 30), 4, true, 0},
		"server answers more than take":             {100, false, PageOptions{PageSize: 10, MaxItems: 15}, seqInts(0, 15), 2, false, 10},
		"empty result":                              {0, false, PageOptions{PageSize: 10}, nil, 1, false, 0},
		"short last page":                           {25, false, PageOptions{PageSize: 10}, seqInts(0, 25), 3, false, 0},
		"exact multiple":                            {30, false, PageOptions{PageSize: 10}, seqInts(0, 30), 4, false, 0},
		"server clamps past the end":                {30, true, PageOptions{PageSize: 10}, seqInts(0, 30), 4, false, 0},
		"max items mid page":                        {100, false, PageOptions{PageSize: 10, MaxItems: 15}, seqInts(0, 15), 2, false, 0},
		"start at":                                  {30, false, PageOptions{PageSize: 10, StartAt: 25}, seqInts(25, 5), 1, false, 0},
		"default page size":                         {2500, false, PageOptions{}, seqInts(0, 2500), 3, false, 0},
		"prefetch exact multiple":                   {30, false, PageOptions{PageSize: 10, Prefetch: 3}, seqInts(0, 30), 6, false, 0},
		"prefetch clamping server":                  {30, true, PageOptions{PageSize: 10, Prefetch: 4}, seqInts(0, 30), 7, false, 0},
		"prefetch with max items":                   {1000, false, PageOptions{PageSize: 10, Prefetch: 4, MaxItems: 35}, seqInts(0, 35), 4, false, 0},
		"prefetch empty":                            {0, false, PageOptions{PageSize: 10, Prefetch: 4}, nil, 4, false, 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			stub := &tableStub{total: tc.total, clamp: tc.clamp, echo: tc.echo, extra: tc.extra, limit: tc.maxRequests + 20}
			_, c := newStub(t, stub.serve)
			got := collectRows(t, c, &tc.opts)
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, stub.requests.Load(), tc.maxRequests)
		})
	}
}

func TestPagesExposeWholePages(t *testing.T) {
	stub := &tableStub{total: 25}
	_, c := newStub(t, stub.serve)
	var sizes []int
	for page, err := range c.Results.ChartTableBatches(testCtx(t), 10101, 101, &PageOptions{PageSize: 10}) {
		require.NoError(t, err)
		assert.EqualValues(t, 25, page.TotalEntityCount)
		sizes = append(sizes, len(page.EntityList))
	}
	assert.Equal(t, []int{10, 10, 5}, sizes)
}

func TestBreakMidPageWithPrefetchStopsFetches(t *testing.T) {
	stub := &tableStub{total: 100000, latency: 5 * time.Millisecond}
	var ended atomic.Bool
	var sent, late atomic.Int32
	gate := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		sent.Add(1)
		if ended.Load() {
			late.Add(1)
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
	_, c := newStub(t, stub.serve, WithHTTPClient(gate))
	n := 0
	for _, err := range c.Results.ChartTableRows(testCtx(t), 10101, 101, &PageOptions{PageSize: 100, Prefetch: 4}) {
		require.NoError(t, err)
		if n++; n == 150 {
			break
		}
	}
	// The iterator returns only once every fetch it started has ended, so
	// no request can start from here on; goleak in TestMain checks that no
	// fetch goroutine is left either.
	ended.Store(true)
	c.CloseIdleConnections()
	assert.Zero(t, late.Load(), "no request starts after the loop ended")
	assert.LessOrEqual(t, sent.Load(), int32(2+4), "the two pages read and at most a window ahead")
}

// Cancelling the context mid-page ends the iteration with the context's
// error, yielded once, and no page after the one in hand is delivered.
func TestCancelledContextStopsPrefetch(t *testing.T) {
	stub := &tableStub{total: 100000}
	_, c := newStub(t, stub.serve)
	ctx, cancel := context.WithCancel(testCtx(t))
	defer cancel()
	var rows []int64
	var errs []error
	for row, err := range c.Results.ChartTableRows(ctx, 10101, 101, &PageOptions{PageSize: 10, Prefetch: 3}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if rows = append(rows, row.Index); len(rows) == 25 {
			cancel()
		}
	}
	require.Len(t, errs, 1, "the error is yielded once, and ends the iteration")
	assert.ErrorIs(t, errs[0], context.Canceled)
	assert.LessOrEqual(t, len(rows), 30, "at most the rest of the page in hand")
	assert.Equal(t, int64(len(rows)-1), rows[len(rows)-1], "rows in order, none skipped")
}

func TestPagingErrorIsYieldedOnce(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	errs := 0
	for _, err := range c.Results.ChartTableRows(testCtx(t), 10101, 101, &PageOptions{Prefetch: 2}) {
		require.ErrorIs(t, err, ErrNotFound)
		errs++
	}
	assert.Equal(t, 1, errs)
}

func TestPagingAgainstTheFake(t *testing.T) {
	_, c, _ := newVirtualFake(t, 10*time.Second)
	_, err := c.RunAndWait(testCtx(t), 10101, nil)
	require.NoError(t, err)
	got := collectRows(t, c, &PageOptions{PageSize: 7, Prefetch: 3})
	assert.Equal(t, seqInts(0, 50), got)
}

// serveBody answers every request with body.
func serveBody(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}
}

// Fields the spec does not name, at every level of a page, survive paging
// and encode back unchanged, so a row read, changed and sent back keeps them.
func TestPagedRowsKeepUnknownFields(t *testing.T) {
	const body = `{"entityList":[{"index":0,"cells":[{"type":"STRING","value":"x","unit":"kg"}],"rowKey":"k0"}],` +
		`"id":101,"totalEntityCount":1,"totalTechnicalRowCount":1,"type":"TABLE","columns":[{"id":"c","width":12}],"extra":{"a":[1,null]}}`
	_, c := newStub(t, serveBody(body))
	var pages []*gen.ApiStrictTableChartData
	for page, err := range c.Results.ChartTableBatches(testCtx(t), 10101, 101, nil) {
		require.NoError(t, err)
		pages = append(pages, page)
	}
	require.Len(t, pages, 1)
	page := pages[0]
	assert.JSONEq(t, `{"a":[1,null]}`, string(kept(t, page.AdditionalProperties, "extra")))
	assert.JSONEq(t, `[{"id":"c","width":12}]`, string(kept(t, page.AdditionalProperties, "columns")))
	row := page.EntityList[0]
	assert.JSONEq(t, `"k0"`, string(kept(t, row.AdditionalProperties, "rowKey")))
	assert.JSONEq(t, `"kg"`, string(kept(t, row.Cells[0].AdditionalProperties, "unit")))

	row.Cells[0].Value = ptr(gen.RawJSON(`"y"`))
	sent, err := json.Marshal(row)
	require.NoError(t, err)
	assert.JSONEq(t, `{"index":0,"cells":[{"type":"STRING","value":"y","unit":"kg"}],"rowKey":"k0"}`, string(sent))
}

// An answer of null is an empty page: nothing is yielded and paging ends.
func TestNullPageEndsPaging(t *testing.T) {
	_, c := newStub(t, serveBody(`null`))
	for _, err := range c.Results.ChartTableRows(testCtx(t), 10101, 101, nil) {
		t.Fatalf("yielded from a null page (err %v)", err)
	}
	for _, err := range c.Results.ResultOptions(testCtx(t), 10101, nil) {
		t.Fatalf("yielded from a null list (err %v)", err)
	}
}

// A value of another type than the spec's does not fail the page: the row
// keeps its zero value and the raw value under the field's name, and the
// difference is reported with its model path.
func TestRetypedValueKeepsThePage(t *testing.T) {
	_, c := newStub(t, serveBody(`{"entityList":[{"index":0,"cells":[]},{"index":"one","cells":[]}],"totalEntityCount":2}`))
	var rows []gen.Row
	for row, err := range c.Results.ChartTableRows(testCtx(t), 10101, 101, nil) {
		require.NoError(t, err)
		rows = append(rows, row)
	}
	require.Len(t, rows, 2)
	assert.Zero(t, rows[1].Index)
	assert.JSONEq(t, `"one"`, string(kept(t, rows[1].AdditionalProperties, "index")))
	found := slices.ContainsFunc(c.Drift(), func(f drift.Finding) bool {
		return f.Kind == drift.KindType && f.Path == "Row.index" && f.Operation == "getExperimentRunResultChartTableData"
	})
	assert.True(t, found, "%+v", c.Drift())
}

// takesServer serves total rows and records the take of every request.
type takesServer struct {
	total int
	mu    sync.Mutex
	takes []int
}

func (s *takesServer) serve(w http.ResponseWriter, r *http.Request) {
	skip, _ := strconv.Atoi(r.URL.Query().Get("skip"))
	take, _ := strconv.Atoi(r.URL.Query().Get("take"))
	s.mu.Lock()
	s.takes = append(s.takes, take)
	s.mu.Unlock()
	page := gen.ApiStrictTableChartData{EntityList: []gen.Row{}, TotalEntityCount: int64(s.total), Type: "TABLE"}
	for i := skip; i < min(skip+take, s.total); i++ {
		page.EntityList = append(page.EntityList, gen.Row{Index: int64(i), Cells: []gen.Cell{}})
	}
	_ = json.NewEncoder(w).Encode(page)
}

func (s *takesServer) Takes() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.takes)
}

// The last request asks for no more than MaxItems leaves: its take is cut,
// so the server sends no rows that would be dropped.
func TestLastRequestIsCutToMaxItems(t *testing.T) {
	stub := &takesServer{total: 100}
	_, c := newStub(t, stub.serve)
	var sizes []int
	for page, err := range c.Results.ChartTableBatches(testCtx(t), 10101, 101, &PageOptions{PageSize: 10, MaxItems: 25}) {
		require.NoError(t, err)
		sizes = append(sizes, len(page.EntityList))
	}
	assert.Equal(t, []int{10, 10, 5}, stub.Takes(), "the takes on the wire")
	assert.Equal(t, []int{10, 10, 5}, sizes, "the page iterator's pages")
}

// Both kinds of iterator copy their options when they are made: changing
// the options before ranging changes nothing.
func TestIteratorsCopyTheirOptionsWhenMade(t *testing.T) {
	stub := &takesServer{total: 100}
	_, c := newStub(t, stub.serve)
	opts := &PageOptions{PageSize: 10, MaxItems: 15}
	rows := c.Results.ChartTableRows(testCtx(t), 10101, 101, opts)
	pages := c.Results.ChartTableBatches(testCtx(t), 10101, 101, opts)
	*opts = PageOptions{PageSize: 3, MaxItems: 4, StartAt: 50}

	var got []int64
	for row, err := range rows {
		require.NoError(t, err)
		got = append(got, row.Index)
	}
	assert.Equal(t, seqInts(0, 15), got, "the rows of the options the iterator was made with")
	n := 0
	for page, err := range pages {
		require.NoError(t, err)
		n += len(page.EntityList)
	}
	assert.Equal(t, 15, n)
	assert.Equal(t, []int{10, 5, 10, 5}, stub.Takes())
}

// kept returns the property name of props, failing the test when there is
// none.
func kept(t *testing.T, props extra.Properties, name string) gen.RawJSON {
	t.Helper()
	v, ok := props.Get(name)
	require.True(t, ok, "no property %q in %v", name, props)
	return v
}
