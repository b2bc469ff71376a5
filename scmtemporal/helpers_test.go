package scmtemporal_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/scmtemporal"
)

// testCtx is the context of a test that waits: it ends with the test, or
// after 10 s, so a wait that never ends fails in seconds.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// quietLogger drops the test environment's logs: a test says what failed.
var quietLogger = log.NewStructuredLogger(slog.New(slog.DiscardHandler))

// instantClock is a virtual clock whose waits advance it at once: the
// activities' polls happen at once, on virtual time.
type instantClock struct{ *fake.VirtualClock }

func (c instantClock) After(d time.Duration) <-chan time.Time {
	c.Advance(max(d, 0))
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

// newFake starts the fake server on a virtual clock that the activities'
// waits advance.
func newFake(t *testing.T, opts ...fake.Option) (*fake.Server, instantClock) {
	t.Helper()
	clock := instantClock{fake.NewVirtualClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))}
	srv := fake.NewServer(append([]fake.Option{fake.WithClock(clock), fake.WithLicense()}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, clock
}

// activities returns the activities on a client of srv, on clock (nil: the
// real clock); wrap, when set, wraps its transport; more are further
// options of the client.
func activities(t *testing.T, srv *fake.Server, wrap func(http.RoundTripper) http.RoundTripper, clock facade.Clock, more ...facade.Option) *scmtemporal.Activities {
	t.Helper()
	opts := []facade.Option{facade.WithAPIKey(srv.APIKey)}
	if clock != nil {
		opts = append(opts, facade.WithClock(clock))
	}
	if wrap != nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		t.Cleanup(tr.CloseIdleConnections)
		opts = append(opts, facade.WithHTTPClient(&http.Client{Transport: wrap(tr)}))
	}
	c, err := facade.New(srv.URL, append(opts, more...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return &scmtemporal.Activities{Client: c, Clock: clock}
}

// item is the SIMULATION of scenario 103 (rcId 10303), which never ran on
// a fresh fake.
func item() scmtemporal.ItemInput {
	return scmtemporal.ItemInput{Name: "sim", ProjectID: 1, ScenarioID: 103, Experiment: gen.ExperimentTypeSIMULATION}
}

// writeWorkbook writes a one-sheet workbook and returns its path.
func writeWorkbook(t *testing.T) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetSheetName("Sheet1", "Customers"))
	require.NoError(t, f.SetSheetRow("Customers", "A1", &[]any{"Id", "Name"}))
	require.NoError(t, f.SetSheetRow("Customers", "A2", &[]any{1, "Acme"}))
	path := filepath.Join(t.TempDir(), "variant.xlsx")
	require.NoError(t, f.SaveAs(path))
	return path
}

// workflowEnv is a test workflow environment (in process, no server, on
// virtual time) with the workflow and the activities registered
// (scmtemporal.Register) and a count of the attempts of each activity. It
// fails after 10 s without progress, and the activities' contexts end with
// the test's deadline (testCtx).
type workflowEnv struct {
	*testsuite.TestWorkflowEnvironment
	mu       sync.Mutex
	attempts map[string]int
}

func newWorkflowEnv(t *testing.T, acts *scmtemporal.Activities, interceptors ...interceptor.WorkerInterceptor) *workflowEnv {
	t.Helper()
	env := newEnv(t, interceptors...)
	scmtemporal.Register(env, acts)
	return env
}

// newWorkerEnv is newWorkflowEnv with the activities registered as on a
// worker: each mark is confirmed through the worker's Temporal client,
// which c's interceptor gives (c.temporalClient).
func newWorkerEnv(t *testing.T, acts *scmtemporal.Activities, c *crash) *workflowEnv {
	t.Helper()
	env := newEnv(t, c.interceptor())
	scmtemporal.RegisterOnWorker(env, acts, c.temporalClient())
	return env
}

func newEnv(t *testing.T, interceptors ...interceptor.WorkerInterceptor) *workflowEnv {
	t.Helper()
	var suite testsuite.WorkflowTestSuite
	suite.SetLogger(quietLogger)
	env := &workflowEnv{TestWorkflowEnvironment: suite.NewTestWorkflowEnvironment(), attempts: map[string]int{}}
	env.SetTestTimeout(10 * time.Second)
	env.SetWorkerOptions(worker.Options{BackgroundActivityContext: testCtx(t), Interceptors: interceptors})
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		env.count(info.ActivityType.Name)
	})
	return env
}

// count counts an attempt of the activity.
func (e *workflowEnv) count(name string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.attempts[name]++
}

func (e *workflowEnv) attemptsOf(name string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.attempts[name]
}

// result runs the workflow to its end and returns its result, failing the
// test when it did not complete or failed.
func (e *workflowEnv) result(t *testing.T, in scmtemporal.ItemInput) scmtemporal.ItemResult {
	t.Helper()
	e.ExecuteWorkflow(scmtemporal.WorkflowName, in)
	require.True(t, e.IsWorkflowCompleted(), "the workflow did not complete")
	require.NoError(t, e.GetWorkflowError())
	var res scmtemporal.ItemResult
	require.NoError(t, e.GetWorkflowResult(&res))
	return res
}

// attemptOf reports whether ctx is of the attempt of the activity.
func attemptOf(ctx context.Context, name string, attempt int32) bool {
	if !activity.IsActivity(ctx) {
		return false
	}
	info := activity.GetInfo(ctx)
	return info.ActivityType.Name == name && info.Attempt == max(attempt, 1)
}

