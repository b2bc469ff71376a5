package doctor_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/doctor"
	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/testkit/recorded"
)

// On the fake every check runs, in order, and none fails; nothing that
// changes state is sent.
func TestRunOnTheFakeGoesThroughEveryCheckAndChangesNothing(t *testing.T) {
	srv, _, c := instant(t)
	rep := diagnose(t, c, doctor.Options{})
	assert.Equal(t, "base-url ok\napi-key ok\nproxy ok\ndns ok\nconnect ok\ntls ok\nkey ok\nlicense warn\nspec warn\nprobe ok", outline(rep))
	assert.False(t, rep.Failed())
	assert.Empty(t, rep.StoppedAfter)
	assert.Empty(t, stateChanging(srv.Calls), "operations that change state were sent")
	probe, _ := rep.Check(doctor.CheckProbe)
	assert.Equal(t, "project 1 (Retail Network): 5 scenarios, 25 experiments, 0 runs listed; every answer matched the spec", probe.Seen)
	key, _ := rep.Check(doctor.CheckKey)
	assert.Equal(t, "accepted: the key of demo (user id 1)", key.Seen)
}

// Against answers a real server was recorded giving, the doctor reports
// every check and sends no operation that changes state; the recorded
// server fails the test on any request it has no answer for.
func TestRunOnTheRecordedServerChangesNothing(t *testing.T) {
	rs := recorded.NewServer(t)
	c, err := facade.New(rs.URL, facade.WithAPIKey("6f1c2a4e-0b7d-4c55-9e43-2d8f1a6b9c70"))
	require.NoError(t, err)
	rep := diagnose(t, c, doctor.Options{})
	assert.Equal(t, "base-url ok\napi-key ok\nproxy ok\ndns ok\nconnect ok\ntls ok\nkey ok\nlicense warn\nspec warn\nprobe ok", outline(rep), text(t, rep))
	assert.Empty(t, stateChanging(func(op string) int { return rs.Calls(gen.OperationID(op)) }), "operations that change state were sent")
	assert.Equal(t, 1, rs.Calls(gen.OpGetScenarios), "the probe read the project's scenarios")
	key, _ := rep.Check(doctor.CheckKey)
	assert.Equal(t, "accepted: the key of analyst (user id 7)", key.Seen)
}

// A project named with Options.Project is the one read; one the user
// cannot access fails the probe, naming the ones there are.
func TestProbeReadsTheProjectNamed(t *testing.T) {
	_, _, c := instant(t)
	rep := diagnose(t, c, doctor.Options{Project: 3})
	probe, _ := rep.Check(doctor.CheckProbe)
	assert.Equal(t, doctor.OK, probe.Status)
	assert.True(t, strings.HasPrefix(probe.Seen, "project 3 (Spare Parts): 1 scenario, 5 experiments"), probe.Seen)

	rep = diagnose(t, c, doctor.Options{Project: 99, Names: doctor.Names{Project: "--project"}})
	probe, _ = rep.Check(doctor.CheckProbe)
	assert.Equal(t, doctor.Fail, probe.Status)
	assert.Equal(t, "project 99 is not among the 3 projects the user can access", probe.Seen)
	assert.Equal(t, "name one of 1, 2, 3 with --project", probe.Fix)
}

