package facade

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func testDB() gen.DBConnectionProperties {
	return gen.DBConnectionProperties{Host: ptr("db.internal"), User: ptr("scm"), Password: ptr(testDBPassword), Type: ptr("POSTGRESQL")}
}

// matrixTimeout is the attempt timeout of the fault matrix, on the
// virtual clock of its watchdog (see watchTime): it fires when the fake
// says it stalls, never because a machine is slow.
const matrixTimeout = time.Minute

// matrixClass is an operation class of the fault matrix: the operation the
// fault is injected into, and prepare, which makes what the call needs
// (a result, a job, a run) through a working client and returns the call.
type matrixClass struct {
	op      gen.OperationID
	prepare func(t *testing.T, c *Client) func(ctx context.Context, c *Client) error
	// requests is how many requests of op the call sends without a fault;
	// zero means it is counted on a call without one.
	requests int
}

func (m matrixClass) changesState() bool {
	op, _ := gen.LookupOperation(m.op)
	return op.ChangesState
}

var matrixClasses = map[string]matrixClass{
	"JSON read": {op: gen.OpGetScenarios, prepare: func(*testing.T, *Client) func(context.Context, *Client) error {
		return func(ctx context.Context, c *Client) error { _, err := c.Scenarios.List(ctx, 1); return err }
	}},
	"paged read": {op: gen.OpGetVariableParameterObjects, prepare: func(*testing.T, *Client) func(context.Context, *Client) error {
		return func(ctx context.Context, c *Client) error {
			n := 0
			for _, err := range c.Variations.Objects(ctx, 101, "ProductData_SIM_FULL", &PageOptions{PageSize: 4}) {
				if err != nil {
					return err
				}
				n++
			}
			if n <= 4 {
				return io.ErrShortBuffer // the read must span pages
			}
			return nil
		}
	}},
	"download": {op: gen.OpExportDashboardPage, prepare: func(t *testing.T, c *Client) func(context.Context, *Client) error {
		result := runSync(t, c)
		return func(ctx context.Context, c *Client) error {
			d, err := c.Dashboards.ExportPage(ctx, result, ids.PageID(result+2)) // the first page is experimentResultId+2
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if _, err := d.WriteTo(&buf); err != nil {
				return err
			}
			return openWorkbook(buf.Bytes())
		}
	}},
	"whole download": {op: gen.OpExportDashboardPage, prepare: func(t *testing.T, c *Client) func(context.Context, *Client) error {
		result := runSync(t, c)
		return func(ctx context.Context, c *Client) error {
			d, err := c.Dashboards.ExportPage(ctx, result, ids.PageID(result+2)) // the first page is experimentResultId+2
			if err != nil {
				return err
			}
			b, err := d.ReadAll(nil)
			if err != nil {
				return err
			}
			return openWorkbook(b)
		}
	}},
	"multipart upload": {op: gen.OpImportExcel, prepare: func(t *testing.T, _ *Client) func(context.Context, *Client) error {
		path := writeTemp(t, "in.xlsx", smallWorkbook(t)) // a file is opened again for each attempt
		return func(ctx context.Context, c *Client) error {
			_, err := c.Imports.Excel(ctx, 1, "matrix", UploadFile(path), nil)
			return err
		}
	}},
	"state-changing GET": {op: gen.OpRunExperiment, prepare: func(*testing.T, *Client) func(context.Context, *Client) error {
		return func(ctx context.Context, c *Client) error { _, err := c.Experiments.Start(ctx, 10101, nil); return err }
	}},
	"state-changing POST": {op: gen.OpCopyScenario, prepare: func(*testing.T, *Client) func(context.Context, *Client) error {
		return func(ctx context.Context, c *Client) error {
			_, err := c.Scenarios.Copy(ctx, 101, gen.ScenarioTypeGFA, &NewScenarioOptions{Name: "matrix"})
			return err
		}
	}},
	"job poll": {op: gen.OpGetImportStatus, prepare: func(t *testing.T, c *Client) func(context.Context, *Client) error {
		job, err := c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeGFA, &NewScenarioOptions{Name: "polled"})
		require.NoError(t, err)
		return func(ctx context.Context, c *Client) error { _, err := c.Job(job.JobID).Poll(ctx); return err }
	}},
	"run poll": {op: gen.OpGetExperimentStatus, prepare: func(t *testing.T, c *Client) func(context.Context, *Client) error {
		_, err := c.Experiments.Start(testCtx(t), 10101, nil)
		require.NoError(t, err)
		return func(ctx context.Context, c *Client) error { _, err := c.Run(10101).Poll(ctx); return err }
	}},
}

