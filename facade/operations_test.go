package facade

import (
	"io"
	"iter"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// opCase calls one operation through the facade method tagged with it.
// prepare runs off the record (it may call other operations to set the
// stage) and returns the call that is measured.
type opCase struct {
	method  string // Service.Method, the method tagged //scm:operation with the operation
	prepare func(t *testing.T, e *opEnv) func() error
}

// TestEveryOperationThroughItsMethod calls each operation of the spec
// through its facade method against a fresh fake and checks, on the wire,
// that exactly one request of that operation arrived, that the request's
// context names it and that every answer of the call validates strictly
// against the spec (discriminators ignored, as Prism validates). For a state-changing operation it then loses the
// response after the handler ran: the call must fail as may-have-been-
// applied without sending the request again.
func TestEveryOperationThroughItsMethod(t *testing.T) {
	cases := operationCases()
	byOp, _ := taggedMethods(t)
	workbook := testWorkbook(t)
	for id := range cases {
		_, ok := gen.LookupOperation(id)
		assert.True(t, ok, "a case for %q, which the spec does not have", id)
	}
	for _, op := range gen.Operations() {
		t.Run(op.ID, func(t *testing.T) {
			t.Parallel()
			if len(byOp[op.ID]) != 1 {
				t.Skipf("%s has no facade method to call: TestEveryOperationHasAMethod asks for it", op.ID)
			}
			tc, ok := cases[gen.OperationID(op.ID)]
			if !ok {
				t.Fatalf("%s has no case: add one keyed by gen.%s to %s in facade/operations_cases_test.go, calling %s",
					op.ID, opConstant(op.ID), areaCases(op.Tag), byOp[op.ID][0])
			}
			require.Equal(t, []string{tc.method}, byOp[op.ID], "the case must call the method tagged //scm:operation %s", op.ID)
			t.Run("sent once", func(t *testing.T) {
				e := newOpEnv(t, workbook)
				call := tc.prepare(t, e)
				before := e.mark(op)
				require.NoError(t, call())
				e.assertSentOnce(t, op, before)
			})
			if op.ChangesState {
				t.Run("response lost", func(t *testing.T) {
					e := newOpEnv(t, workbook)
					call := tc.prepare(t, e)
					before := e.mark(op)
					e.srv.InjectFault(op.ID, fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 1})
					assert.ErrorIs(t, call(), ErrMayHaveBeenApplied)
					assert.Equal(t, 1, e.srv.Calls(op.ID)-before.calls, "requests of %s: the request must not be resent", op.ID)
					assert.Equal(t, 1, e.srv.Applied(op.ID)-before.applied, "times %s was applied", op.ID)
				})
			}
		})
	}
}

// opEnv is a fresh fake with the fixture, and a client whose transport
// records every request.
type opEnv struct {
	srv      *fake.Server
	c        *Client
	rec      *opRecorder
	routes   map[string]string // "METHOD /api/v1/path" → operationId
	fx       opFixture
	workbook []byte
}

func newOpEnv(t *testing.T, workbook []byte) *opEnv {
	t.Helper()
	srv := fake.NewServer(fake.WithAPIKeys(testKey), fake.WithLicense(), fake.WithRunDuration(0),
		fake.WithClock(fake.NewVirtualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))))
	t.Cleanup(srv.Close)
	rec := &opRecorder{base: srv.Client().Transport}
	c := newTestClient(t, srv.URL, WithHTTPClient(&http.Client{Transport: rec}))
	e := &opEnv{srv: srv, c: c, rec: rec, routes: operationRoutes(t, srv.URL), workbook: workbook}
	e.fx = newOpFixture(t, c)
	return e
}

// operationRoutes maps each operation's method and full path to its id.
func operationRoutes(t *testing.T, base string) map[string]string {
	u, err := url.Parse(base)
	require.NoError(t, err)
	routes := map[string]string{}
	for _, op := range gen.Operations() {
		key := op.Method + " " + u.Path + op.Path
		require.NotContains(t, routes, key, "two operations share a route")
		routes[key] = op.ID
	}
	return routes
}

// opMark is where the counters stood before the measured call.
type opMark struct{ calls, applied, sent int }

func (e *opEnv) mark(op gen.Operation) opMark {
	return opMark{calls: e.srv.Calls(op.ID), applied: e.srv.Applied(op.ID), sent: e.rec.count()}
}

// assertSentOnce checks the requests sent since before: one of op reached
// the server and left the client, and every request's context names the
// operation its method and path belong to.
func (e *opEnv) assertSentOnce(t *testing.T, op gen.Operation, before opMark) {
	t.Helper()
	assert.Equal(t, 1, e.srv.Calls(op.ID)-before.calls, "requests of %s that reached the server", op.ID)
	if op.ChangesState {
		assert.Equal(t, 1, e.srv.Applied(op.ID)-before.applied, "times %s was applied", op.ID)
	}
	ofOp := 0
	for _, r := range e.rec.since(before.sent) {
		route, ok := e.routes[r.method+" "+r.path]
		require.True(t, ok, "%s %s is no operation's route", r.method, r.path)
		assert.Equal(t, route, r.op, "the operation in the context of %s %s", r.method, r.path)
		assert.NoError(t, r.invalid, "the answer to %s %s validates strictly against the spec", r.method, r.path)
		if route == op.ID {
			ofOp++
		}
	}
	assert.Equal(t, 1, ofOp, "requests of %s that left the client", op.ID)
}

