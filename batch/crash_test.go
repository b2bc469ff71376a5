package batch_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// diskCheck checks, as each request of a batch arrives, that the state file
// on disk (not the runner's memory) already records what the request
// depends on, so that a batch killed during the request finds it there.
type diskCheck struct {
	t         *testing.T
	e         *env
	path      string            // the state file
	scenarios map[string]string // the item of each new scenario name
}

// request checks the state on disk for a request of operation op.
func (d *diskCheck) request(op string, req *http.Request) {
	items := d.read()
	q := req.URL.Query()
	id := func(name string) int64 { v, _ := strconv.ParseInt(q.Get(name), 10, 64); return v }
	rcID := ids.RcID(id("rcId"))
	scenarioID := ids.ScenarioID(id("scenarioId"))
	switch op {
	case "importExcel":
		st := items[d.scenarios[formValue(d.t, req, "newScenarioName")]]
		d.want(st.ImportSent && st.JobID == 0, op, "the import being sent")
	case "getImportStatus":
		d.want(anyItem(items, func(s batch.ItemState) bool { return s.JobID == ids.JobID(id("jobId")) }), op, "its jobId")
	case "getExperiments":
		d.want(anyItem(items, func(s batch.ItemState) bool { return s.ScenarioID == scenarioID }), op, "its scenarioId")
	case "getExperimentStatus":
		d.want(anyItem(items, func(s batch.ItemState) bool { return s.RcID == rcID }), op, "its rcId")
	case "runExperiment":
		listed := d.listed(req.Context(), scenarioOf(items, rcID))
		d.want(anyItem(items, func(s batch.ItemState) bool {
			return s.RcID == rcID && s.RunSent && !s.RunStarted && slices.Equal(tokenListed(d.t, s.RunToken), listed)
		}), op, fmt.Sprintf("the start being sent and the runs listed before it %v", listed))
	case "getExperimentRunsForScenario":
		d.want(anyItem(items, func(s batch.ItemState) bool { return s.ScenarioID == scenarioID && s.RcID != 0 }), op, "its scenario's run configuration")
	case "getExperimentDashboardPages", "exportDashboardPage":
		d.want(anyItem(items, func(s batch.ItemState) bool {
			return s.ExperimentResultID == ids.ExperimentResultID(id("experimentResultId"))
		}), op, "its experimentResultId")
	}
}

func (d *diskCheck) want(ok bool, op, what string) {
	if !ok {
		d.t.Errorf("%s was sent before the state file on disk recorded %s", op, what)
	}
}

// read reads the state file from disk; no file has no items.
func (d *diskCheck) read() map[string]batch.ItemState {
	var file struct {
		Items map[string]batch.ItemState `json:"items"`
	}
	b, err := os.ReadFile(d.path)
	if err == nil {
		err = json.Unmarshal(b, &file)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		d.t.Errorf("reading the state file: %v", err)
	}
	return file.Items
}

// listed are the ids of the scenario's runs the server lists, read through
// a client of its own.
func (d *diskCheck) listed(ctx context.Context, scenarioID ids.ScenarioID) []ids.RunID {
	runs, err := d.e.c.Experiments.Runs(ctx, scenarioID)
	if err != nil {
		d.t.Errorf("the runs of scenario %d: %v", scenarioID, err)
		return nil
	}
	listed := []ids.RunID{}
	for _, r := range runs {
		listed = append(listed, r.Id)
	}
	return listed
}

// scenarioOf is the scenario of the item that has run configuration rcID.
func scenarioOf(items map[string]batch.ItemState, rcID ids.RcID) ids.ScenarioID {
	for _, s := range items {
		if s.RcID == rcID {
			return s.ScenarioID
		}
	}
	return 0
}

func anyItem(items map[string]batch.ItemState, match func(batch.ItemState) bool) bool {
	for _, s := range items {
		if match(s) {
			return true
		}
	}
	return false
}

// formValue reads a field of a multipart request and puts the body back.
func formValue(t *testing.T, req *http.Request, field string) string {
	body, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	req.Body = io.NopCloser(bytes.NewReader(body))
	_, params, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
	require.NoError(t, err)
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		part, err := mr.NextPart()
		if err != nil {
			t.Errorf("the form has no %s: %v", field, err)
			return ""
		}
		if part.FormName() == field {
			v, _ := io.ReadAll(part)
			return string(v)
		}
	}
}

// killer is a transport that checks every request against the state file
// on disk and kills the batch at the first request of operation op: as a
// SIGKILL would, it ends the worker sending it with runtime.Goexit, so no
// code after the call runs, and fails every later request. after says
// whether the server gets the request (and applies it) before the kill.
type killer struct {
	next   http.RoundTripper
	check  *diskCheck
	op     string
	after  bool
	cancel context.CancelFunc
	dead   atomic.Bool
}

