package main

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// noticeEvery is how long a request may go without an answer before scm
// says what it waits for, and the least time between two such notices.
const noticeEvery = 10 * time.Second

// waitClock is the clock of the notices; tests replace it with a virtual
// one.
var waitClock facade.Clock = systemClock{}

type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// notice says on standard error which operation scm has been waiting on,
// and for how long, when a request has had no answer for every: a server
// that accepts and never answers is not met with silence. It speaks at
// most once per every, however many requests wait.
type notice struct {
	out   io.Writer
	every time.Duration
	clock facade.Clock
	limit time.Duration // the attempt timeout, 0 for none
	// heldOpenShown: the command shows the wait of a held-open call (scm
	// run --sync): no notice speaks for it.
	heldOpenShown bool

	mu   sync.Mutex
	last time.Time // when it last spoke
}

func (a *app) waitNotice(attemptTimeout time.Duration) *notice {
	return &notice{out: a.stderr, every: noticeEvery, clock: waitClock, limit: attemptTimeout, heldOpenShown: a.heldOpenShown}
}

// watch speaks for the request of op until done is closed.
func (n *notice) watch(op string, done <-chan struct{}) {
	start := n.clock.Now()
	for {
		select {
		case <-done:
			return
		case <-n.clock.After(n.every):
			n.say(op, n.clock.Now().Sub(start))
		}
	}
}

// say writes one notice, unless another was written less than every ago.
func (n *notice) say(op string, waited time.Duration) {
	n.mu.Lock()
	defer n.mu.Unlock()
	now := n.clock.Now()
	if !n.last.IsZero() && now.Sub(n.last) < n.every {
		return
	}
	n.last = now
	limit := "no time limit per request; --request-timeout sets one"
	if n.limit > 0 {
		limit = fmt.Sprintf("a request gives up after %v of silence: --request-timeout", n.limit)
	}
	fmt.Fprintf(n.out, "scm: waiting for %s: no answer for %v (%s, --timeout bounds the command)\n", op, waited.Round(time.Second), limit)
}

// noticeTransport runs a notice beside every request until its answer's
// headers arrive or it fails.
type noticeTransport struct {
	base   http.RoundTripper
	notice *notice
}

func (t *noticeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	op, ok := facade.OperationFromContext(req.Context())
	if !ok {
		op = req.Method + " " + req.URL.Path
	}
	if known, found := gen.LookupOperation(gen.OperationID(op)); found && known.HeldOpen && t.notice.heldOpenShown {
		return t.base.RoundTrip(req)
	}
	done := make(chan struct{})
	defer close(done)
	go t.notice.watch(op, done)
	return t.base.RoundTrip(req)
}
