package batch_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/gen"
)

// endedRunsOnly is a transport to a server that lists a run among its
// scenario's runs only once the run has ended (its experiment's status is
// no longer under way), and whose first answer to runExperiment is lost
// after the server started the run.
type endedRunsOnly struct {
	next http.RoundTripper
	mu   sync.Mutex
	lost bool // the answer to runExperiment was dropped
}

func (e *endedRunsOnly) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := e.next.RoundTrip(req)
	switch {
	case err != nil:
		return resp, err
	case strings.HasSuffix(req.URL.Path, "/open/experiments/run"):
		return e.dropFirst(resp)
	case strings.HasSuffix(req.URL.Path, "/open/experiments/results"):
		return e.endedOnly(req, resp)
	}
	return resp, nil
}

// dropFirst loses the first answer to runExperiment: the run has started,
// and the client sees the connection reset.
func (e *endedRunsOnly) dropFirst(resp *http.Response) (*http.Response, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.lost {
		return resp, nil
	}
	e.lost = true
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return nil, errors.New("read: connection reset by peer")
}

// endedOnly removes the runs of experiments with a run under way from a
// list of runs.
func (e *endedRunsOnly) endedOnly(req *http.Request, resp *http.Response) (*http.Response, error) {
	var runs []map[string]any
	err := json.NewDecoder(resp.Body).Decode(&runs)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var ended []map[string]any
	for _, r := range runs {
		rcID, _ := r["rcId"].(float64)
		underWay, err := e.underWay(req, int64(rcID))
		if err != nil {
			return nil, err
		}
		if !underWay || r["id"].(float64) < e.latest(runs, rcID) {
			ended = append(ended, r)
		}
	}
	b, _ := json.Marshal(ended)
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
	resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
	return resp, nil
}

// latest is the id of the latest run of rcID in runs.
func (e *endedRunsOnly) latest(runs []map[string]any, rcID float64) float64 {
	var id float64
	for _, r := range runs {
		if r["rcId"] == rcID {
			id = max(id, r["id"].(float64))
		}
	}
	return id
}

// underWay asks the server for the experiment's status, as the request
// was authorised.
func (e *endedRunsOnly) underWay(orig *http.Request, rcID int64) (bool, error) {
	u := *orig.URL
	u.Path = strings.TrimSuffix(u.Path, "/results") + "/status"
	u.RawQuery = url.Values{"rcId": {strconv.FormatInt(rcID, 10)}}.Encode()
	req, err := http.NewRequestWithContext(orig.Context(), http.MethodGet, u.String(), nil)
	if err != nil {
		return false, err
	}
	req.Header = orig.Header.Clone()
	resp, err := e.next.RoundTrip(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var s gen.ExecutionState
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		return false, err
	}
	return s.GenericState == gen.ExecutionStateGenericStateRUNNING, nil
}

// The answer to runExperiment is lost, the run is under way, and the
// server lists a run only once it has ended: the scenario's runs show no
// new run, but the experiment's status shows one under way. The batch takes
// it for the item's, never starts the experiment a second time, and finds
// the run's id once it has ended.
func TestLostRunAnswerWithTheRunUnderWay(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, `project: 1
items:
  - name: baseline
    scenario: 101
    experiment: GFA
`)
	c := e.client(t, func(next http.RoundTripper) http.RoundTripper { return &endedRunsOnly{next: next} })
	sum, err := e.runner(t, c, p, batch.Options{}).Run(deadline(t))
	require.NoError(t, err)
	it := sum.Items[0]
	assert.Equal(t, batch.Done, it.Status, it.Error)
	assert.EqualValues(t, 5001, it.State.RunID, "the run the lost start began")
	assert.Equal(t, 1, e.srv.Calls("runExperiment"), "the start was sent once")
	assert.Equal(t, 1, e.srv.Applied("runExperiment"))
}