func (k *killer) RoundTrip(req *http.Request) (*http.Response, error) {
	if k.dead.Load() {
		return nil, errors.New("the batch is dead")
	}
	op, _ := facade.OperationFromContext(req.Context())
	req = req.Clone(req.Context())
	k.check.request(op, req)
	if op != k.op || !k.dead.CompareAndSwap(false, true) {
		return k.next.RoundTrip(req)
	}
	if k.after {
		if resp, err := k.next.RoundTrip(req); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	k.cancel() // nothing more is started
	runtime.Goexit()
	return nil, nil
}

// crashPlan imports a workbook and runs an existing scenario, each
// exporting its dashboard.
const crashPlan = `project: 1
output: out
items:
  - name: imported
    workbook: book.xlsx
    scenarioName: Crash test
    experiment: SIMULATION
    export: {dashboard: imported.xlsx}
  - name: existing
    scenario: 101
    experiment: GFA
    export: {dashboard: existing.xlsx}
`

// A batch killed at any request resumes without sending an import or a run
// twice, and every request, of the killed batch and of the resumed one,
// finds on disk what it depends on.
func TestKilledAtEveryRequest(t *testing.T) {
	cases := []struct {
		op    string
		after bool
	}{
		{"importExcel", true},
		{"getImportStatus", true},
		{"getExperiments", true},
		{"getExperimentStatus", true},
		{"runExperiment", false},
		{"runExperiment", true},
		{"getExperimentRunsForScenario", true},
		{"getExperimentDashboardPages", true},
		{"exportDashboardPage", true},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s/applied=%v", tc.op, tc.after), func(t *testing.T) {
			e := newEnv(t, fake.WithResultSize(1, 1, 5))
			p := e.plan(t, crashPlan)
			check := &diskCheck{t: t, e: e, path: p.StatePath(), scenarios: map[string]string{"Crash test": "imported"}}
			ctx, cancel := context.WithCancel(deadline(t))
			defer cancel()
			k := &killer{check: check, op: tc.op, after: tc.after, cancel: cancel}
			c := e.client(t, func(next http.RoundTripper) http.RoundTripper { k.next = next; return k })
			_, err := e.runner(t, c, p, batch.Options{Parallel: 1}).Run(ctx)
			require.NoError(t, err)
			require.True(t, k.dead.Load(), "the batch sent no %s", tc.op)

			e.clock.Advance(time.Hour) // an import killed mid-call is done by now
			resumed := e.client(t, func(next http.RoundTripper) http.RoundTripper {
				return &killer{next: next, check: check, cancel: func() {}}
			})
			sum, err := e.runner(t, resumed, p, batch.Options{Parallel: 2}).Run(deadline(t))
			require.NoError(t, err)
			if tc.op == "runExperiment" && !tc.after {
				// The start never reached the server, for a configuration
				// that never ran: a run under way would show the same, so
				// the item is unknown until the user retries it.
				require.Equal(t, batch.Unknown, sum.Items[0].Status, "%+v", sum.Items)
				assert.Equal(t, 1, e.srv.Applied("runExperiment"), "nothing sent on unknown")
				sum, err = e.runner(t, resumed, p, batch.Options{Parallel: 2, RetryFailed: true}).Run(deadline(t))
				require.NoError(t, err)
			}
			assert.True(t, sum.OK(), "%+v", sum.Items)
			assert.Equal(t, 1, e.srv.Applied("importExcel"), "never imported twice")
			assert.Equal(t, 2, e.srv.Applied("runExperiment"), "never run twice")
			assert.FileExists(t, p.Dir+"/out/imported.xlsx")
			assert.FileExists(t, p.Dir+"/out/existing.xlsx")
		})
	}
}

// A run killed mid-call is found again before another item of the batch
// can start the same experiment: the item whose run was under way uses the
// run configuration first, and adopts its own run. The items before it give
// up their place while they wait, so that it gets one.
func TestKilledRunGoesFirst(t *testing.T) {
	e := newEnv(t, fake.WithResultSize(1, 1, 5))
	p := e.plan(t, "project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n")
	check := &diskCheck{t: t, e: e, path: p.StatePath()}
	ctx, cancel := context.WithCancel(deadline(t))
	defer cancel()
	k := &killer{check: check, op: "runExperiment", after: true, cancel: cancel}
	c := e.client(t, func(next http.RoundTripper) http.RoundTripper { k.next = next; return k })
	_, err := e.runner(t, c, p, batch.Options{}).Run(ctx)
	require.NoError(t, err)

	p = e.plan(t, `project: 1
items:
  - {name: b, scenario: 101, experiment: GFA}
  - {name: c, scenario: 101, experiment: GFA}
  - {name: a, scenario: 101, experiment: GFA}
`)
	sum := e.run(t, p, batch.Options{Parallel: 1}) // b comes first, and must let a go before it
	assert.True(t, sum.OK(), "%+v", sum.Items)
	runs := []ids.RunID{sum.Items[0].State.RunID, sum.Items[1].State.RunID, sum.Items[2].State.RunID}
	slices.Sort(runs)
	assert.Equal(t, runs[0], sum.Items[2].State.RunID, "a adopts the run started before the kill, the first of the three")
	assert.Len(t, slices.Compact(runs), 3, "a run each")
	assert.Equal(t, 3, e.srv.Applied("runExperiment"))
	assert.Equal(t, 3, e.srv.Calls("runExperiment"), "no start refused as already running")
}

// tokenListed reads the runs listed before a start from its resume token,
// as this release writes it (scmrun.3., base64url JSON, a dot and its
// checksum): what the start's evidence says the scenario listed.
func tokenListed(t *testing.T, token string) []ids.RunID {
	t.Helper()
	body, _, _ := strings.Cut(strings.TrimPrefix(token, "scmrun.3."), ".")
	b, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || !strings.HasPrefix(token, "scmrun.3.") {
		t.Errorf("resume token (%d bytes) is not of this release", len(token))
		return nil
	}
	var tok struct {
		Listed []ids.RunID `json:"listed"`
	}
	if err := json.Unmarshal(b, &tok); err != nil {
		t.Errorf("resume token (%d bytes): %v", len(token), err)
	}
	return tok.Listed
}