func runSync(t *testing.T, c *Client) ids.ExperimentResultID {
	t.Helper()
	out, err := c.Experiments.RunSync(testCtx(t), 10101)
	require.NoError(t, err)
	return out.ExperimentResultId
}

func openWorkbook(b []byte) error {
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err == nil {
		f.Close()
	}
	return err
}

func smallWorkbook(t *testing.T) []byte {
	t.Helper()
	book := excelize.NewFile()
	defer book.Close()
	require.NoError(t, book.SetSheetName("Sheet1", "Customers"))
	require.NoError(t, book.SetSheetRow("Customers", "A1", &[]any{"id", "name"}))
	require.NoError(t, book.SetSheetRow("Customers", "A2", &[]any{1, "Acme"}))
	var buf bytes.Buffer
	_, err := book.WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes()
}

// matrixFault is a fault of the matrix and what a state-changing call
// comes to under it: whether it succeeds, whether its handler ran, and
// whether its error says it may have been applied. Every read recovers.
type matrixFault struct {
	fault   fake.Fault
	refuse  bool // the first connection is refused instead
	ok      bool // a state-changing call succeeds
	applied bool // its handler ran (once)
	mayHave bool // its error matches ErrMayHaveBeenApplied
	midBody bool // the fault strikes after the headers and half the body
}

var matrixFaults = map[string]matrixFault{
	"refused connection":     {refuse: true, ok: true, applied: true},
	"drop before headers":    {fault: fake.Fault{Kind: fake.FaultDropBeforeHandler}, mayHave: true},
	"reset before headers":   {fault: fake.Fault{Kind: fake.FaultResetBeforeHandler}, mayHave: true},
	"stall before headers":   {fault: fake.Fault{Kind: fake.FaultStall}, mayHave: true},
	"500":                    {fault: fake.Fault{Kind: fake.FaultStatus, Status: http.StatusInternalServerError}, mayHave: true},
	"503":                    {fault: fake.Fault{Kind: fake.FaultStatus, Status: http.StatusServiceUnavailable}},
	"429 with Retry-After":   {fault: fake.Fault{Kind: fake.FaultStatus, Status: http.StatusTooManyRequests, RetryAfter: "1"}},
	"truncated body":         {fault: fake.Fault{Kind: fake.FaultTruncate}, applied: true, mayHave: true, midBody: true},
	"stall mid-body":         {fault: fake.Fault{Kind: fake.FaultStallBody}, applied: true, mayHave: true, midBody: true},
	"reset mid-body":         {fault: fake.Fault{Kind: fake.FaultResetBody}, applied: true, mayHave: true, midBody: true},
	"response lost":          {fault: fake.Fault{Kind: fake.FaultDropAfterHandler}, applied: true, mayHave: true},
	"slow but moving body":   {fault: fake.Fault{Kind: fake.FaultSlowBody, Latency: 2 * time.Millisecond, Chunks: 8}, ok: true, applied: true},
	"no fault (the control)": {ok: true, applied: true},
}

// refusingTransport refuses the next refusals dials with a real refused
// connection (to a port nothing listens on), then dials as usual.
func refusingTransport(t *testing.T, refusals *atomic.Int32) *http.Transport {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := ln.Addr().String()
	ln.Close()
	tr := defaultTransport().(*http.Transport)
	var d net.Dialer
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if refusals.Add(-1) >= 0 {
			addr = closed
		}
		return d.DialContext(ctx, network, addr)
	}
	return tr
}

