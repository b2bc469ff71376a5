package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/doctor"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/testkit/recorded"
)

// devServer serves the fake as scm-fake does (its OpenAPI document at
// /v3/api-docs), with TLS when asked, until the test ends. It returns the
// base URL and, with TLS, the file of the certificate to trust.
func devServer(t *testing.T, withTLS bool) (base, ca string) {
	t.Helper()
	dev := fake.DefaultDevServer()
	dev.Key = testKey
	if withTLS {
		dev.TLS, dev.TLSCertOut = true, filepath.Join(t.TempDir(), "ca.pem")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // the server serves until the test ends, within a minute
	var out faketest.Buffer
	done := make(chan error, 1)
	go func() { done <- dev.Serve(ctx, ln, &out) }()
	t.Cleanup(func() { cancel(); <-done })
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "API docs:") {
		require.True(t, time.Now().Before(deadline), "the dev server did not say where it serves within 10 s: %q", out.String())
		time.Sleep(10 * time.Millisecond)
	}
	m := regexp.MustCompile(`base URL: (\S+)`).FindStringSubmatch(out.String())
	require.NotNil(t, m, out.String())
	return m[1], dev.TLSCertOut
}

// noProxy clears the proxy variables, so that the proxy line is the same
// on every machine.
func noProxy(t *testing.T) {
	t.Helper()
	for _, v := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "NO_PROXY", "no_proxy"} {
		t.Setenv(v, "")
	}
}

// On the fake, plain and over TLS with its CA trusted, every check passes
// but the license (which no operation reads without taking one); the
// server's document matches the spec. Without the CA, the tls check fails
// naming --ca-cert.
func TestDoctorOnTheFake(t *testing.T) {
	noProxy(t)
	plain, _ := devServer(t, false)
	r := scm(t, "", "doctor", "--base-url", plain, "--api-key", testKey)
	require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "ok    spec      the server's document at "+strings.TrimSuffix(plain, "/api/v1")+"/v3/api-docs matches the SDK's spec: "+fmt.Sprint(len(gen.Operations()))+" operations")
	assert.Contains(t, r.stdout, "10 checks: 9 ok, 1 warn, 0 fail\n")

	secure, ca := devServer(t, true)
	r = scm(t, "", "doctor", "--base-url", secure, "--api-key", testKey, "--ca-cert", ca)
	require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	assert.Regexp(t, `ok    tls       TLS 1\.3, a certificate for .*127\.0\.0\.1.* issued by scm-fake`, r.stdout)

	r = scm(t, "", "doctor", "--base-url", secure, "--api-key", testKey)
	require.Equal(t, exitAPI, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "fail  tls       the server's certificate issued by scm-fake is signed by an authority this machine does not trust; "+
		"to change: trust the server's CA: give its certificate (PEM) with --ca-cert FILE (or SCM_CA_CERT)")
	assert.Contains(t, r.stdout, "stopped after tls")
	assert.Equal(t, "scm doctor: the tls check failed: the report says what to change\n", r.stderr)
}

// A wrong key fails the key check, and neither output holds the key.
func TestDoctorWrongKey(t *testing.T) {
	noProxy(t)
	base, _ := devServer(t, false)
	const wrong = "wrong-key-0c9d7e5b"
	r := scm(t, "", "doctor", "--base-url", base, "--api-key", wrong)
	require.Equal(t, exitAPI, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "fail  key       the server refused the key: getCurrentUser: ")
	assert.Contains(t, r.stdout, "to change: give the key of a user of this server with --api-key or SCM_API_KEY")
	assert.Equal(t, "scm doctor: the key check failed: the report says what to change\n", r.stderr)
	assert.NotContains(t, r.stdout+r.stderr, wrong)
}

// Settings too wrong to make a client of are the report's first line,
// and a failure.
func TestDoctorWithoutSettings(t *testing.T) {
	t.Setenv("SCM_BASE_URL", "")
	t.Setenv("SCM_API_KEY", "")
	r := scm(t, "", "doctor")
	assert.Equal(t, exitAPI, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "fail  base-url  no server: give --base-url or set SCM_BASE_URL"), r.stdout)
	r = scm(t, "", "doctor", "--base-url", "http://127.0.0.1:1/api/v1")
	assert.Equal(t, exitAPI, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "fail  api-key   no API key is set"), r.stdout)
}

