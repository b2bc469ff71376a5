package scmtemporal_test

import (
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/scmtemporal"
)

// refusedDial refuses the connection of the first request to a path, as a
// server that is not listening does: the request never leaves, which the
// facade tells as not sent.
type refusedDial struct {
	path    string
	mu      sync.Mutex
	refused int
}

func (r *refusedDial) transport(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if strings.HasSuffix(req.URL.Path, r.path) && r.refuse() {
			return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
		}
		return next.RoundTrip(req)
	})
}

func (r *refusedDial) refuse() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refused++
	return r.refused == 1
}

// With the worker's Temporal client, an import or a copy whose connection
// was refused (the client's own retries off) fails its attempt knowing
// that nothing reached the server, and says so in the attempt's last
// heartbeat; the heartbeats that carry the mark go out from the attempt's
// beater, beside the send, and none of them may come after it. The retry
// sends again, once: the item ends done, never unknown. On one processor
// the beater's first heartbeat runs last unless it is the one writer.
func TestRefusedImportOrCopyIsSentAgainWithConfirmedMarks(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, tc := range []struct {
		activity, op, path string
		item               func(*testing.T) scmtemporal.ItemInput
	}{
		{"scm.ImportScenario", "importExcel", "/open/import/import-excel", importItem},
		{"scm.CopyScenario", "copyScenario", "/open/scenario/copy", func(*testing.T) scmtemporal.ItemInput { return copyItem() }},
	} {
		t.Run(tc.activity, func(t *testing.T) {
			srv, clock := newFake(t)
			refused := &refusedDial{path: tc.path}
			acts := activities(t, srv, refused.transport, clock, facade.WithRetryPolicy(facade.RetryPolicy{MaxAttempts: 1}))
			env := newWorkerEnv(t, acts, &crash{})
			res := env.result(t, tc.item(t))
			require.Equal(t, 2, refused.refused, "the refused request and the retry's")
			assert.Equal(t, 2, env.attemptsOf(tc.activity), "the refused attempt and its retry")
			assert.EqualValues(t, 1001, res.ScenarioID)
			assert.Equal(t, 1, srv.Calls(tc.op), "the refused request never reached the server; the retry's did")
			assert.Equal(t, 1, srv.Applied(tc.op))
		})
	}
}
