package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// busyProcess is another process that starts the plan's configurations
// while the plan runs, as a colleague clicking "run" would: every so often
// it picks an item at random and, once the item's scenario exists, starts
// its SIMULATION through the facade (which refuses while it can tell a run
// is under way; the fake refuses a second start). It never waits for its
// runs, nor stops them. It records each run it started, read from the fake
// right after the start: the server refuses a second start while that run
// is under way, so the last run is this start's.
type busyProcess struct {
	c     *facade.Client
	fake  *fakeServer
	every time.Duration
	rng   *rand.Rand

	mu       sync.Mutex
	accepted map[ids.ExperimentResultID]string // the runs it made, by result, with the item whose configuration it started
	refused  int                               // starts refused: a run under way
	failed   int                               // starts that failed otherwise
}

func newBusy(f *fakeServer, every time.Duration, seed uint64) (*busyProcess, error) {
	c, err := facade.New(f.baseURL, facade.WithAPIKey(f.key))
	if err != nil {
		return nil, err
	}
	return &busyProcess{c: c, fake: f, every: every, rng: rand.New(rand.NewPCG(seed, 3)), accepted: map[ids.ExperimentResultID]string{}}, nil
}

// run starts configurations of the n items until ctx ends.
func (b *busyProcess) run(ctx context.Context, n int) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(b.every):
		}
		b.startOne(ctx, b.rng.IntN(n))
	}
}

// startOne starts item i's SIMULATION, once its scenario exists.
func (b *busyProcess) startOne(ctx context.Context, i int) {
	named, err := b.c.Scenarios.Named(ctx, 1, scenarioName(i))
	if err != nil || len(named) != 1 {
		return
	}
	rc, err := b.c.Experiments.Find(ctx, 1, named[0], gen.ExperimentTypeSIMULATION, "")
	if err != nil {
		return
	}
	_, err = b.c.Experiments.Start(ctx, rc, &facade.StartOptions{ProjectID: 1, ScenarioID: named[0], Type: gen.ExperimentTypeSIMULATION})
	_, result, ok := b.fake.srv.LastRun(rc)
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case errors.Is(err, facade.ErrRunUnderWay):
		b.refused++
	case err != nil || !ok:
		b.failed++
	default:
		b.accepted[result] = itemName(i)
	}
}

// results are the runs it made.
func (b *busyProcess) results() map[ids.ExperimentResultID]string {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make(map[ids.ExperimentResultID]string, len(b.accepted))
	for k, v := range b.accepted {
		out[k] = v
	}
	return out
}

func (b *busyProcess) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return fmt.Sprintf("another process started the plan's configurations every %s: %d runs, %d starts refused (a run under way), %d failed otherwise",
		b.every, len(b.accepted), b.refused, b.failed)
}

// startBusy starts the busy process when cfg asks for one; stop ends it
// and returns it (nil when there is none).
func startBusy(ctx context.Context, cfg config, f *fakeServer) (stop func() *busyProcess, err error) {
	if cfg.busyEvery <= 0 {
		return func() *busyProcess { return nil }, nil
	}
	b, err := newBusy(f, cfg.busyEvery, cfg.seed)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.run(ctx, cfg.items)
	}()
	return func() *busyProcess {
		cancel()
		<-done
		return b
	}, nil
}