// Against a server that answers as the real one was recorded answering,
// the doctor writes a report and sends nothing that changes state.
func TestDoctorOnTheRecordedServer(t *testing.T) {
	noProxy(t)
	rs := recorded.NewServer(t)
	r := scm(t, "", "doctor", "--base-url", rs.URL, "--api-key", testKey, "--format", "json")
	require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	var rep doctor.Report
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	assert.Len(t, rep.Checks, 10)
	for _, op := range gen.Operations() {
		if op.ChangesState {
			assert.Zero(t, rs.Calls(gen.OperationID(op.ID)), "%s changes state", op.ID)
		}
	}
	spec, _ := rep.Check(doctor.CheckSpec)
	assert.Equal(t, doctor.Warn, spec.Status)
	assert.True(t, strings.HasPrefix(spec.Seen, "the server publishes no OpenAPI document at /v3/api-docs"), spec.Seen)
}

// The guard of the doctor's client sends what does not change state,
// runExperiment only with --run --yes, and nothing else.
func TestDoctorClientSendsNothingThatChangesState(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	srv, flags := newServer(t)
	a := &app{stderr: &strings.Builder{}, baseURL: flags[1], apiKey: testKey, attemptTimeout: time.Second}
	for _, allowRun := range []bool{false, true} {
		c, err := a.doctorClient(&doctorFlags{run: 10303, yes: allowRun})
		require.NoError(t, err)
		_, err = c.Projects.Close(ctx)
		require.ErrorContains(t, err, "scm doctor sends nothing that changes state, and closeProject does")
		_, err = c.Experiments.Start(ctx, 10303, nil)
		assert.Equal(t, allowRun, err == nil, "runExperiment with --run --yes: %v", err)
		_, err = c.Projects.List(ctx)
		require.NoError(t, err)
	}
	assert.Zero(t, srv.Calls("closeProject"))
	assert.Equal(t, 1, srv.Calls("runExperiment"))
}

// --run without --yes is a usage mistake that says what it would do, and
// sends nothing; so are a format doctor does not write and --yes alone.
func TestDoctorUsageMistakes(t *testing.T) {
	srv, flags := newServer(t)
	for args, want := range map[string]string{
		"doctor --run 10303":         "scm doctor: --run 10303 starts one run of rcId 10303 (runExperiment, which changes state: the run takes a license while it runs and makes a new result) to measure how long the status shows the last run's end; add --yes to let it\n",
		"doctor --format parquet":    "scm doctor: --format parquet: this command writes table, json, jsonl or csv\n",
		"doctor --yes":               "scm doctor: --yes lets --run start a run, and no --run was given\n",
		"doctor --overlay-out -":     "scm doctor: --overlay-out -: give a file; standard output holds the report\n",
		"doctor --run notanid --yes": "",
	} {
		r := scm(t, "", append(strings.Fields(args), flags...)...)
		assert.Equal(t, exitUsage, r.code, args)
		if want != "" {
			assert.Equal(t, want, r.stderr, args)
		}
		assert.Empty(t, r.stdout, args)
	}
	assert.Zero(t, srv.Calls("getCurrentUser"), "a usage mistake sends nothing")
}

