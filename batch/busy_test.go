package batch_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/ids"
)

// The moments another process starts the item's configuration, against
// the batch's start, and the runs of the matrix.
const (
	otherLongBefore = "long before"    // half a run before the batch
	otherZeroBefore = "0 s before"     // as the batch sends its start
	otherWithinLag  = "within the lag" // half the status lag before the batch
	busyLag         = 5 * time.Second  // the status lag of the matrix's fakes
	busyRc          = ids.RcID(10303)  // SIMULATION of scenario 103, in project 1
	shortRun        = 2 * time.Second  // shorter than the lag
	busySettle      = 30 * time.Minute // long enough for any run of the matrix to end
)

// busyPlan runs scenario 103's simulation.
const busyPlan = "project: 1\nitems:\n  - {name: busy, scenario: 103, experiment: SIMULATION}\n"

// busyWant is how the item ends when another process starts its
// configuration at when, on a server that answers a second start by mode:
// done with its own result where the batch saw the other run (Prepare
// saw it under way, or the server refused the start) and queued behind
// it, or where the other run ended before the batch; else unknown (two
// new runs listed: an ambiguous facade.StartUnknownError), never done with the
// other's.
func busyWant(mode fake.SecondStart, when string, runFor time.Duration) batch.Status {
	switch {
	case mode == fake.SecondStartRefused,
		when == otherLongBefore && runFor > shortRun,
		when == otherWithinLag && runFor == shortRun:
		return batch.Done
	}
	return batch.Unknown
}

// Another process's run of the item's configuration is never taken for
// the item's, on servers that refuse, queue or run beside a second start,
// whether it began long before the batch, as the batch sent its start, or
// within the status lag before it, with runs shorter than the lag and
// longer: the item queues behind a run it sees (a refusal is neither a
// failure nor an unknown), sends runExperiment at most once per start,
// exports and stops nothing of the other run, and ends done with its own
// result or unknown, never done with the other's.
func TestAnotherProcessesRunIsNeverAdopted(t *testing.T) {
	for _, mode := range []fake.SecondStart{fake.SecondStartRefused, fake.SecondStartQueued, fake.SecondStartBeside} {
		for _, when := range []string{otherLongBefore, otherZeroBefore, otherWithinLag} {
			for _, runFor := range []time.Duration{shortRun, 40 * time.Second, 10 * time.Minute} {
				t.Run(fmt.Sprintf("%s/%s/%v", mode, when, runFor), func(t *testing.T) {
					t.Parallel()
					checkAnotherProcess(t, mode, when, runFor)
				})
			}
		}
	}
}

func checkAnotherProcess(t *testing.T, mode fake.SecondStart, when string, runFor time.Duration) {
	e := newEnv(t, fake.WithSecondStart(mode), fake.WithStatusLag(busyLag), fake.WithRunDuration(runFor), fake.WithResultSize(1, 1, 5))
	_, err := e.c.RunAndWait(deadline(t), busyRc, nil) // an end shows before
	require.NoError(t, err)
	before := e.srv.Calls("runExperiment")
	other := &otherProcess{t: t, c: e.client(t, nil), srv: e.srv}
	switch when {
	case otherLongBefore:
		other.start()
		e.clock.Advance(runFor / 2)
	case otherWithinLag:
		other.start()
		e.clock.Advance(busyLag / 2)
	}
	starts := &startCounter{}
	c := e.client(t, func(next http.RoundTripper) http.RoundTripper {
		starts.next = next
		if when == otherZeroBefore {
			starts.first = other.start
		}
		return starts
	})
	sum, err := e.runner(t, c, e.plan(t, busyPlan), batch.Options{}).Run(deadline(t))
	require.NoError(t, err)
	it := sum.Items[0]
	require.Equal(t, busyWant(mode, when, runFor), it.Status, it.Error)
	ours := e.srv.Calls("runExperiment") - before - other.starts()
	assert.Equal(t, starts.sent(), ours, "every runExperiment sent is the batch's")
	assert.LessOrEqual(t, ours, 2, "a start refused once, then one that took effect, at most")
	assert.Equal(t, other.starts()+1+1, e.srv.Applied("runExperiment"), "one start of the batch took effect, besides the earlier run and the other's")
	assert.Zero(t, e.srv.Applied("stopExperiment"), "nothing stopped")
	other.notOurs(t, it)
	e.clock.Advance(busySettle)
}

// otherProcess is another process that starts the configuration once.
type otherProcess struct {
	t      *testing.T
	c      *facade.Client
	srv    *fake.Server
	mu     sync.Mutex
	result ids.ExperimentResultID
	n      int
}

func (o *otherProcess) start() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n > 0 {
		return
	}
	_, err := o.c.Experiments.Start(deadline(o.t), busyRc, nil)
	require.NoError(o.t, err)
	_, o.result, _ = o.srv.LastRun(busyRc)
	o.n++
}

