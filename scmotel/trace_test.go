package scmotel_test

import (
	"fmt"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// A read answered 503 twice, then 200: a client span named by its
// operationId, three attempt spans under it after the HTTP semantic
// conventions, two retry events with their delay and reason, and each
// request carrying its attempt's trace context.
func TestCallWithTwoRetries(t *testing.T) {
	e := newEnv(t, fake.WithFault("getCurrentUser", fake.Fault{Kind: fake.FaultStatus, Status: 503, RetryAfter: "2", Times: 2}))
	_, err := e.c.User.Current(testCtx(t))
	require.NoError(t, err)

	tr := e.tree()
	call := tr.one(t, "getCurrentUser")
	assert.Equal(t, trace.SpanKindClient, call.SpanKind)
	assert.False(t, call.Parent.IsValid(), "the call is a root span")
	a := attrs(call.Attributes)
	assert.Equal(t, "getCurrentUser", a["scm.operation"])
	assert.Equal(t, false, a["scm.operation.changes_state"])
	assert.Equal(t, int64(3), a["scm.attempts"])
	assert.Equal(t, "success", a["scm.outcome"])
	assert.NotContains(t, a, "error.type")
	assert.Equal(t, codes.Unset, call.Status.Code)

	require.Len(t, call.Events, 2)
	for i, ev := range call.Events {
		assert.Equal(t, "retry", ev.Name)
		assert.Equal(t, map[string]any{"scm.attempt": int64(i + 1), "scm.retry.delay": 2.0, "scm.retry.reason": "status 503",
			"scm.may_have_been_applied": false, "http.response.status_code": int64(503)}, attrs(ev.Attributes))
	}

	attempts := tr.of(call)
	require.Equal(t, []string{"GET /open/user", "GET /open/user", "GET /open/user"}, names(attempts))
	u, err := url.Parse(e.srv.URL)
	require.NoError(t, err)
	port, err := strconv.Atoi(u.Port())
	require.NoError(t, err)
	sent := e.sent.traceparents()
	require.Len(t, sent, 3)
	for i, s := range attempts {
		a := attrs(s.Attributes)
		assert.Equal(t, trace.SpanKindClient, s.SpanKind)
		assert.Equal(t, "GET", a["http.request.method"])
		assert.Equal(t, "127.0.0.1", a["server.address"])
		assert.Equal(t, int64(port), a["server.port"])
		assert.Equal(t, e.srv.URL+"/open/user", a["url.full"])
		assert.Equal(t, "/open/user", a["url.template"])
		assert.Equal(t, int64(i+1), a["scm.attempt"])
		want := fmt.Sprintf("00-%s-%s-01", s.SpanContext.TraceID(), s.SpanContext.SpanID())
		assert.Equal(t, want, sent[i], "the request carries its attempt's W3C trace context")
		if i < 2 {
			assert.Equal(t, int64(503), a["http.response.status_code"])
			assert.Equal(t, "503", a["error.type"])
			assert.Equal(t, codes.Error, s.Status.Code)
		} else {
			assert.Equal(t, int64(200), a["http.response.status_code"])
			assert.NotContains(t, a, "error.type")
		}
		if i > 0 {
			assert.Equal(t, int64(i), a["http.request.resend_count"])
		} else {
			assert.NotContains(t, a, "http.request.resend_count")
		}
	}

	m := e.collect(t)
	op := attribute.String("scm.operation", "getCurrentUser")
	assert.Equal(t, uint64(2), histogramCount(t, m["http.client.request.duration"], op,
		attribute.Int("http.response.status_code", 503), attribute.String("error.type", "503"), attribute.String("http.request.method", "GET"),
		attribute.String("server.address", "127.0.0.1"), attribute.Int("server.port", port)))
	assert.Equal(t, uint64(1), histogramCount(t, m["http.client.request.duration"], op, attribute.Int("http.response.status_code", 200)))
	assert.Equal(t, uint64(1), histogramCount(t, m["scm.client.operation.duration"], op, attribute.String("scm.outcome", "success")))
	assert.Equal(t, int64(2), sum(t, m["scm.client.retries"], op, attribute.String("scm.retry.reason", "status 503")))
	assert.Equal(t, int64(0), sum(t, m["scm.client.operation.active"], op), "no call is under way")
	assert.Equal(t, "s", m["http.client.request.duration"].Unit)
}

// A call that fails with an error status: the span is an error, with the
// status, the request id and the error's type; a state-changing call says
// so, and whether it may have been applied.
func TestFailedCall(t *testing.T) {
	e := newEnv(t, fake.WithFault("requestLicense", fake.Fault{Kind: fake.FaultStatus, Status: 500}))
	_, err := e.c.User.RequestLicense(testCtx(t))
	require.Error(t, err)
	call := e.tree().one(t, "requestLicense")
	a := attrs(call.Attributes)
	assert.Equal(t, true, a["scm.operation.changes_state"])
	assert.Equal(t, int64(1), a["scm.attempts"])
	assert.Equal(t, "error", a["scm.outcome"])
	assert.Equal(t, "500", a["error.type"])
	assert.Equal(t, int64(500), a["http.response.status_code"])
	assert.Equal(t, true, a["scm.may_have_been_applied"])
	assert.Equal(t, codes.Error, call.Status.Code)
	assert.Equal(t, err.Error(), call.Status.Description)
	assert.NotContains(t, a, "scm.request_id", "the fake sends none")
	m := e.collect(t)
	assert.Equal(t, uint64(1), histogramCount(t, m["scm.client.operation.duration"], attribute.String("scm.operation", "requestLicense"),
		attribute.String("scm.outcome", "error"), attribute.String("error.type", "500")))
}

// A run's wait: a Run.Wait span with the poll count, the last state and
// each change of state as an event; its polls' calls are its children.
func TestRunWait(t *testing.T) {
	e := newEnv(t)
	run, err := e.c.Experiments.Start(testCtx(t), 10101, nil)
	require.NoError(t, err)
	_, err = run.Wait(testCtx(t), nil)
	require.NoError(t, err)

	tr := e.tree()
	wait := tr.one(t, "Run.Wait")
	a := attrs(wait.Attributes)
	assert.Equal(t, int64(10101), a["scm.rc.id"])
	assert.Equal(t, int64(facade.EvidenceOf(run).Polls), a["scm.wait.polls"])
	assert.Equal(t, "FINISHED", a["scm.state"])
	assert.Equal(t, "success", a["scm.outcome"])
	// Its children are its polls, and the reads of the scenario's runs that
	// tell its result from another's (the one run listed since the start).
	var polls int
	for _, p := range tr.of(wait) {
		switch p.Name {
		case "getExperimentStatus":
			polls++
			assert.Equal(t, []string{"GET /open/experiments/status"}, names(tr.of(p)))
		default:
			assert.Equal(t, "getExperimentRunsForScenario", p.Name, "a child of Run.Wait")
		}
	}
	assert.Equal(t, facade.EvidenceOf(run).Polls, polls)
	require.NotEmpty(t, wait.Events)
	last := wait.Events[len(wait.Events)-1]
	assert.Equal(t, "state", last.Name)
	assert.Equal(t, "FINISHED", attrs(last.Attributes)["scm.state"])
	assert.NotEqual(t, "FINISHED", attrs(last.Attributes)["scm.state.previous"])
	for _, ev := range wait.Events {
		ea := attrs(ev.Attributes)
		assert.NotEqual(t, ea["scm.state"], ea["scm.state.previous"], "an event is a change")
	}

	m := e.collect(t)
	assert.Equal(t, int64(facade.EvidenceOf(run).Polls), sum(t, m["scm.client.polls"], attribute.String("scm.wait.kind", "run"),
		attribute.String("scm.operation", "getExperimentStatus")))
}

// An import's wait: a Job.Wait span, its polls and changes of state.
func TestImportWait(t *testing.T) {
	e := newEnv(t)
	ctx := testCtx(t)
	options, err := e.c.Imports.DatabaseScenarios(ctx, testDB())
	require.NoError(t, err)
	jobs, err := e.c.Imports.Database(ctx, 1, "Imported", []string{options.List[0].Name}, testDB(), nil)
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	status, err := jobs[0].Wait(ctx, nil)
	require.NoError(t, err)

	tr := e.tree()
	wait := tr.one(t, "Job.Wait")
	a := attrs(wait.Attributes)
	assert.Equal(t, int64(jobs[0].JobID), a["scm.job.id"])
	assert.Equal(t, int64(len(tr.of(wait))), a["scm.wait.polls"], "a poll per getImportStatus call of the wait")
	assert.Equal(t, string(status.Status), a["scm.state"])
	assert.Equal(t, []string{"getImportStatus"}, uniq(names(tr.of(wait))))
	require.NotEmpty(t, wait.Events)
	assert.Equal(t, string(status.Status), attrs(wait.Events[len(wait.Events)-1].Attributes)["scm.state"])
	assert.Equal(t, []string{"POST /open/import/import-database"}, names(tr.of(tr.one(t, "importDatabase"))))
}

// A dashboard export: a span per page, holding the page's export call.
func TestDashboardExport(t *testing.T) {
	e := newEnv(t)
	ctx := testCtx(t)
	run, err := e.c.Experiments.RunSync(ctx, 10101)
	require.NoError(t, err)
	pages, err := e.c.Dashboards.Pages(ctx, run.ExperimentResultId)
	require.NoError(t, err)
	require.NoError(t, dashboard.Export(ctx, e.c, run.ExperimentResultId, io.Discard, nil))

	tr := e.tree()
	spans := tr.named("dashboard.page")
	require.Len(t, spans, len(pages))
	for i, s := range spans {
		a := attrs(s.Attributes)
		assert.Equal(t, pages[i].Name, a["scm.dashboard.page.name"])
		assert.Equal(t, int64(pages[i].Id), a["scm.dashboard.page.id"])
		assert.Equal(t, int64(i+1), a["scm.dashboard.page.index"])
		assert.Equal(t, "success", a["scm.outcome"])
		assert.Equal(t, []string{"exportDashboardPage"}, names(tr.of(s)))
	}
}

func uniq(s []string) []string {
	var out []string
	for _, v := range s {
		if len(out) == 0 || out[len(out)-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// An answer's request id is an attribute of the call's span.
func TestRequestID(t *testing.T) {
	e := newStubEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "req-42")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"no such project"}`)
	})
	_, err := e.c.Projects.Open(testCtx(t), 7)
	assert.Equal(t, "req-42", requestID(err))
	a := attrs(e.tree().one(t, "openProject").Attributes)
	assert.Equal(t, "req-42", a["scm.request_id"])
	assert.Equal(t, int64(404), a["http.response.status_code"])
	assert.Equal(t, "404", a["error.type"])
	assert.Equal(t, false, a["scm.may_have_been_applied"])
}

// A batch: a span per item, holding its calls and waits.
func TestBatchItems(t *testing.T) {
	e := newEnv(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.yaml")
	require.NoError(t, os.WriteFile(path, []byte(`project: 1
items:
  - {name: baseline, scenario: 101, experiment: GFA, export: {dashboard: baseline.xlsx}}
  - {name: broken, scenario: 104, experiment: SIMULATION}
`), 0o644))
	plan, err := batch.ReadPlan(path)
	require.NoError(t, err)
	r, err := batch.NewRunner(e.c, plan, &batch.Options{Parallel: 1, Now: e.clock.Now})
	require.NoError(t, err)
	_, err = r.Run(testCtx(t))
	require.NoError(t, err)

	tr := e.tree()
	items := tr.named("batch.item")
	require.Len(t, items, 2)
	byName := map[string]map[string]any{}
	for _, it := range items {
		a := attrs(it.Attributes)
		byName[a["scm.batch.item.name"].(string)] = a
		assert.Contains(t, names(tr.of(it)), "Run.Wait", "the item's run is waited for inside it")
	}
	assert.Equal(t, "success", byName["baseline"]["scm.outcome"])
	assert.Equal(t, "error", byName["broken"]["scm.outcome"])
	assert.Equal(t, "failed", byName["broken"]["error.type"])
	baseline := items[0]
	if attrs(baseline.Attributes)["scm.batch.item.name"] != "baseline" {
		baseline = items[1]
	}
	assert.Contains(t, names(tr.of(baseline)), "dashboard.page", "the item's export is inside it")
}

// A poll outside a wait is counted, and adds nothing to the caller's span.
func TestPollOutsideAWait(t *testing.T) {
	e := newEnv(t)
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(e.spans))
	ctx, mine := tp.Tracer("caller").Start(testCtx(t), "mine")
	_, err := e.c.Run(10101).Poll(ctx)
	require.NoError(t, err)
	mine.End()
	caller := e.tree().one(t, "mine")
	assert.Empty(t, caller.Events)
	assert.Equal(t, []string{"getExperimentStatus"}, names(e.tree().of(caller)))
	assert.Equal(t, int64(1), sum(t, e.collect(t)["scm.client.polls"], attribute.String("scm.wait.kind", "run")))
}
