package facade

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// replayServer answers the first request of every connection and keeps the
// connection alive; it reads the second request of a connection, counts
// it as seen, and closes the connection without an answer: to the client,
// a keep-alive connection that died after its request left. net/http
// resends a GET then, on a new connection, unless the request cannot be
// replayed.
type replayServer struct {
	url  string
	mu   sync.Mutex
	seen map[string]int // requests that reached the handler, by path
}

type connRequests struct{}

func newReplayServer(t *testing.T) *replayServer {
	s := &replayServer{seen: map[string]int{}}
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen[r.URL.Path]++
		s.mu.Unlock()
		if r.Context().Value(connRequests{}).(*atomic.Int32).Add(1) == 2 {
			panic(http.ErrAbortHandler) // the request was read; the connection dies before the answer
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{}`)
	}))
	ts.Config.ConnContext = func(ctx context.Context, _ net.Conn) context.Context {
		return context.WithValue(ctx, connRequests{}, new(atomic.Int32))
	}
	ts.Config.ErrorLog = discardLog()
	ts.Start()
	t.Cleanup(ts.Close)
	s.url = ts.URL + "/api/v1"
	return s
}

func (s *replayServer) requests(op gen.OperationID) int {
	o, _ := gen.LookupOperation(op)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen["/api/v1"+o.Path]
}

// The protection against net/http's silent replay lives in the transport
// every request passes through, so a state-changing GET (runExperiment)
// sent through Raw(), through Call, through the facade's method, or by a
// client built WithHTTPClient, reaches the server at most once when its
// keep-alive connection dies; a safe GET is replayed (and recovers), which
// shows the server provokes the replay.
func TestSilentReplay(t *testing.T) {
	sends := map[string]func(ctx context.Context, c *Client) error{
		"Raw()": func(ctx context.Context, c *Client) error {
			resp, err := c.Raw().RunExperiment(ctx, &gen.RunExperimentParams{RcId: 10101})
			if err == nil {
				resp.Body.Close()
			}
			return err
		},
		"Call": func(ctx context.Context, c *Client) error {
			resp, err := c.Call(ctx, "runExperiment", RawRequest{Query: url.Values{"rcId": {"10101"}}})
			if err == nil {
				resp.Body.Close()
			}
			return err
		},
		"method": func(ctx context.Context, c *Client) error {
			return c.Experiments.StartPrepared(ctx, preparedRun(c, 10101, 101), nil)
		},
	}
	clients := map[string][]Option{
		"default client": nil,
		"WithHTTPClient": {WithHTTPClient(&http.Client{Transport: &http.Transport{}})},
	}
	for how, send := range sends {
		for clientName, opts := range clients {
			t.Run(how+"/"+clientName, func(t *testing.T) {
				s := newReplayServer(t)
				c := newTestClient(t, s.url, opts...)
				warmUp(t, c) // the first request of the connection
				err := send(testCtx(t), c)
				require.Error(t, err, "the connection died with the request")
				assert.Equal(t, 1, s.requests(gen.OpRunExperiment), "the server saw it once")
			})
		}
	}
	t.Run("a safe GET is replayed", func(t *testing.T) {
		s := newReplayServer(t)
		c := newTestClient(t, s.url)
		warmUp(t, c)
		resp, err := c.Raw().GetExperimentStatus(testCtx(t), &gen.GetExperimentStatusParams{RcId: 10101})
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 2, s.requests(gen.OpGetExperimentStatus), "net/http sent it again on a new connection")
	})
}

func warmUp(t *testing.T, c *Client) {
	t.Helper()
	resp, err := c.Raw().GetCurrentUser(testCtx(t))
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}