// Answers that differ from the spec make the probe a warning that counts
// them by kind, and the report holds them as specdiff probe reports them.
func TestProbeReportsDrift(t *testing.T) {
	srv, clk := fakeBehind(t, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Path != "/api/v1/open/project/list" {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"id":1,"name":"P","accessible":true,"creationDate":"2026-03-10T16:19:55.145394Z","currentUserId":null,"deleted":false,"ownerUserId":1,"region":"EU"}]`))
	})
	c, err := facade.New(srv, facade.WithAPIKey(fake.DefaultAPIKey), facade.WithClock(clk))
	require.NoError(t, err)
	rep := diagnose(t, c, doctor.Options{})
	probe, _ := rep.Check(doctor.CheckProbe)
	assert.Equal(t, doctor.Warn, probe.Status)
	assert.Contains(t, probe.Seen, "the answers differed from the spec in 1 place (probe-unknown-field 1)")
	require.Len(t, rep.Drift, 1)
	assert.Equal(t, drift.KindUnknownField, rep.Drift[0].Kind)
	assert.Equal(t, "getProjects", rep.Drift[0].Operation)
}

// A license field in getCurrentUser's answer is reported; without one the
// check says it cannot tell and never sends requestLicense.
func TestLicenseIsReadWhereTheUserAnswerHasIt(t *testing.T) {
	srv, clk := fakeBehind(t, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Path != "/api/v1/open/user" {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1,"username":"demo","firstName":"D","lastName":"","email":"d@example.com","licenseType":"SIMULATION"}`))
	})
	c, err := facade.New(srv, facade.WithAPIKey(fake.DefaultAPIKey), facade.WithClock(clk))
	require.NoError(t, err)
	rep := diagnose(t, c, doctor.Options{})
	license, _ := rep.Check(doctor.CheckLicense)
	assert.Equal(t, doctor.Check{Name: "license", Status: doctor.OK, Seen: `getCurrentUser answers licenseType: "SIMULATION"`}, license)
}

// The spec check summarises a comparison: operations missing on either
// side and models whose schemas differ are a warning, as is a server
// that publishes no document; a document that matches is OK.
func TestSpecCheckSummarisesTheComparison(t *testing.T) {
	_, _, c := instant(t)
	tests := map[string]struct {
		cmp    doctor.SpecComparison
		err    error
		status doctor.Status
		seen   string
	}{
		"matches": {cmp: doctor.SpecComparison{Source: "https://h/v3/api-docs", Operations: 63,
			Findings: []drift.Finding{{Kind: "known-omission", Operation: "requestLicense"}}},
			status: doctor.OK, seen: "the server's document at https://h/v3/api-docs matches the SDK's spec: 63 operations, 1 left out as some servers do (requestLicense)"},
		"differs": {cmp: doctor.SpecComparison{Source: "https://h/v3/api-docs", Operations: 60, Findings: []drift.Finding{
			{Kind: "missing-in-listing", Operation: "getScenarios", Drift: true},
			{Kind: "extra-in-listing", Operation: "getAudit", Drift: true},
			{Kind: "property-removed", Operation: "getProjects", Path: "ApiProjectResponse.name", Drift: true},
			{Kind: "property-type", Operation: "getUser", Path: "ApiUserData.id", Drift: true},
			{Kind: "property-added", Operation: "getProjects", Path: "ApiProjectResponse.region", Drift: true},
			{Kind: "security", Operation: "getUser", Drift: true},
		}}, status: doctor.Warn, seen: "the server's document at https://h/v3/api-docs (60 operations) differs from the SDK's spec: " +
			"it lacks 1 operation of the spec (getScenarios); the spec lacks 1 operation of it (getAudit); " +
			"the schemas of 2 models differ (ApiProjectResponse, ApiUserData); 1 difference more (security)"},
		"none published": {err: doctor.ErrNoDocument, status: doctor.Warn, seen: "the server publishes no OpenAPI document"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rep := diagnose(t, c, doctor.Options{CompareSpec: func(context.Context) (doctor.SpecComparison, error) { return tc.cmp, tc.err }})
			spec, _ := rep.Check(doctor.CheckSpec)
			assert.Equal(t, tc.status, spec.Status)
			assert.Equal(t, tc.seen, spec.Seen)
			assert.False(t, rep.Failed(), "the spec check never fails")
		})
	}
}