// crash makes attempt 1 of one activity die, as if its worker's process
// died: at its first request to path, before it is sent (Before) or once
// the server has answered it, the work applied (After). A panic ends the
// attempt there; nothing the activity would do next (no heartbeat, no
// cleanup) happens. With LoseHeartbeats, only the attempt's first
// heartbeat reaches the server, as when the worker dies and the attempt
// ends on its heartbeat timeout: the Go SDK sends an attempt's first
// heartbeat at once, in a round trip before RecordHeartbeat returns, and
// batches the later ones within its throttle interval (0.8 of the
// timeout), which die with the worker. The retry gets the first one's
// details.
type crash struct {
	Activity, Path string
	After          bool
	LoseHeartbeats bool
	// Attempt is the attempt that dies; zero means 1. LoseAll loses its
	// first heartbeat too, as when that heartbeat's round trip failed.
	Attempt int32
	LoseAll bool
	// AtStart kills the attempt as it begins, before it does anything
	// (Path is not used): its worker died as the task reached it.
	AtStart bool
	// AtConfirm kills the attempt as it asks the service to confirm its
	// mark, before the service has it (Path is not used).
	AtConfirm bool

	mu     sync.Mutex
	killed bool
	beats  int // heartbeats of the crashing attempt
}

func (c *crash) transport(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if !c.After && c.dies(req) {
			panic("the worker died")
		}
		resp, err := next.RoundTrip(req)
		if err == nil && c.After && c.dies(req) {
			resp.Body.Close()
			panic("the worker died")
		}
		return resp, err
	})
}

// dies reports, once, whether req is the request the worker dies at.
func (c *crash) dies(req *http.Request) bool {
	if c.AtStart || c.AtConfirm || !attemptOf(req.Context(), c.Activity, c.Attempt) || !strings.HasSuffix(req.URL.Path, c.Path) {
		return false
	}
	return c.once()
}

func (c *crash) happened() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.killed
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// interceptor drops the heartbeats of the crashing attempt when
// LoseHeartbeats says so.
func (c *crash) interceptor() interceptor.WorkerInterceptor {
	return &heartbeatDropper{crash: c}
}

type heartbeatDropper struct {
	interceptor.WorkerInterceptorBase
	crash *crash
}

func (h *heartbeatDropper) InterceptActivity(ctx context.Context, next interceptor.ActivityInboundInterceptor) interceptor.ActivityInboundInterceptor {
	in := &dropInbound{crash: h.crash}
	in.Next = next
	return in
}

type dropInbound struct {
	interceptor.ActivityInboundInterceptorBase
	crash *crash
}

// ExecuteActivity kills the attempt as it begins when AtStart says so.
func (d *dropInbound) ExecuteActivity(ctx context.Context, in *interceptor.ExecuteActivityInput) (any, error) {
	if d.crash.AtStart && attemptOf(ctx, d.crash.Activity, d.crash.Attempt) && d.crash.once() {
		panic("the worker died")
	}
	return d.Next.ExecuteActivity(ctx, in)
}

// once reports, the first time only, that the worker dies now.
func (c *crash) once() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.killed {
		return false
	}
	c.killed = true
	return true
}

// temporalClient is the worker's Temporal client as the activities get it
// (activity.GetClient, which the interceptor answers): its
// RecordActivityHeartbeat confirms the details the attempt has recorded,
// and fails as the service's answer would when the crashing attempt's
// heartbeats are all lost (LoseAll).
func (c *crash) temporalClient() scmtemporal.HeartbeatRecorder {
	return confirmingClient{crash: c}
}

type confirmingClient struct {
	crash *crash
}

func (cc confirmingClient) RecordActivityHeartbeat(ctx context.Context, _ []byte, details ...any) error {
	if cc.crash.AtConfirm && attemptOf(ctx, cc.crash.Activity, cc.crash.Attempt) && cc.crash.once() {
		panic("the worker died")
	}
	if cc.crash.LoseAll && attemptOf(ctx, cc.crash.Activity, cc.crash.Attempt) {
		return errors.New("heartbeat: the service did not answer")
	}
	activity.RecordHeartbeat(context.WithValue(ctx, confirmedKey{}, true), details...)
	return nil
}

// confirmedKey marks a heartbeat the service confirmed: it arrived, so no
// crash loses it.
type confirmedKey struct{}

func (d *dropInbound) Init(outbound interceptor.ActivityOutboundInterceptor) error {
	out := &dropOutbound{crash: d.crash}
	out.Next = outbound
	return d.Next.Init(out)
}

type dropOutbound struct {
	interceptor.ActivityOutboundInterceptorBase
	crash *crash
}

func (d *dropOutbound) RecordHeartbeat(ctx context.Context, details ...any) {
	if ctx.Value(confirmedKey{}) == nil && d.crash.LoseHeartbeats && attemptOf(ctx, d.crash.Activity, d.crash.Attempt) && (!d.crash.firstBeat() || d.crash.LoseAll) {
		return
	}
	d.Next.RecordHeartbeat(ctx, details...)
}

// firstBeat counts a heartbeat of the crashing attempt and reports whether
// it is its first.
func (c *crash) firstBeat() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.beats++
	return c.beats == 1
}

func fileExists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	return err == nil
}