// sentRequest is what the opRecorder saw of one request.
type sentRequest struct {
	method, path string
	op           string // OperationFromContext, "" when absent
	invalid      error  // why the answer does not validate strictly against the spec
}

// opRecorder is a transport that records each request with the operation
// its context names, the way a tracing transport would read it.
type opRecorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	sent []sentRequest
}

// RoundTrip records the request and validates its answer against the
// strict spec (strictAnswerError), as Prism's proxy would.
func (r *opRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	op, _ := OperationFromContext(req.Context())
	r.mu.Lock()
	i := len(r.sent)
	r.sent = append(r.sent, sentRequest{method: req.Method, path: req.URL.Path, op: op})
	r.mu.Unlock()
	resp, err := r.base.RoundTrip(req)
	if err != nil || op == "" {
		return resp, err
	}
	invalid := strictAnswerError(op, resp)
	r.mu.Lock()
	r.sent[i].invalid = invalid
	r.mu.Unlock()
	return resp, nil
}

func (r *opRecorder) CloseIdleConnections() {
	if c, ok := r.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

func (r *opRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sent)
}

func (r *opRecorder) since(n int) []sentRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sentRequest(nil), r.sent[n:]...)
}

// Running configurations the fixture runs: of scenario 101 (Baseline, GFA)
// and 102 (Network Design, NO).
const (
	opRcGFA        = 10101
	opRcNO         = 10204
	opRcVariation  = 10105
	opRcComparison = 10106
	opRcSSE        = 10207
	opRcLastMile   = 10109
	// opRcUnrun is the simulation of scenario 103 (Simulation), which the
	// fixture never runs.
	opRcUnrun = 10303
)

// opFixture is the state every case starts from: finished runs of the
// experiments whose results are read, a variation with selected cells, a
// queued copy job and selected last mile orders.
type opFixture struct {
	runs      map[ids.RcID]ids.RunID              // rcId → runId of its finished run
	results   map[ids.RcID]ids.ExperimentResultID // rcId → experimentResultId
	variation ids.VariationID
	job       ids.JobID
}

func newOpFixture(t *testing.T, c *Client) opFixture {
	t.Helper()
	fx := opFixture{runs: map[ids.RcID]ids.RunID{}, results: map[ids.RcID]ids.ExperimentResultID{}}
	// The client waits on real time, the fake's runs take none and no
	// other client starts one: an end is settled as soon as it is read
	// twice.
	settled := &WaitOptions{StaleWindow: time.Millisecond}
	for _, rc := range []ids.RcID{opRcGFA, opRcNO, opRcComparison, opRcSSE, opRcLastMile} {
		run, err := c.Experiments.Start(testCtx(t), rc, nil)
		require.NoError(t, err)
		st, err := run.Wait(testCtx(t), settled)
		require.NoError(t, err)
		require.Equal(t, RunFinished, RunStateValue(st), "rcId %d", rc)
		entry := EvidenceOf(run).Entry
		require.NotNil(t, entry, "rcId %d is listed", rc)
		fx.runs[rc], fx.results[rc] = entry.Id, entry.RcId // a listed run's rcId is its result's id
	}
	// A VARIATION run is never listed: its result id comes from a
	// synchronous run, and its run id is one less, as for listed runs.
	out, err := c.Experiments.RunSync(testCtx(t), opRcVariation)
	require.NoError(t, err)
	fx.runs[opRcVariation], fx.results[opRcVariation] = ids.RunID(out.ExperimentResultId-1), out.ExperimentResultId
	require.Len(t, fx.runs, 6)
	_, err = c.Variations.UpdateSelection(testCtx(t), opRcVariation, ids.NewVariation, siteCapacity, rowsSelection(1, 2))
	require.NoError(t, err)
	v, err := c.Variations.Create(testCtx(t), opRcVariation, siteCapacityVariation())
	require.NoError(t, err)
	fx.variation = *v.Id
	job, err := c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeNO, nil)
	require.NoError(t, err)
	fx.job = job.JobID
	_, err = c.LastMile.SelectOrders(testCtx(t), opRcLastMile, []int64{0, 1, 2, 3, 4, 5, 6})
	require.NoError(t, err)
	return fx
}

func rowsSelection(rows ...int64) gen.ApiBaseIndexSelectionValueRequest {
	return gen.ApiBaseIndexSelectionValueRequest{Selections: []gen.ApiIndexColumnSelection{{RowIndexes: rows}}}
}

func siteCapacityVariation() gen.ApiVariation {
	v := siteCapacity.Variation(gen.VariationTypeLINKLIST, nil)
	v.Name = ptr("Site period")
	return v
}

// result drops a method's value and keeps its error.
func result[T any](_ T, err error) error { return err }

// firstItem drives an item iterator for its first item only, so for one
// page.
func firstItem[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		return err
	}
	return nil
}

// drained reads a download to its end and closes it.
func drained(d *Download, err error) error {
	if err != nil {
		return err
	}
	defer d.Close()
	_, err = d.WriteTo(io.Discard)
	return err
}
