package facade

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// rangeServer serves one workbook's bytes the way a server that takes
// Range requests does (http.ServeContent: Accept-Ranges, 206, If-Range
// against its ETag), and breaks its first answers off as told.
type rangeServer struct {
	payload []byte
	etag    func(n int) string // the ETag of the n-th request (1-based)
	ranges  bool               // false: a server that takes no ranges, and says so by not saying Accept-Ranges
	breakOf func(n int) func(w http.ResponseWriter, r *http.Request, body []byte)

	mu   sync.Mutex
	seen []http.Header // the headers of each request
}

func newRangeServer() *rangeServer {
	payload := make([]byte, 256<<10)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range payload {
		payload[i] = byte(r.Uint32())
	}
	return &rangeServer{payload: payload, ranges: true, etag: func(int) string { return `"v1"` },
		breakOf: func(int) func(http.ResponseWriter, *http.Request, []byte) { return nil }}
}

func (s *rangeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.seen = append(s.seen, r.Header.Clone())
	n := len(s.seen)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.Header().Set("ETag", s.etag(n))
	if brk := s.breakOf(n); brk != nil {
		if s.ranges {
			w.Header().Set("Accept-Ranges", "bytes")
		}
		brk(w, r, s.payload)
		return
	}
	if !s.ranges {
		w.Header().Set("Content-Length", strconv.Itoa(len(s.payload)))
		_, _ = w.Write(s.payload)
		return
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(s.payload))
}

func (s *rangeServer) requests() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.seen...)
}

// Ways to break an answer off after its headers and the first half of its
// body (Content-Length says the whole).
func halfThen(end func(w http.ResponseWriter, r *http.Request)) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, body []byte) {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body[:len(body)/2])
		_ = http.NewResponseController(w).Flush()
		end(w, r)
	}
}

func cutOff(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) }

func resetOff(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	conn.Close()
}

// readDownload exports page 1 of result 7 from s, through a client whose
// attempt timeout runs on the virtual clock of w, and reads it whole.
func readDownload(t *testing.T, s *rangeServer, opts ...Option) ([]byte, error) {
	t.Helper()
	_, c := newStub(t, s.ServeHTTP, append([]Option{WithClock(faketest.NewInstantClock())}, opts...)...)
	d, err := c.Dashboards.ExportPage(testCtx(t), 7, 1)
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = d.WriteTo(&buf)
	return buf.Bytes(), err
}

// A download whose body breaks off after half of it was read goes on with
// a Range request from the first byte missing, on the condition that the
// workbook is the same (If-Range), and the caller reads every byte once.
func TestDownloadResumes(t *testing.T) {
	for name, end := range map[string]func(http.ResponseWriter, *http.Request){
		"cut off": cutOff,
		"reset":   resetOff,
	} {
		t.Run(name, func(t *testing.T) {
			s := newRangeServer()
			s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
				return map[int]func(http.ResponseWriter, *http.Request, []byte){1: halfThen(end)}[n]
			}
			got, err := readDownload(t, s)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(s.payload, got), "every byte once, in order")
			reqs := s.requests()
			require.Len(t, reqs, 2)
			assert.Empty(t, reqs[0].Get("Range"))
			var from int
			_, err = fmt.Sscanf(reqs[1].Get("Range"), "bytes=%d-", &from)
			require.NoError(t, err, "a Range request for the rest")
			if name == "cut off" {
				assert.Equal(t, len(s.payload)/2, from, "from the first byte missing")
			} else {
				assert.LessOrEqual(t, from, len(s.payload)/2, "a reset loses what the client had not read yet")
			}
			assert.Equal(t, `"v1"`, reqs[1].Get("If-Range"))
		})
	}
	t.Run("stalled", func(t *testing.T) {
		s := newRangeServer()
		w := newWatchTime(t, gen.OpExportDashboardPage, defaultTransport())
		w.afterHeaders.Store(true)
		s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
			if n > 1 {
				return nil
			}
			return halfThen(func(_ http.ResponseWriter, r *http.Request) {
				w.stalled <- struct{}{}
				<-r.Context().Done() // sends nothing more until the client goes
			})
		}
		got, err := readDownload(t, s, WithHTTPClient(&http.Client{Transport: w}), withWatchClock(w.clock), WithAttemptTimeout(matrixTimeout))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(s.payload, got))
		assert.Len(t, s.requests(), 2)
	})
	t.Run("broken before any byte was read", func(t *testing.T) {
		s := newRangeServer()
		s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
			if n > 1 {
				return nil
			}
			return func(w http.ResponseWriter, r *http.Request, body []byte) {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				w.WriteHeader(http.StatusOK)
				_ = http.NewResponseController(w).Flush()
				cutOff(w, r)
			}
		}
		got, err := readDownload(t, s)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(s.payload, got))
		reqs := s.requests()
		require.Len(t, reqs, 2)
		assert.Empty(t, reqs[1].Get("Range"), "nothing was delivered: the whole download again")
	})
}