// -o writes the report to a file, its layout from the extension unless
// --format says; jsonl is an object per check.
func TestDoctorWritesTheReport(t *testing.T) {
	noProxy(t)
	_, flags := newServer(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "doctor.json")
	r := scm(t, "", append([]string{"doctor", "-o", path}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Empty(t, r.stdout)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var rep doctor.Report
	require.NoError(t, json.Unmarshal(b, &rep), "the layout of a .json file is json")
	assert.Len(t, rep.Checks, 10)

	r = scm(t, "", append([]string{"doctor", "--format", "jsonl"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 10)
	var first doctor.Check
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &first))
	assert.Equal(t, doctor.CheckBaseURL, first.Name)
}

// --run on a virtual clock measures the fake's status lag to within a
// second, and recommends settings above what it saw; the only request
// that changes state is the run's start.
func TestDoctorRunMeasuresTheStatusLag(t *testing.T) {
	noProxy(t)
	clk := faketest.NewInstantClock()
	doctorClock = clk
	t.Cleanup(func() { doctorClock = nil })
	const lag = 2 * time.Second
	srv, flags := newServer(t, fake.WithClock(clk), fake.WithStatusLag(lag), fake.WithRunDuration(6*time.Second))
	ranBefore(t, srv.URL, clk)

	r := scm(t, "", append([]string{"doctor", "--run", "10303", "--yes", "--format", "json"}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	var rep struct {
		Run map[string]any `json:"run"`
	}
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &rep))
	durations := map[string]time.Duration{}
	for _, k := range []string{"statusLag", "length", "recommendedStaleWindow", "recommendedMaxRunLength"} {
		d, err := time.ParseDuration(rep.Run[k].(string))
		require.NoError(t, err, k)
		durations[k] = d
	}
	assert.InDelta(t, lag.Seconds(), durations["statusLag"].Seconds(), 1, "the lag measured")
	assert.Greater(t, durations["recommendedStaleWindow"], durations["statusLag"])
	assert.Greater(t, durations["recommendedMaxRunLength"], durations["length"])
	assert.Equal(t, 2, srv.Calls("runExperiment"), "the run before, and the doctor's")
	for _, op := range gen.Operations() {
		if op.ChangesState && op.ID != string(gen.OpRunExperiment) {
			assert.Zero(t, srv.Calls(op.ID), "%s changes state", op.ID)
		}
	}
}

// ranBefore runs 10303 to its end, so that the status shows an end
// before the doctor starts its run.
func ranBefore(t *testing.T, base string, clk faketest.InstantClock) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	c, err := facade.New(base, facade.WithAPIKey(testKey), facade.WithClock(clk))
	require.NoError(t, err)
	_, err = c.RunAndWait(ctx, 10303, nil)
	require.NoError(t, err)
}

// Answers that differ from the spec make the probe a warning, and
// --overlay-out writes the spec change specdiff overlay makes of them;
// answers that match write none, and say so.
func TestDoctorOverlayOut(t *testing.T) {
	noProxy(t)
	inner := fake.NewHandler(fake.WithAPIKeys(testKey), fake.WithLicense())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/open/user" {
			inner.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1,"username":"demo","firstName":"Demo","lastName":"","email":"demo@example.com","department":"planning"}`))
	}))
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "overlay.yaml")
	r := scm(t, "", "doctor", "--base-url", srv.URL+"/api/v1", "--api-key", testKey, "--overlay-out", path)
	require.Equal(t, exitOK, r.code, r.stdout+r.stderr)
	assert.Contains(t, r.stdout, "the answers differed from the spec in 1 place (probe-unknown-field 1); to change: the SDK keeps working")
	b, err := os.ReadFile(path)
	require.NoError(t, err, r.stderr)
	assert.Contains(t, string(b), "department")
	assert.Contains(t, string(b), "x-observed")
	assert.Contains(t, r.stderr, "scm doctor --overlay-out: 1 of 1 finding made 1 action")

	_, flags := newServer(t)
	clean := filepath.Join(t.TempDir(), "none.yaml")
	r = scm(t, "", append([]string{"doctor", "--overlay-out", clean}, flags...)...)
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Contains(t, r.stderr, "scm doctor: the answers matched the spec: nothing to change, no overlay written to "+clean)
	assert.NoFileExists(t, clean)
}

// A base URL the SDK refuses, plain http to a host that is not this
// machine, is the report's first line, naming --insecure-http.
func TestDoctorPlainHTTPToAnotherHost(t *testing.T) {
	r := scm(t, "", "doctor", "--base-url", "http://scm.example.com/api/v1", "--api-key", testKey)
	assert.Equal(t, exitAPI, r.code)
	assert.True(t, strings.HasPrefix(r.stdout, "fail  base-url  refusing to send the API key over plain http to scm.example.com; use https or --insecure-http"), r.stdout)
	assert.NotContains(t, r.stdout, testKey)
}
