package facade

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heldAnswer serves an answer only once release is closed, and signals
// the first request's arrival.
type heldAnswer struct {
	arrived, release chan struct{}
	once             sync.Once
}

func newHeldAnswer() *heldAnswer {
	return &heldAnswer{arrived: make(chan struct{}), release: make(chan struct{})}
}

func (h *heldAnswer) serve(w http.ResponseWriter, r *http.Request) {
	h.once.Do(func() { close(h.arrived) })
	select {
	case <-h.release:
		fmt.Fprint(w, `{"id":1,"username":"demo"}`)
	case <-r.Context().Done():
	}
}

// silent never answers: it holds every request until the client gives up.
func silent(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }

// WithAttemptTimeout(0) means no attempt timeout: an answer that comes
// only after a client with an attempt timeout gave up on the same silence
// still arrives. The held request is sent first, so it has waited longer
// than the other client's limit when its answer comes.
func TestNoAttemptTimeoutWaitsForASlowAnswer(t *testing.T) {
	held := newHeldAnswer()
	_, patient := newStub(t, held.serve, WithAttemptTimeout(0))
	_, hasty := newStub(t, silent, WithAttemptTimeout(20*time.Millisecond), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
	ctx := testCtx(t)
	answered := make(chan error, 1)
	go func() {
		_, err := patient.User.Current(ctx)
		answered <- err
	}()
	select {
	case <-held.arrived:
	case err := <-answered:
		t.Fatalf("the client without an attempt timeout ended before the server had its request: %v", err)
	case <-ctx.Done():
		t.Fatal("the request of the client without an attempt timeout did not reach the server within 10 s")
	}
	_, err := hasty.User.Current(ctx)
	require.ErrorIs(t, err, ErrAttemptTimeout, "a client with an attempt timeout gives up on the same silence")
	close(held.release)
	select {
	case err := <-answered:
		assert.NoError(t, err, "the slow answer arrives")
	case <-ctx.Done():
		t.Fatal("the held answer did not arrive within 10 s of its release")
	}
}