// A download that cannot go on fails saying how many bytes were delivered
// and why: a server that takes no ranges, a workbook that changed (If-Range
// answered with the whole of it), or attempts that ran out.
func TestDownloadThatCannotResume(t *testing.T) {
	half := int64(256<<10) / 2
	for name, tc := range map[string]struct {
		setup    func(s *rangeServer)
		reason   string
		requests int
	}{
		"no ranges": {func(s *rangeServer) {
			s.ranges = false
			s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
				return map[int]func(http.ResponseWriter, *http.Request, []byte){1: halfThen(cutOff)}[n]
			}
		}, "the server does not support resuming", 1},
		"changed since": {func(s *rangeServer) {
			s.etag = func(n int) string { return `"v` + strconv.Itoa(n) + `"` }
			s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
				return map[int]func(http.ResponseWriter, *http.Request, []byte){1: halfThen(cutOff)}[n]
			}
		}, "the server sent the whole workbook again", 2},
		"attempts spent": {func(s *rangeServer) {
			s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
				if n == 1 {
					return halfThen(cutOff)
				}
				return func(w http.ResponseWriter, r *http.Request, body []byte) { // a 206 of the rest, cut at once
					w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", half, len(body)-1, len(body)))
					w.Header().Set("Content-Length", strconv.Itoa(len(body)-int(half)))
					w.WriteHeader(http.StatusPartialContent)
					_ = http.NewResponseController(w).Flush()
					cutOff(w, r)
				}
			}
		}, "the 4 attempts the retry policy allows are spent", 4},
	} {
		t.Run(name, func(t *testing.T) {
			s := newRangeServer()
			tc.setup(s)
			got, err := readDownload(t, s)
			var dlErr *RequestError
			require.ErrorAs(t, err, &dlErr)
			assert.Equal(t, half, dlErr.Broken.Delivered)
			assert.EqualValues(t, len(got), dlErr.Broken.Delivered, "the caller has what was delivered")
			assert.EqualValues(t, len(s.payload), dlErr.Broken.Size)
			assert.Contains(t, err.Error(), fmt.Sprintf("after %d of %d bytes were delivered", half, len(s.payload)))
			assert.Contains(t, err.Error(), tc.reason)
			assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "it unwraps to the failure that broke it off")
			assert.Len(t, s.requests(), tc.requests)
		})
	}
}

// ReadAll hands nothing out before the end, so a download that cannot go
// on from where it broke off is fetched again from its first byte, within
// the same attempts, and its progress starts over at 0; one that can goes
// on with a Range request, its progress going on too.
func TestDownloadReadAllFetchesAgain(t *testing.T) {
	half := int64(256<<10) / 2
	for name, tc := range map[string]struct {
		setup     func(s *rangeServer)
		rangeSent bool // the second request asks for the rest
		restarts  bool // progress goes back to 0 after bytes arrived
	}{
		"no ranges": {func(s *rangeServer) {
			s.ranges = false
			s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
				return map[int]func(http.ResponseWriter, *http.Request, []byte){1: halfThen(cutOff)}[n]
			}
		}, false, true},
		"changed since": {func(s *rangeServer) {
			s.etag = func(n int) string { return `"v` + strconv.Itoa(n) + `"` }
			s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
				return map[int]func(http.ResponseWriter, *http.Request, []byte){1: halfThen(cutOff)}[n]
			}
		}, true, true},
		"ranges": {func(s *rangeServer) {
			s.breakOf = func(n int) func(http.ResponseWriter, *http.Request, []byte) {
				return map[int]func(http.ResponseWriter, *http.Request, []byte){1: halfThen(cutOff)}[n]
			}
		}, true, false},
	} {
		t.Run(name, func(t *testing.T) {
			s := newRangeServer()
			tc.setup(s)
			_, c := newStub(t, s.ServeHTTP, WithClock(faketest.NewInstantClock()))
			d, err := c.Dashboards.ExportPage(testCtx(t), 7, 1)
			require.NoError(t, err)
			var received []int64
			got, err := d.ReadAll(func(n, size int64) {
				received = append(received, n)
				assert.EqualValues(t, len(s.payload), size)
			})
			require.NoError(t, err)
			assert.True(t, bytes.Equal(s.payload, got), "every byte once, in order")
			reqs := s.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, tc.rangeSent, reqs[1].Get("Range") != "", "Range of the second request: %q", reqs[1].Get("Range"))
			restarted := false
			for i := 1; i < len(received); i++ {
				restarted = restarted || received[i] < received[i-1]
			}
			assert.Equal(t, tc.restarts, restarted, "progress %v", received)
			assert.GreaterOrEqual(t, slices.Max(received), half)
			assert.EqualValues(t, len(s.payload), received[len(received)-1])
		})
	}
}

// ReadAll of a download whose attempts run out still fails with a
// *RequestError with Broken set.
func TestDownloadReadAllGivesUp(t *testing.T) {
	t.Run("attempts spent", func(t *testing.T) {
		s := newRangeServer()
		s.ranges = false
		s.breakOf = func(int) func(http.ResponseWriter, *http.Request, []byte) { return halfThen(cutOff) }
		_, c := newStub(t, s.ServeHTTP, WithClock(faketest.NewInstantClock()))
		d, err := c.Dashboards.ExportPage(testCtx(t), 7, 1)
		require.NoError(t, err)
		got, err := d.ReadAll(nil)
		var dlErr *RequestError
		require.ErrorAs(t, err, &dlErr)
		assert.Nil(t, got)
		assert.Contains(t, err.Error(), "the 4 attempts the retry policy allows are spent")
		assert.Len(t, s.requests(), 4)
	})
}

// A download is sent again to resume or restart it: every operation with
// a binary answer (the workbook exports) must change no state.
func TestDownloadsChangeNoState(t *testing.T) {
	n := 0
	for _, op := range gen.Operations() {
		if op.Response.Binary {
			n++
			assert.False(t, op.ChangesState, "%s answers a download and changes state: a resumed download would send it again", op.ID)
		}
	}
	assert.Positive(t, n, "the spec has downloads")
}