func (o *otherProcess) starts() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n
}

// notOurs checks that the item took nothing of the other run: not its
// result, not its export.
func (o *otherProcess) notOurs(t *testing.T, it batch.ItemSummary) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n > 0 {
		assert.NotEqual(t, o.result, it.State.ExperimentResultID, "the other process's result")
	}
	if it.Status == batch.Done {
		_, ours, _ := o.srv.LastRun(busyRc)
		assert.Equal(t, ours, it.State.ExperimentResultID, "the item's result is the run it made, the last one")
		return
	}
	assert.Equal(t, batch.Unknown, it.Status, "facade.ErrStartUnknown: %s", it.Error)
	assert.Contains(t, it.Error, ambiguousText, "an ambiguous facade.StartUnknownError")
	assert.Contains(t, it.Error, "take its result by hand")
	assert.Zero(t, it.State.ExperimentResultID)
}

// ambiguousText is the text of a facade.StartUnknownError whose run
// cannot be told from another's (Ambiguous).
const ambiguousText = "which run is this start's cannot be told"

// startCounter counts the runExperiment requests a client sends, and
// calls first (when set) just before the first one goes out.
type startCounter struct {
	next  http.RoundTripper
	first func()
	mu    sync.Mutex
	n     int
}

func (s *startCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasSuffix(req.URL.Path, "/open/experiments/run") {
		s.mu.Lock()
		s.n++
		first := s.n == 1 && s.first != nil
		s.mu.Unlock()
		if first {
			s.first()
		}
	}
	return s.next.RoundTrip(req)
}

func (s *startCounter) sent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// The answers to the batch's starts are lost, on a slow server: the status
// lags 30 s behind a start, or stays at the old end all through the run,
// with runs of 2 s, 40 s and 10 min, for two items whose configurations
// ran before. runExperiment is sent once per item, and no run that took
// effect is reported as taking none: with the status's lag declared (the
// plan's staleWindow for one item, the item's own for the other) the items
// are done with their own results; without, those the server cannot settle
// within the default window are unknown, saying what to check, with
// nothing sent again.
func TestLostStartsOnASlowServer(t *testing.T) {
	frozen := 1000 * time.Hour // the fake shows a run's end at its end, whatever the lag
	for _, lag := range []time.Duration{30 * time.Second, frozen} {
		for _, runFor := range []time.Duration{shortRun, 40 * time.Second, 10 * time.Minute} {
			for _, declared := range []bool{false, true} {
				t.Run(fmt.Sprintf("lag %v/run %v/declared %v", lag, runFor, declared), func(t *testing.T) {
					t.Parallel()
					checkLostStarts(t, lag, runFor, declared)
				})
			}
		}
	}
}

func checkLostStarts(t *testing.T, lag, runFor time.Duration, declared bool) {
	e := newEnv(t, fake.WithStatusLag(lag), fake.WithRunDuration(runFor), fake.WithResultSize(1, 1, 5))
	for _, rc := range []ids.RcID{10101, 10303} { // the items' earlier runs, which finished
		_, err := e.c.RunAndWait(deadline(t), rc, &facade.WaitOptions{StaleWindow: min(lag, runFor) + time.Second})
		require.NoError(t, err)
	}
	sent := e.srv.Calls("runExperiment")
	e.srv.InjectFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 2})
	plan, own := "", ""
	if declared {
		plan = fmt.Sprintf("staleWindow: %v\n", min(lag, runFor)+time.Second)
		own = fmt.Sprintf(", staleWindow: %v", min(lag, runFor)+time.Second)
	}
	p := e.plan(t, "project: 1\n"+plan+"items:\n  - {name: gfa, scenario: 101, experiment: GFA"+own+"}\n  - {name: sim, scenario: 103, experiment: SIMULATION}\n")
	sum := e.run(t, p, batch.Options{Parallel: 1}) // one waiter at a time: each wait of an instant clock moves it
	assert.Equal(t, sent+2, e.srv.Calls("runExperiment"), "runExperiment sent once per item")
	assert.Equal(t, sent+2, e.srv.Applied("runExperiment"))
	for _, it := range sum.Items {
		assert.NotContains(t, it.Error, "took no effect")
		if declared || runFor < facade.DefaultStaleWindow {
			require.Equal(t, batch.Done, it.Status, "%s: %s", it.Name, it.Error)
			_, ours, _ := e.srv.LastRun(it.State.RcID)
			assert.Equal(t, ours, it.State.ExperimentResultID, it.Name)
			continue
		}
		require.Equal(t, batch.Unknown, it.Status, "%s: a run under way behind a lagging status is never taken as not begun", it.Name)
		assert.Contains(t, it.Error, "check on the server")
	}
}