// The proxy check names the proxy net/http would use for the base URL,
// without its password, and why none is used when a variable is set.
func TestProxyCheckNamesTheProxy(t *testing.T) {
	_, _, c := instant(t)
	rep := diagnose(t, c, doctor.Options{Proxy: func(*http.Request) (*url.URL, error) {
		return url.Parse("http://user:proxy-secret@proxy.example:3128")
	}})
	proxy, _ := rep.Check(doctor.CheckProxy)
	assert.Equal(t, "requests go through the proxy http://user:xxxxx@proxy.example:3128 (the client's proxy setting)", proxy.Seen)

	t.Setenv("HTTP_PROXY", "http://proxy.example:3128")
	rep = diagnose(t, c, doctor.Options{Proxy: func(*http.Request) (*url.URL, error) { return nil, nil }})
	proxy, _ = rep.Check(doctor.CheckProxy)
	assert.Equal(t, "none for 127.0.0.1: HTTP_PROXY is set, but net/http never sends requests for this machine through a proxy", proxy.Seen)
}

// A base URL without /api/v1 is a warning that gives the URL with it, and
// the key check, which then finds no operation, fails with the facade's
// hint.
func TestBaseURLWithoutTheVersionPrefix(t *testing.T) {
	srv, clk, _ := instant(t)
	root := strings.TrimSuffix(srv.URL, "/api/v1")
	c, err := facade.New(root, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
	require.NoError(t, err)
	rep := diagnose(t, c, doctor.Options{})
	base, _ := rep.Check(doctor.CheckBaseURL)
	assert.Equal(t, doctor.Warn, base.Status)
	assert.Equal(t, "use "+srv.URL+" (the base URL given to facade.New), unless the server's interface is really there", base.Fix)
	key, _ := rep.Check(doctor.CheckKey)
	assert.Equal(t, doctor.Fail, key.Status)
	assert.Contains(t, key.Fix, "does not end in /api/v1")
	assert.Equal(t, doctor.CheckKey, rep.StoppedAfter)
}

// A client without a key fails the api-key check and sends nothing.
func TestNoKeyStopsBeforeSending(t *testing.T) {
	srv, clk, _ := instant(t)
	c, err := facade.New(srv.URL, facade.WithClock(clk))
	require.NoError(t, err)
	rep := diagnose(t, c, doctor.Options{})
	assert.Equal(t, "base-url ok\napi-key fail", outline(rep))
	assert.Zero(t, srv.Calls(string(gen.OpGetCurrentUser)))
}

// The report writes as a table, one JSON document, an object per check,
// and CSV.
func TestReportFormats(t *testing.T) {
	_, _, c := instant(t)
	rep := diagnose(t, c, doctor.Options{})
	var b strings.Builder
	require.NoError(t, rep.Write(&b, doctor.JSON))
	var back doctor.Report
	require.NoError(t, json.Unmarshal([]byte(b.String()), &back))
	assert.Equal(t, rep.Checks, back.Checks)

	b.Reset()
	require.NoError(t, rep.Write(&b, doctor.JSONL))
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, len(rep.Checks))
	var first doctor.Check
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Equal(t, rep.Checks[0], first)

	b.Reset()
	require.NoError(t, rep.Write(&b, doctor.CSV))
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, len(rep.Checks)+1)
	assert.Equal(t, []string{"status", "check", "seen", "fix"}, rows[0])
	assert.Equal(t, []string{"ok", "base-url"}, rows[1][:2])

	table := text(t, rep)
	assert.True(t, strings.HasSuffix(table, "10 checks: 8 ok, 2 warn, 0 fail\n"), table)
	assert.Error(t, rep.Write(&b, "xml"))
}

// fakeBehind serves the fake on an instant clock behind a handler that may
// answer a request itself, and returns its base URL and clock.
func fakeBehind(t *testing.T, h func(w http.ResponseWriter, r *http.Request, next http.Handler)) (string, faketest.InstantClock) {
	t.Helper()
	clk := faketest.NewInstantClock()
	inner := fake.NewHandler(fake.WithClock(clk), fake.WithLicense())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h(w, r, inner) }))
	t.Cleanup(srv.Close)
	return srv.URL + fake.BasePath, clk
}