// TestFaultMatrix sends every operation class through every fault of the
// fake: every read recovers, within the attempts of the retry policy; a
// state-changing call is sent once, applied at most once, and its error
// matches ErrMayHaveBeenApplied exactly when the request may have reached
// the handler. A streamed download that already handed bytes to the caller
// cannot start over, and the fake (like the real server, as far as it was
// seen) takes no Range requests: it fails saying so (resuming is
// TestDownloadResumes'), while the same download read whole
// (Download.ReadAll) is fetched again and recovers. Stalls are real (the fake sends nothing more);
// the attempt timeout runs on virtual time, moved past it when the fake
// says it stalls, and by half of it with each piece of a slow body.
func TestFaultMatrix(t *testing.T) {
	for className, class := range matrixClasses {
		for faultName, mf := range matrixFaults {
			t.Run(className+"/"+faultName, func(t *testing.T) {
				t.Parallel()
				srv := fake.NewServer(fake.WithAPIKeys(testKey), fake.WithLicense(), fake.WithRunDuration(0),
					fake.WithResultSize(2, 1, 3)) // small results: a dashboard of two pages
				t.Cleanup(srv.Close)
				var refusals atomic.Int32
				w := newWatchTime(t, class.op, refusingTransport(t, &refusals))
				c := newTestClient(t, srv.URL, WithClock(faketest.NewInstantClock()), WithAttemptTimeout(matrixTimeout),
					WithHTTPClient(&http.Client{Transport: w}), withWatchClock(w.clock))
				call := class.prepare(t, c)
				clean := class.requests // the requests of a read without a fault
				if clean == 0 && !class.changesState() {
					before := srv.Calls(string(class.op))
					require.NoError(t, call(testCtx(t), c), "without a fault")
					clean = srv.Calls(string(class.op)) - before
				}
				_, err := c.User.Current(testCtx(t)) // a keep-alive connection for the call to reuse
				require.NoError(t, err)
				before := srv.Calls(string(class.op))
				mf.arm(srv, class.op, c, &refusals, w)
				start := w.clock.Now()
				err = call(testCtx(t), c)
				calls := srv.Calls(string(class.op)) - before
				switch {
				case class.changesState():
					checkStateChanging(t, srv, class.op, mf, calls, err)
				case className == "download" && mf.midBody:
					var dlErr *RequestError
					require.ErrorAs(t, err, &dlErr)
					assert.Positive(t, dlErr.Broken.Delivered)
					assert.Contains(t, err.Error(), "the server does not support resuming")
					assert.Equal(t, 1, calls, "a download handed out in part is not fetched again")
				default:
					require.NoError(t, err, "a read recovers")
					checkRead(t, mf, calls, clean)
				}
				if mf.fault.Kind == fake.FaultSlowBody {
					assert.Greater(t, w.clock.Now().Sub(start), matrixTimeout, "the slow body outlasted the attempt timeout")
				}
			})
		}
	}
}

// arm sets the fault up for the next call of op.
func (mf matrixFault) arm(srv *fake.Server, op gen.OperationID, c *Client, refusals *atomic.Int32, w *watchTime) {
	f := mf.fault
	switch {
	case mf.refuse:
		c.CloseIdleConnections()
		refusals.Store(1)
		return
	case f.Kind == 0:
		return
	case f.Kind == fake.FaultStall || f.Kind == fake.FaultStallBody:
		f.Stalled = w.stalled
		w.afterHeaders.Store(f.Kind == fake.FaultStallBody)
	case f.Kind == fake.FaultSlowBody:
		w.step.Store(int64(matrixTimeout / 2))
	}
	srv.InjectFault(string(op), f)
}

func checkStateChanging(t *testing.T, srv *fake.Server, op gen.OperationID, mf matrixFault, calls int, err error) {
	t.Helper()
	assert.Equal(t, 1, calls, "sent once")
	assert.Equal(t, map[bool]int{true: 1, false: 0}[mf.applied], srv.Applied(string(op)), "applied at most once")
	if mf.ok {
		assert.NoError(t, err)
		return
	}
	require.Error(t, err)
	if mf.mayHave {
		assert.ErrorIs(t, err, ErrMayHaveBeenApplied)
	} else {
		assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	}
	if mf.fault.Status == http.StatusTooManyRequests {
		assert.ErrorIs(t, err, ErrServer)
	}
}

// checkRead: a read that recovered sent its faulted request again, within
// the attempts of the retry policy (net/http may resend a GET once more on
// its own when a reused connection dies before the answer).
func checkRead(t *testing.T, mf matrixFault, calls, clean int) {
	t.Helper()
	if mf.refuse || mf.fault.Kind == 0 || mf.fault.Kind == fake.FaultSlowBody {
		assert.Equal(t, clean, calls, "no request was lost")
		return
	}
	assert.Greater(t, calls, clean, "the faulted request was sent again")
	assert.LessOrEqual(t, calls, clean+fastRetries.MaxAttempts, "within the attempts")
}

// watchTime is the virtual time of the watchdog in the fault matrix: a
// transport under the client that notes the latest request of the
// operation, moves the clock past the attempt timeout whenever the fake
// says it stalls (until that request ends), and, while step is set, moves
// it by step with each piece of the operation's answer.
type watchTime struct {
	base         http.RoundTripper
	path         string
	clock        *clock.Virtual
	stalled      chan struct{}
	afterHeaders atomic.Bool  // the stall comes after the headers: the clock waits for them
	step         atomic.Int64 // a time.Duration
	last         atomic.Pointer[request]
}

// request is a request of the operation as the transport saw it.
type request struct {
	ctx      context.Context
	answered atomic.Bool // its response headers arrived
}

func newWatchTime(t *testing.T, opID gen.OperationID, base http.RoundTripper) *watchTime {
	op, ok := gen.LookupOperation(opID)
	require.True(t, ok)
	w := &watchTime{base: base, path: op.Path, clock: newManualClock(), stalled: make(chan struct{}, 4)}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		w.drive(done)
	}()
	t.Cleanup(func() { close(done); wg.Wait() })
	return w
}

