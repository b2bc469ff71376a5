package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// sent is a state-changing request as it reached the server: its
// operation and the ids it names (rcId, scenarioId), in the query or the
// body.
type sent struct {
	op  string
	ids map[string]int64
}

// changeRecorder stands in front of a fake server and records every
// state-changing request.
type changeRecorder struct {
	next http.Handler
	ops  map[string]gen.Operation // "METHOD /api/v1/path"
	mu   sync.Mutex
	sent []sent
}

// newChangeRecorder starts the recorder in front of srv and returns it
// with its base URL.
func newChangeRecorder(t *testing.T, srv *fake.Server) (*changeRecorder, string) {
	rec := &changeRecorder{next: srv.Handler, ops: map[string]gen.Operation{}}
	for _, op := range gen.Operations() {
		rec.ops[op.Method+" "+fake.BasePath+op.Path] = op
	}
	ts := httptest.NewServer(rec)
	t.Cleanup(ts.Close)
	return rec, ts.URL + fake.BasePath
}

func (c *changeRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if op, ok := c.ops[r.Method+" "+r.URL.Path]; ok && op.ChangesState {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s := sent{op: op.ID, ids: map[string]int64{}}
		for _, name := range []string{"rcId", "scenarioId"} {
			if v, err := strconv.ParseInt(r.URL.Query().Get(name), 10, 64); err == nil {
				s.ids[name] = v
			}
		}
		var doc map[string]any
		if json.Unmarshal(body, &doc) == nil {
			if v, ok := doc["rcId"].(float64); ok {
				s.ids["rcId"] = int64(v)
			}
		}
		c.mu.Lock()
		c.sent = append(c.sent, s)
		c.mu.Unlock()
	}
	c.next.ServeHTTP(w, r)
}

// requests returns the state-changing requests recorded so far.
func (c *changeRecorder) requests() []sent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]sent(nil), c.sent...)
}

// demoWorld is what the demo must not change: every scenario of every project
// before it ran, their experiments' run configurations, their runs and
// their tables, and who has which project open.
type demoWorld struct {
	scenarios map[ids.ScenarioID]bool
	rcs       map[ids.RcID]bool
	state     map[string]string
}

func snapshot(t *testing.T, ctx context.Context, srv *fake.Server, c *facade.Client) demoWorld {
	t.Helper()
	w := demoWorld{scenarios: map[ids.ScenarioID]bool{}, rcs: map[ids.RcID]bool{}, state: map[string]string{}}
	projects, err := c.Projects.List(ctx)
	require.NoError(t, err)
	for _, p := range projects {
		w.state["project "+p.Id.String()+" open by"] = jsonText(t, p.CurrentUserId)
		list, err := c.Scenarios.List(ctx, p.Id)
		require.NoError(t, err)
		for _, s := range list {
			w.scenarios[s.Id] = true
			key := "scenario " + s.Id.String()
			tables, _ := srv.ScenarioTables(s.Id)
			runs, err := c.Experiments.Runs(ctx, s.Id)
			require.NoError(t, err)
			w.state[key+" tables"], w.state[key+" runs"] = jsonText(t, tables), jsonText(t, runs)
			exps, err := c.Experiments.List(ctx, p.Id, s.Id)
			require.NoError(t, err)
			for _, e := range exps {
				w.rcs[e.Id] = true
				rc, err := c.Experiments.RunConfiguration(ctx, e.Id)
				require.NoError(t, err)
				w.state["rc "+e.Id.String()] = jsonText(t, rc)
			}
		}
	}
	return w
}

func jsonText(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// scm demo --base-url --yes changes only what it created: no request that
// changes state names a scenario or an experiment that was there before
// (but the scenarios it copies, which a copy only reads), and afterwards
// every scenario, experiment, run and table that was there is as it was,
// and so is who has which project open. Its confirmation lists each change
// and what it changes.
func TestHostileDemoChangesOnlyWhatItCreated(t *testing.T) {
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	srv, _ := demoServer(t)
	rec, url := newChangeRecorder(t, srv)
	c, err := facade.New(srv.URL, facade.WithAPIKey(testKey))
	require.NoError(t, err)
	before := snapshot(t, ctx, srv, c)

	r := scmContext(t, ctx, "", "demo", "--base-url", url, "--api-key", testKey, "--yes")
	require.NoError(t, ctx.Err(), "scm demo did not end within 20s")
	require.Equal(t, exitOK, r.code, r.stderr)

	requests := rec.requests()
	require.NotEmpty(t, requests)
	reads := map[string]bool{string(gen.OpCopyScenarioSynchronously): true} // it reads the scenario it copies
	for _, s := range requests {
		if reads[s.op] {
			continue
		}
		assert.False(t, before.scenarios[ids.ScenarioID(s.ids["scenarioId"])], "%s changes scenario %d, which the demo did not create", s.op, s.ids["scenarioId"])
		assert.False(t, before.rcs[ids.RcID(s.ids["rcId"])], "%s changes experiment %d, which the demo did not create", s.op, s.ids["rcId"])
	}
	after := snapshot(t, ctx, srv, c)
	for key, was := range before.state {
		assert.Equal(t, was, after.state[key], "%s changed", key)
	}
	assert.Len(t, after.scenarios, len(before.scenarios)+3, "the import and two copies are new")

	for _, line := range []string{
		"  - a new scenario, the SIM copy: copies the project's first SIM scenario (copyScenarioSynchronously)\n",
		"  - the SIM copy: adds 1 to the replications of its SIMULATION (updateExperimentRunConfiguration)\n",
		"  - the SIM copy: creates a variation of its VARIATION experiment (createNewVariableParameter)\n",
		"  - the last mile copy: selects 6 orders of its last mile optimization",
		"It changes no scenario, experiment or result it did not create",
	} {
		assert.Contains(t, r.stderr, line)
	}
}

// A server that never answers costs --timeout for the whole command, not
// --timeout per attempt: with a request timeout of 250 ms and --timeout
// 400 ms, at most two attempts start (four would, were --timeout per
// attempt), and the error names --timeout.
func TestHostileSilentServerMeetsTheCommandTimeout(t *testing.T) {
	srv := newSilentServer(t)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	r := scmContext(t, ctx, "", "projects", "--base-url", srv.url, "--api-key", testKey, "--request-timeout", "250ms", "--timeout", "400ms")
	require.NoError(t, ctx.Err(), "scm projects --timeout 400ms did not end within 10s")
	assert.Equal(t, exitAPI, r.code, r.stderr)
	assert.Contains(t, r.stderr, "--timeout 400ms")
	assert.LessOrEqual(t, len(srv.requests), 2, "attempts started")
}
