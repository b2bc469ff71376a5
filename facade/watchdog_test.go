package facade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/clock"
)

const (
	uploadSize = 64 << 20
	idleLimit  = 250 * time.Millisecond
)

// smallBuffers makes the server's socket receive buffers and the client's
// send buffers small, as on a slow link: bytes leave the client about when
// the server takes them, so the client's last byte is not still queued in
// the kernel for longer than the idle limit.
func smallBuffers(t *testing.T, handler http.HandlerFunc, opts ...Option) *Client {
	t.Helper()
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if tc, ok := c.(*net.TCPConn); ok && s == http.StateNew {
			_ = tc.SetReadBuffer(64 << 10)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	dialer := &net.Dialer{}
	transport := defaultTransport().(*http.Transport)
	transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetWriteBuffer(64 << 10)
		}
		return c, err
	}
	return newTestClient(t, srv.URL+"/api/v1", append([]Option{WithHTTPClient(&http.Client{Transport: transport})}, opts...)...)
}

// A 64 MiB workbook taken by the server 2 MiB at a time with pauses between
// (over a second in all, several times the attempt timeout) uploads: the
// attempt timeout bounds waiting, not a transfer that moves.
func TestSlowSteadyUploadOutlastsTheAttemptTimeout(t *testing.T) {
	var received atomic.Int64
	watch := newManualClock()
	c := smallBuffers(t, func(w http.ResponseWriter, r *http.Request) {
		// The link is slow on the attempt timeout's clock: half the idle
		// limit passes for every 2 MiB taken, far more than the limit in all.
		n, err := throttleOn(watch, r.Body, 2<<20, idleLimit/2)
		received.Store(n)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		fmt.Fprint(w, `{"jobId":9}`)
	}, WithAttemptTimeout(idleLimit), withWatchClock(watch))
	start := watch.Now()
	job, err := c.Imports.Excel(testCtx(t), 1, "big", UploadReader("big.xlsx", &patternReader{left: uploadSize}), nil)
	require.NoError(t, err)
	assert.EqualValues(t, 9, job.JobID)
	assert.Greater(t, received.Load(), int64(uploadSize), "the whole multipart body arrived")
	assert.Greater(t, watch.Now().Sub(start), 2*idleLimit, "the transfer outlasted the attempt timeout")
}

// throttleOn takes chunk bytes from r, then moves the clock on by pause,
// as a slow link does: steady, and slower in total than the idle limit.
func throttleOn(clk *clock.Virtual, r io.Reader, chunk int64, pause time.Duration) (int64, error) {
	var n int64
	for {
		m, err := io.CopyN(io.Discard, r, chunk)
		n += m
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return n, err
		}
		clk.Advance(pause)
	}
}

// A server that stops taking the body fails the attempt once nothing moved
// for the idle limit; the body never arrived whole, so the import is not
// reported as possibly applied, and it is not resent.
func TestStalledUploadFails(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		_, _ = io.CopyN(io.Discard, r.Body, 1<<20)
		<-release // stops reading: the connection stalls (a server that reads no more cannot see the client go)
	}, WithAttemptTimeout(idleLimit))
	t.Cleanup(func() { close(release) }) // before the server closes
	_, err := c.Imports.Excel(testCtx(t), 1, "big", UploadReader("big.xlsx", &patternReader{left: uploadSize}), nil)
	require.ErrorIs(t, err, ErrTimeout)
	assert.Contains(t, err.Error(), "facade: importExcel: attempt timed out: nothing moved for 250ms while sending the request body")
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.EqualValues(t, 1, calls.Load())
}

// Once the request is sent, the time to the response headers is bounded;
// a state-changing call that times out then may have been applied.
func TestNoAnswerAfterTheUpload(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}, WithAttemptTimeout(idleLimit))
	_, err := c.Imports.Excel(testCtx(t), 1, "small", UploadReader("small.xlsx", strings.NewReader("PK")), nil)
	require.ErrorIs(t, err, ErrTimeout)
	assert.Contains(t, err.Error(), "nothing moved for 250ms waiting for the response")
	assert.ErrorIs(t, err, ErrMayHaveBeenApplied)
}

// A download that stops arriving fails while the caller reads it; a caller
// that reads slowly is not the server's stall.
func TestDownloadStalls(t *testing.T) {
	stall := make(chan struct{})
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = io.CopyN(w, &patternReader{left: 1 << 20}, 1<<20)
		if r.URL.Query().Get("rcId") == "1" {
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-stall:
			}
		}
	}, WithAttemptTimeout(idleLimit))
	defer close(stall)

	d, err := c.LastMile.ExportShipments(testCtx(t), 1)
	require.NoError(t, err)
	_, err = io.Copy(io.Discard, d)
	d.Close()
	require.ErrorIs(t, err, ErrTimeout)
	assert.Contains(t, err.Error(), "nothing moved for 250ms while receiving the response body")

	d, err = c.LastMile.ExportShipments(testCtx(t), 2)
	require.NoError(t, err)
	defer d.Close()
	first, err := d.Read(make([]byte, 4<<10))
	require.NoError(t, err)
	time.Sleep(2 * idleLimit) // the caller is slow, the server is not
	rest, err := io.Copy(io.Discard, d)
	require.NoError(t, err)
	assert.EqualValues(t, 1<<20, int64(first)+rest)
}