// drive moves the clock past the attempt timeout, a step a millisecond,
// from each stall the fake reports until the stalled request ends (from
// the arrival of its headers, for a stall mid-body): the watchdog ends it
// once the caller waits on the server.
func (w *watchTime) drive(done <-chan struct{}) {
	for {
		select {
		case <-w.stalled:
		case <-done:
			return
		}
		r := w.last.Load()
		for r.ctx.Err() == nil {
			if r.answered.Load() || !w.afterHeaders.Load() {
				w.clock.Advance(matrixTimeout)
			}
			select {
			case <-r.ctx.Done():
			case <-time.After(time.Millisecond):
			case <-done:
				return
			}
		}
	}
}

func (w *watchTime) RoundTrip(req *http.Request) (*http.Response, error) {
	ours := strings.HasSuffix(req.URL.Path, w.path)
	r := &request{ctx: req.Context()}
	if ours {
		w.last.Store(r)
	}
	resp, err := w.base.RoundTrip(req)
	r.answered.Store(true)
	if step := time.Duration(w.step.Load()); ours && err == nil && step > 0 {
		resp.Body = &advancingBody{ReadCloser: resp.Body, clock: w.clock, step: step}
	}
	return resp, err
}

func (w *watchTime) CloseIdleConnections() {
	w.base.(interface{ CloseIdleConnections() }).CloseIdleConnections()
}

// advancingBody moves the clock by step with each piece that arrives.
type advancingBody struct {
	io.ReadCloser
	clock *clock.Virtual
	step  time.Duration
}

func (b *advancingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.clock.Advance(b.step)
	}
	return n, err
}

// withWatchClock sets the clock the attempt timeout is measured on.
func withWatchClock(wc watchClock) Option {
	return func(c *config) error {
		c.watchClock = wc
		return nil
	}
}

// newManualClock is a clock for the attempt timeout (withWatchClock) on
// virtual time, which moves only when a test moves it.
func newManualClock() *clock.Virtual {
	return clock.NewVirtual(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
}

// The last fault of the matrix, a scheme that does not match the port,
// is the server's whatever the class: https:// to a plain-HTTP port and
// http:// to an HTTPS port fail at once, are not retried, reach no
// handler, and say which scheme to use.
func TestFaultMatrixSchemeMismatch(t *testing.T) {
	for className, class := range matrixClasses {
		t.Run(className+"/https to an http port", func(t *testing.T) {
			t.Parallel()
			srv := fake.NewServer(fake.WithAPIKeys(testKey), fake.WithLicense(), fake.WithRunDuration(0), fake.WithResultSize(2, 1, 3))
			t.Cleanup(srv.Close)
			call := class.prepare(t, newTestClient(t, srv.URL))
			wrong := "https://" + strings.TrimPrefix(srv.URL, "http://")
			checkSchemeMismatch(t, srv.Handler, class.op, call, newTestClient(t, wrong, WithClock(faketest.NewInstantClock())), srv.URL)
		})
		t.Run(className+"/http to an https port", func(t *testing.T) {
			t.Parallel()
			h := fake.NewHandler(fake.WithAPIKeys(testKey), fake.WithLicense(), fake.WithRunDuration(0), fake.WithResultSize(2, 1, 3)).(*fake.Handler)
			ts := httptest.NewTLSServer(h)
			ts.Config.ErrorLog = discardLog() // the plain requests it refuses
			t.Cleanup(ts.Close)
			call := class.prepare(t, newTestClient(t, ts.URL+fake.BasePath, WithHTTPClient(ts.Client())))
			wrong := "http://" + strings.TrimPrefix(ts.URL, "https://") + fake.BasePath
			checkSchemeMismatch(t, h, class.op, call, newTestClient(t, wrong, WithClock(faketest.NewInstantClock())), ts.URL+fake.BasePath)
		})
	}
}

func checkSchemeMismatch(t *testing.T, h *fake.Handler, op gen.OperationID, call func(context.Context, *Client) error, c *Client, right string) {
	t.Helper()
	calls, applied := h.Calls(string(op)), h.Applied(string(op))
	err := call(testCtx(t), c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "use "+right+" as the base URL")
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	var reqErr *RequestError
	var apiErr *APIError
	switch {
	case errors.As(err, &reqErr):
		assert.ErrorIs(t, err, http.ErrSchemeMismatch)
		assert.Len(t, reqErr.Attempts, 1, "not retried")
	case errors.As(err, &apiErr):
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		assert.Len(t, apiErr.Attempts, 1, "not retried")
	default:
		t.Fatalf("%T: %v", err, err)
	}
	assert.Equal(t, calls, h.Calls(string(op)), "no request reached the server")
	assert.Equal(t, applied, h.Applied(string(op)))
}
