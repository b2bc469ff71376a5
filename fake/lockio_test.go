package fake_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

// lockWait is how long a probe may take before the test concludes that the
// state lock is held: far longer than a probe ever needs.
const lockWait = 10 * time.Second

// lockProbe serves the fake behind a middleware that, on every read of a
// request body and every write of a response, calls the same server
// in-process with getProjects, which takes the state lock. Were the lock
// held during that I/O, the probe could not finish.
type lockProbe struct {
	t      testing.TB
	h      *fake.Handler
	probes atomic.Int64
}

func (p *lockProbe) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	during := r.Method + " " + r.URL.Path
	if r.Body != nil && r.Body != http.NoBody {
		r.Body = &probedBody{ReadCloser: r.Body, probe: func() { p.probe("reading the body of " + during) }}
	}
	p.h.ServeHTTP(&probedWriter{ResponseWriter: w, probe: func() { p.probe("answering " + during) }}, r)
}

// probe calls getProjects and fails the test if it cannot finish.
func (p *lockProbe) probe(during string) {
	p.probes.Add(1)
	done := make(chan int)
	go func() {
		req := httptest.NewRequest(http.MethodGet, fake.BasePath+"/open/project/list", nil)
		req.Header.Set("Authorization", fake.DefaultAPIKey)
		rec := httptest.NewRecorder()
		p.h.ServeHTTP(rec, req)
		done <- rec.Code
	}()
	select {
	case code := <-done:
		assert.Equal(p.t, http.StatusOK, code, "probe while %s", during)
	case <-time.After(lockWait):
		p.t.Errorf("the state lock is held while %s", during)
	}
}

type probedBody struct {
	io.ReadCloser
	probe func()
}

func (b *probedBody) Read(p []byte) (int, error) {
	b.probe()
	return b.ReadCloser.Read(p)
}

type probedWriter struct {
	http.ResponseWriter
	probe func()
}

func (w *probedWriter) WriteHeader(code int) {
	w.probe()
	w.ResponseWriter.WriteHeader(code)
}

func (w *probedWriter) Write(b []byte) (int, error) {
	w.probe()
	return w.ResponseWriter.Write(b)
}

func (w *probedWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// setupProbed is setup with the server behind a lockProbe.
func setupProbed(t *testing.T) (*env, *lockProbe) {
	router, err := loadSpec()
	require.NoError(t, err)
	clock := fake.NewVirtualClock(epoch)
	h := fake.NewHandler(fake.WithClock(clock), fake.WithLicense(), fake.WithStatusLag(0)).(*fake.Handler)
	p := &lockProbe{t: t, h: h}
	ts := httptest.NewServer(p)
	t.Cleanup(ts.Close)
	hc := &http.Client{Transport: &specTransport{t: t, router: router, base: ts.Client().Transport}}
	c, err := gen.NewClientWithResponses(ts.URL+fake.BasePath, gen.WithHTTPClient(hc), gen.WithRequestEditorFn(bearer(fake.DefaultAPIKey)))
	require.NoError(t, err)
	return &env{h: h, clock: clock, c: c, ctx: t.Context()}, p
}

// TestNoOperationHoldsTheLockDuringIO runs every operation with the state
// lock probed on each read of its request body and each write of its
// response.
func TestNoOperationHoldsTheLockDuringIO(t *testing.T) {
	cases := operationCases()
	for _, op := range gen.Operations() {
		t.Run(op.ID, func(t *testing.T) {
			t.Parallel()
			call, ok := cases[op.ID]
			if done, _ := implemented(t, op); !done || !ok {
				t.Skipf("no handler or no case for %s yet: TestEveryOperation asks for them", op.ID)
			}
			e, p := setupProbed(t)
			fx := newFixture(t, e)
			before := p.probes.Load()
			resp, _, err := call(t, e, fx)
			require.NoError(t, err)
			assert.Less(t, resp.StatusCode(), 300)
			assert.Greater(t, p.probes.Load(), before, "no I/O was probed")
		})
	}
}

// TestLatencyFaultDoesNotHoldTheLock keeps a call waiting on a latency fault
// and changes state meanwhile.
func TestLatencyFaultDoesNotHoldTheLock(t *testing.T) {
	e, p := setupProbed(t)
	p.h.InjectFault("getExperimentStatus", fake.Fault{Kind: fake.FaultLatency, Latency: time.Hour})
	ctx, cancel := context.WithCancel(e.ctx)
	done := make(chan error, 1)
	go func() {
		_, err := e.c.GetExperimentStatusWithResponse(ctx, &gen.GetExperimentStatusParams{RcId: 10101})
		done <- err
	}()
	require.Eventually(t, func() bool { return p.h.Calls("getExperimentStatus") == 1 }, lockWait, time.Millisecond)
	p.probe("a call waits on a latency fault")
	r, err := e.c.RemoveScenarioByIdWithResponse(e.ctx, &gen.RemoveScenarioByIdParams{ScenarioId: 103})
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, r.StatusCode(), string(r.Body))
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}

// TestCloseEndsLatencyFaults closes a server while a call with a body waits
// on a latency fault: the server cannot see that call's caller give up, but
// Close must not wait out the latency.
func TestCloseEndsLatencyFaults(t *testing.T) {
	e := setup(t)
	e.srv.InjectFault("copyScenarioSynchronously", fake.Fault{Kind: fake.FaultLatency, Latency: time.Hour})
	done := make(chan error, 1)
	go func() {
		_, err := e.c.CopyScenarioSynchronouslyWithResponse(e.ctx, &gen.CopyScenarioSynchronouslyParams{ScenarioId: 101, NewType: gen.ScenarioTypeNO},
			gen.ApiConvertAndCopyParameters{NewName: ptr("Late")})
		done <- err
	}()
	require.Eventually(t, func() bool { return e.srv.Calls("copyScenarioSynchronously") == 1 }, lockWait, time.Millisecond)
	closed := make(chan struct{})
	go func() { e.srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(lockWait):
		t.Fatal("Close waits for the latency fault")
	}
	require.Error(t, <-done, "the call is dropped")
	assert.Zero(t, e.srv.Applied("copyScenarioSynchronously"))
}

// TestSynchronousRunDoesNotHoldTheLock keeps runExperimentSynchronously
// waiting for the clock and changes state meanwhile.
func TestSynchronousRunDoesNotHoldTheLock(t *testing.T) {
	e, p := setupProbed(t)
	done := make(chan error, 1)
	go func() {
		_, err := e.c.RunExperimentSynchronouslyWithResponse(e.ctx, &gen.RunExperimentSynchronouslyParams{RcId: 10101})
		done <- err
	}()
	e.clock.BlockUntilWaiters(1)
	p.probe("runExperimentSynchronously waits")
	r, err := e.c.RequestLicenseWithResponse(e.ctx)
	require.NoError(t, err)
	assert.Less(t, r.StatusCode(), 300)
	e.clock.Advance(fake.DefaultRunDuration)
	require.NoError(t, <-done)
}
