package batch

import (
	"context"
	"sync"

	"github.com/scmodel/scmgo/ids"
)

// rcGate lets one item at a time use a run configuration (rcId): the server
// runs an experiment once at a time and answers a second start with
// "already running", and an item's start, wait and result must each see its
// own run. The items of a batch that share a run configuration queue for it.
//
// Items whose run was under way when the batch began go first: a run
// started by another item before them would pass for theirs.
type rcGate struct {
	mu     sync.Mutex
	holder map[ids.RcID]string          // rcId → the item using it
	first  map[ids.RcID]map[string]bool // rcId → items whose run was under way
	wake   map[ids.RcID]chan struct{}   // rcId → closed when it may change hands
	queued map[string]bool              // the items that waited
}

func newRCGate(first map[ids.RcID]map[string]bool) *rcGate {
	return &rcGate{holder: map[ids.RcID]string{}, first: first, wake: map[ids.RcID]chan struct{}{}, queued: map[string]bool{}}
}

// enter waits until item may use rcID and takes it; release gives it back.
// wait is called once, before the first wait, with the item that has it.
func (g *rcGate) enter(ctx context.Context, rcID ids.RcID, item string, wait func(holder string)) (release func(), err error) {
	waited := false
	for {
		holder, wake, ok := g.try(rcID, item)
		if ok {
			return func() { g.leave(rcID, item) }, nil
		}
		if !waited {
			waited = true
			wait(holder)
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// try takes rcID for item when it is free and no item that goes first waits
// for it; otherwise it returns who has it and a channel closed when that may
// change.
func (g *rcGate) try(rcID ids.RcID, item string) (holder string, wake <-chan struct{}, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	holder, held := g.holder[rcID]
	firsts := g.first[rcID]
	if !held && (len(firsts) == 0 || firsts[item]) {
		g.holder[rcID] = item
		return "", nil, true
	}
	if !held {
		for name := range firsts {
			holder = name
			break
		}
	}
	g.queued[item] = true
	ch, found := g.wake[rcID]
	if !found {
		ch = make(chan struct{})
		g.wake[rcID] = ch
	}
	return holder, ch, false
}

func (g *rcGate) leave(rcID ids.RcID, item string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.holder, rcID)
	delete(g.first[rcID], item)
	g.signal(rcID)
}

// forget lets the items queued behind an item that goes first go on once it
// has ended without entering.
func (g *rcGate) forget(item string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for rcID, firsts := range g.first {
		if firsts[item] {
			delete(firsts, item)
			g.signal(rcID)
		}
	}
}

func (g *rcGate) signal(rcID ids.RcID) {
	if ch, ok := g.wake[rcID]; ok {
		close(ch)
		delete(g.wake, rcID)
	}
}

func (g *rcGate) waited(item string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.queued[item]
}

// slot is an item's place among the Options.Parallel items under way. An
// item gives it up while it queues for a run configuration, so that items
// on other run configurations go on.
type slot struct {
	c    chan struct{}
	held bool
}

// take waits for a place; it fails when ctx ends first.
func (s *slot) take(ctx context.Context) error {
	if s.held {
		return nil
	}
	select {
	case s.c <- struct{}{}:
		s.held = true
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *slot) give() {
	if s.held {
		s.held = false
		<-s.c
	}
}
