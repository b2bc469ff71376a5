package batch_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
	"go.uber.org/goleak"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// env is a fake server on an instant clock (every poll of a job or run
// happens at once, on virtual time), a client of it and a directory for
// plans, workbooks and exports.
type env struct {
	srv   *fake.Server
	c     *facade.Client
	clock faketest.InstantClock
	dir   string
}

func newEnv(t *testing.T, opts ...fake.Option) *env {
	t.Helper()
	srv, clock := faketest.NewInstantServer(t, opts...)
	e := &env{srv: srv, clock: clock, dir: t.TempDir()}
	e.c = e.client(t, nil)
	return e
}

// client connects to the fake; rt, when set, wraps the transport.
func (e *env) client(t *testing.T, wrap func(http.RoundTripper) http.RoundTripper) *facade.Client {
	t.Helper()
	opts := []facade.Option{facade.WithAPIKey(e.srv.APIKey), facade.WithClock(e.clock),
		facade.WithRetryPolicy(facade.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 2 * time.Millisecond})}
	if wrap != nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		t.Cleanup(tr.CloseIdleConnections)
		opts = append(opts, facade.WithHTTPClient(&http.Client{Transport: wrap(tr)}))
	}
	c, err := facade.New(e.srv.URL, opts...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// plan writes a plan file (and a workbook for every "workbook: NAME.xlsx"
// line) and reads it.
func (e *env) plan(t *testing.T, yaml string) *batch.Plan {
	t.Helper()
	for line := range strings.Lines(yaml) {
		if _, name, ok := strings.Cut(strings.TrimSpace(line), "workbook: "); ok {
			writeWorkbook(t, filepath.Join(e.dir, name))
		}
	}
	path := filepath.Join(e.dir, "plan.yaml")
	require.NoError(t, os.WriteFile(path, []byte(yaml), 0o644))
	p, err := batch.ReadPlan(path)
	require.NoError(t, err)
	return p
}

// runner prepares a batch of p on c, with the virtual clock for durations.
func (e *env) runner(t *testing.T, c *facade.Client, p *batch.Plan, opts batch.Options) *batch.Runner {
	t.Helper()
	opts.Now, opts.Clock = e.clock.Now, e.clock
	r, err := batch.NewRunner(c, p, &opts)
	require.NoError(t, err)
	return r
}

// run runs a batch of p to its end and returns the summary.
func (e *env) run(t *testing.T, p *batch.Plan, opts batch.Options) *batch.Summary {
	t.Helper()
	ctx := deadline(t)
	sum, err := e.runner(t, e.c, p, opts).Run(ctx)
	require.NoError(t, err)
	require.NoError(t, ctx.Err(), "the batch did not end within %v", testTimeout)
	return sum
}

// testTimeout bounds every wait of a test, so that a batch that hangs fails
// in seconds.
const testTimeout = 20 * time.Second

// deadline is the context of a test's waits: it ends with the test, or
// testTimeout after it began.
func deadline(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

func writeWorkbook(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetSheetName("Sheet1", "Customers"))
	for i, row := range [][]any{{"Id", "Name"}, {1, "Acme"}, {2, "Globex"}} {
		require.NoError(t, f.SetSheetRow("Customers", "A"+string(rune('1'+i)), &row))
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, f.SaveAs(path))
}

// statuses maps each item of a summary to its status.
func statuses(sum *batch.Summary) map[string]batch.Status {
	out := map[string]batch.Status{}
	for _, it := range sum.Items {
		out[it.Name] = it.Status
	}
	return out
}

// cancelAt returns a context and a Progress function that cancels it at
// the first event that matches: a Ctrl-C at that moment.
func cancelAt(t *testing.T, match func(batch.Event) bool) (context.Context, func(batch.Event), context.CancelFunc) {
	ctx, cancel := context.WithCancel(deadline(t))
	var once sync.Once
	return ctx, func(ev batch.Event) {
		if match(ev) {
			once.Do(cancel)
		}
	}, cancel
}

// applied reads the fake's side-effect counters of imports, starts and stops.
func (e *env) applied() map[string]int {
	return map[string]int{"importExcel": e.srv.Applied("importExcel"), "runExperiment": e.srv.Applied("runExperiment"),
		"stopExperiment": e.srv.Applied("stopExperiment"), "importCancel": e.srv.Applied("importCancel")}
}
