package scmtemporal

import (
	"context"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
)

// beater is the one writer of an attempt's heartbeat details: every
// heartbeat of the attempt goes through it, so none carries details older
// than the latest it was given. It heartbeats the latest details as they
// change, and every quarter of the heartbeat timeout, so that a wait
// between two polls does not pass for a dead worker. The SDK sends the
// first heartbeat of an attempt at once, batches later ones within 0.8 of
// the timeout, and flushes the last one when the attempt fails: an
// attempt's last details are the ones its retry reads, and a heartbeat
// written beside the beater (activity.RecordHeartbeat) could come after
// them. Nothing else in the package calls activity.RecordHeartbeat.
//
// An activity makes its beater as it begins (newBeater) and stops it as
// it returns; the beater records nothing until it is first given details.
type beater struct {
	ctx     context.Context
	mu      sync.Mutex
	details any
	started bool
	done    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

// newBeater returns the attempt's beater, which has recorded nothing yet.
func newBeater(ctx context.Context) *beater {
	return &beater{ctx: ctx, done: make(chan struct{})}
}

// set records new details and heartbeats them at once; the first set
// starts the periodic heartbeats. The periodic ones record under the same
// lock, so no heartbeat of older details follows.
func (b *beater) set(details any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.details = details
	activity.RecordHeartbeat(b.ctx, details)
	b.start(false)
}

// setBeside is set whose heartbeat goes out from the beater's goroutine,
// beside what the attempt does next, when it is the attempt's first: the
// SDK sends a first heartbeat in a round trip, and the send that follows
// a confirmed mark does not wait for it. A later set or setBeside may
// come before it goes out; it then carries their details, the latest.
func (b *beater) setBeside(details any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.details = details
	if b.started {
		activity.RecordHeartbeat(b.ctx, details)
		return
	}
	b.start(true)
}

// start starts the periodic heartbeats, once; first says the goroutine
// records the first heartbeat. b.mu is held.
func (b *beater) start(first bool) {
	if b.started {
		return
	}
	b.started = true
	every := activity.GetInfo(b.ctx).HeartbeatTimeout / 4
	if every <= 0 && !first {
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		if first {
			b.record()
		}
		if every > 0 {
			b.loop(every)
		}
	}()
}

// record heartbeats the latest details.
func (b *beater) record() {
	b.mu.Lock()
	defer b.mu.Unlock()
	activity.RecordHeartbeat(b.ctx, b.details)
}

func (b *beater) loop(every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-b.done:
			return
		case <-b.ctx.Done():
			return
		case <-tick.C:
			b.record()
		}
	}
}

// stop ends the periodic heartbeats and waits for the beater's goroutine:
// nothing is recorded after it returns.
func (b *beater) stop() {
	b.once.Do(func() { close(b.done) })
	b.wg.Wait()
}
