package scmotel_test

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
)

const testKey = "sk-test-SECRET-key-123"

// exported is everything the exporters hold, as text: every span (names,
// attributes, events, status, resource) and every metric (names,
// descriptions, data points and their attributes).
func (e *env) exported(t *testing.T) string {
	t.Helper()
	spans, err := json.Marshal(e.spans.GetSpans())
	require.NoError(t, err)
	var rm metricdata.ResourceMetrics
	require.NoError(t, e.metrics.Collect(t.Context(), &rm))
	metrics, err := json.Marshal(rm)
	require.NoError(t, err)
	return fmt.Sprintf("%s\n%s\n%+v\n%+v", spans, metrics, e.spans.GetSpans(), rm)
}

// assertNoSecret fails when text holds one of secrets, in any case.
func assertNoSecret(t *testing.T, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		assert.NotContains(t, strings.ToLower(text), strings.ToLower(s), "the telemetry holds a secret")
	}
}

// The API key and a database password go through every kind of call: a
// read, a write, a retried call, a failing call, the password's calls and
// the import job they start, an upload whose job fails, a run's start and
// wait, a synchronous run, downloads and a dashboard export. No span or
// metric holds either.
func TestNoSecretInTelemetry(t *testing.T) {
	e := newEnv(t, fake.WithAPIKeys(testKey), fake.WithFault("getProjects", fake.Fault{Kind: fake.FaultStatus, Status: 503}))
	ctx := testCtx(t)
	c := e.c
	_, err := c.User.Current(ctx)
	require.NoError(t, err)
	_, err = c.Projects.List(ctx)
	require.NoError(t, err)
	_, err = c.Projects.Open(ctx, 1)
	require.NoError(t, err)
	_, err = c.Projects.Open(ctx, 987654)
	require.Error(t, err)

	options, err := c.Imports.DatabaseScenarios(ctx, testDB())
	require.NoError(t, err)
	jobs, err := c.Imports.Database(ctx, 1, "From the database", []string{options.List[0].Name}, testDB(), nil)
	require.NoError(t, err)
	_, err = jobs[0].Wait(ctx, nil)
	require.NoError(t, err)
	_, err = c.ImportExcelAndWait(ctx, 1, "Not a workbook", facade.UploadReader("broken.xlsx", strings.NewReader("PK")), nil, nil)
	require.Error(t, err)

	run, err := c.Experiments.Start(ctx, 10101, nil)
	require.NoError(t, err)
	_, err = run.Wait(ctx, nil)
	require.NoError(t, err)
	sync, err := c.Experiments.RunSync(ctx, 10101)
	require.NoError(t, err)
	pages, err := c.Dashboards.Pages(ctx, sync.ExperimentResultId)
	require.NoError(t, err)
	d, err := c.Dashboards.ExportPage(ctx, sync.ExperimentResultId, pages[0].Id)
	require.NoError(t, err)
	_, err = d.ReadAll(nil)
	require.NoError(t, err)
	require.NoError(t, dashboard.Export(ctx, c, sync.ExperimentResultId, io.Discard, nil))

	for _, auth := range e.sent.auth {
		require.Equal(t, testKey, auth, "the key was sent")
	}
	text := e.exported(t)
	for _, name := range []string{"getCurrentUser", "getProjects", "openProject", "getScenariosFromImportedDatabase",
		"importDatabase", "Job.Wait", "importExcel", "runExperiment", "Run.Wait", "runExperimentSynchronously",
		"exportDashboardPage", "dashboard.page", "retry", "http.client.request.duration", "scm.client.polls"} {
		assert.Contains(t, text, name, "the control: the telemetry has this")
	}
	assertNoSecret(t, text, testKey, testDBPassword)
}

// A hostile server quotes the password and the key everywhere it can: in
// an error's message and request id, as a job's state (job 5, whose
// state is the password, then RUNNING, then the password until its wait
// ends at MaxWait naming it) and in a failed job's error (job 6); as they
// are, and encoded as a server or a proxy may encode them (base64, the
// Basic value of user:secret, hex). No span or metric holds either.
func TestNoSecretFromHostileServer(t *testing.T) {
	for name, spell := range map[string]func(string) string{
		"as sent":           func(s string) string { return s },
		"base64":            func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) },
		"base64url raw":     func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) },
		"Basic user:secret": func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte("scm:"+s)) },
		"hex":               func(s string) string { return hex.EncodeToString([]byte(s)) },
		"HEX":               func(s string) string { return strings.ToUpper(hex.EncodeToString([]byte(s))) },
	} {
		t.Run(name, func(t *testing.T) {
			key, password := spell(testKey), spell(testDBPassword)
			assertNoSecret(t, hostileTelemetry(t, key, password), key, password)
		})
	}
}

// hostileTelemetry is what the telemetry holds after the calls of
// TestNoSecretFromHostileServer against a server quoting key and password.
func hostileTelemetry(t *testing.T, key, password string) string {
	t.Helper()
	quoted := "login as scm with " + password + " and key " + key
	var job5 atomic.Int32
	e := newStubEnv(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/scenarios-available-for-import"):
			w.Header().Set("X-Request-Id", password)
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"message":%q,"requestId":%q}`, quoted, key)
		case strings.HasSuffix(r.URL.Path, "/import-database"):
			io.WriteString(w, `[{"jobId":5},{"jobId":6}]`)
		case r.URL.Query().Get("jobId") == "5" && job5.Add(1) == 2:
			io.WriteString(w, `{"status":"RUNNING"}`)
		case r.URL.Query().Get("jobId") == "5":
			fmt.Fprintf(w, `{"status":%q}`, password)
		default:
			fmt.Fprintf(w, `{"status":"ERROR","error":%q}`, quoted)
		}
	}, facade.WithAPIKey(testKey), facade.WithClock(faketest.NewInstantClock()))
	ctx := testCtx(t)
	_, err := e.c.Imports.DatabaseScenarios(ctx, testDB())
	require.Error(t, err)
	jobs, err := e.c.Imports.Database(ctx, 1, "x", []string{"a", "b"}, testDB(), nil)
	require.NoError(t, err)
	require.Len(t, jobs, 2)
	_, err = jobs[0].Wait(ctx, &facade.WaitOptions{MaxWait: time.Hour})
	require.ErrorIs(t, err, facade.ErrTimeout)
	_, err = jobs[1].Wait(ctx, nil)
	require.ErrorIs(t, err, facade.ErrFailed)

	text := e.exported(t)
	for _, control := range []string{"scm.request_id", "Job.Wait", "scm.state", "RUNNING", "max_wait", "job 6 ended in state ERROR"} {
		assert.Contains(t, text, control, "the control: the telemetry has this")
	}
	return text
}
