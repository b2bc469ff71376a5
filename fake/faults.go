package fake

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"
)

// FaultKind says what a Fault does to a call.
type FaultKind int

// The kinds of fault.
const (
	// FaultStatus answers Status (with a Retry-After header when RetryAfter
	// is set) and an error body, without running the handler.
	FaultStatus FaultKind = iota + 1
	// FaultDropBeforeHandler closes the connection before the handler runs:
	// nothing happened on the server.
	FaultDropBeforeHandler
	// FaultDropAfterHandler runs the handler, so its side effect is applied,
	// then closes the connection without a response: the response-lost case.
	FaultDropAfterHandler
	// FaultTruncate runs the handler, sends the headers (with the full
	// Content-Length) and half of the body, then closes the connection.
	FaultTruncate
	// FaultLatency waits Latency of real time before the call goes on. The
	// wait ends early when the caller gives up or the Server is closed; note
	// that an HTTP server notices a caller giving up on a call with a body
	// only once it reads the body, so such a call waits until then.
	FaultLatency
	// FaultResetBeforeHandler resets the connection (a TCP reset, not a
	// close) before the handler runs: nothing happened on the server, and
	// the client reads "connection reset by peer".
	FaultResetBeforeHandler
	// FaultStall reads the request and then answers nothing, before the
	// handler runs, until the caller gives up or the Server is closed: a
	// server stuck before its answer. Nothing is applied.
	FaultStall
	// FaultStallBody runs the handler, so its side effect is applied, sends
	// the headers (with the full Content-Length) and half of the body, then
	// sends nothing more until the caller gives up or the Server is closed.
	FaultStallBody
	// FaultResetBody runs the handler, sends the headers (with the full
	// Content-Length) and half of the body, then resets the connection.
	FaultResetBody
	// FaultSlowBody runs the handler and sends the whole body in Chunks
	// pieces (zero means 8) with Latency of real time before each piece
	// after the first: an answer that is slow but keeps moving.
	FaultSlowBody
)

// String names the kind.
func (k FaultKind) String() string {
	switch k {
	case FaultStatus:
		return "status"
	case FaultDropBeforeHandler:
		return "drop-before-handler"
	case FaultDropAfterHandler:
		return "drop-after-handler"
	case FaultTruncate:
		return "truncate"
	case FaultLatency:
		return "latency"
	case FaultResetBeforeHandler:
		return "reset-before-handler"
	case FaultStall:
		return "stall"
	case FaultStallBody:
		return "stall-body"
	case FaultResetBody:
		return "reset-body"
	case FaultSlowBody:
		return "slow-body"
	}
	return "FaultKind(" + strconv.Itoa(int(k)) + ")"
}

// Fault is scripted for one operation and applied to the next Times calls of
// it, in the order faults were injected. Times of zero or less means once.
type Fault struct {
	Kind       FaultKind
	Status     int           // FaultStatus: the status code; zero means 503
	RetryAfter string        // FaultStatus: the Retry-After header, when not empty
	Latency    time.Duration // FaultLatency: how long to wait; FaultSlowBody: the pause between pieces
	Chunks     int           // FaultSlowBody: the pieces the body is sent in; zero means 8
	Times      int           // how many calls it applies to; zero or less means 1
	// Stalled, when not nil, is sent a value as a FaultStall or
	// FaultStallBody begins to stall, so a test whose client measures time
	// on a virtual clock knows when to move it. The send gives up when the
	// caller goes or the Server is closed.
	Stalled chan<- struct{}
}

// InjectFault queues f for the next calls of operationID (the camelCase
// operationId, for example "getExperimentStatus"; the snake_case name works
// too).
func (h *Handler) InjectFault(operationID string, f Fault) {
	if op, ok := lookupOp(operationID); ok {
		operationID = op
	}
	if f.Times <= 0 {
		f.Times = 1
	}
	h.fmu.Lock()
	defer h.fmu.Unlock()
	h.faults[operationID] = append(h.faults[operationID], f)
}

// Calls returns how many requests for operationID reached the server,
// faulted ones included.
func (h *Handler) Calls(operationID string) int {
	if op, ok := lookupOp(operationID); ok {
		operationID = op
	}
	h.fmu.Lock()
	defer h.fmu.Unlock()
	return h.calls[operationID]
}

// Applied returns how many times the side effect of operationID was applied:
// calls of a state-changing operation whose handler succeeded, including
// those whose response was then lost to a fault.
func (h *Handler) Applied(operationID string) int {
	if op, ok := lookupOp(operationID); ok {
		operationID = op
	}
	h.fmu.Lock()
	defer h.fmu.Unlock()
	return h.applied[operationID]
}

// nextFault counts the call and takes the fault due for it, if any.
func (h *Handler) nextFault(opID string) (Fault, bool) {
	h.fmu.Lock()
	defer h.fmu.Unlock()
	h.calls[opID]++
	queue := h.faults[opID]
	if len(queue) == 0 {
		return Fault{}, false
	}
	f := queue[0]
	queue[0].Times--
	if queue[0].Times <= 0 {
		h.faults[opID] = queue[1:]
	}
	return f, true
}

func (h *Handler) countApplied(opID string) {
	h.fmu.Lock()
	defer h.fmu.Unlock()
	h.applied[opID]++
}

// faultBefore applies the part of f that comes before the handler, and
// the kinds that act after it that the caller does not handle. It reports
// whether the call is over.
func (h *Handler) faultBefore(w http.ResponseWriter, r *http.Request, f Fault) bool {
	switch f.Kind {
	case FaultStatus:
		h.faultStatus(w, r, f)
		return true
	case FaultDropBeforeHandler:
		panic(http.ErrAbortHandler)
	case FaultResetBeforeHandler:
		resetConnection(w)
		return true
	case FaultStall:
		_, _ = io.Copy(io.Discard, r.Body) // the whole request arrived; the server then says nothing
		h.stall(r, f)
		panic(http.ErrAbortHandler)
	case FaultLatency:
		select {
		case <-time.After(f.Latency):
		case <-r.Context().Done():
			return true
		case <-h.closed:
			panic(http.ErrAbortHandler) // the server is going away: drop the call
		}
	case FaultStallBody, FaultResetBody, FaultSlowBody:
		h.serveFaulted(w, r, f)
		return true
	}
	return false
}

func (h *Handler) faultStatus(w http.ResponseWriter, r *http.Request, f Fault) {
	status := f.Status
	if status == 0 {
		status = http.StatusServiceUnavailable
	}
	if f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	h.writeError(w, r, status, fmt.Sprintf("injected fault: %d %s", status, http.StatusText(status)))
}

// stall tells f.Stalled, if set, and returns once the caller has gone or
// the Server is closed.
func (h *Handler) stall(r *http.Request, f Fault) {
	if f.Stalled != nil {
		select {
		case f.Stalled <- struct{}{}:
		case <-r.Context().Done():
			return
		case <-h.closed:
			return
		}
	}
	select {
	case <-r.Context().Done():
	case <-h.closed:
	}
}

// serveFaulted runs the handler for the faults that act after it.
func (h *Handler) serveFaulted(w http.ResponseWriter, r *http.Request, f Fault) {
	rec := httptest.NewRecorder()
	h.serveChecked(rec, r)
	if f.Kind == FaultDropAfterHandler {
		panic(http.ErrAbortHandler)
	}
	body := rec.Body.Bytes()
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(max(len(body), 1)))
	w.WriteHeader(rec.Code)
	if f.Kind == FaultSlowBody {
		h.writeSlowly(w, r, body, f)
		return
	}
	_, _ = w.Write(body[:len(body)/2])
	flush(w)
	switch f.Kind {
	case FaultStallBody:
		h.stall(r, f)
	case FaultResetBody:
		resetConnection(w)
		return
	}
	panic(http.ErrAbortHandler)
}

// writeSlowly sends body in f.Chunks pieces with f.Latency before each
// piece after the first. A body shorter than the pieces goes a byte at a
// time. The Content-Length already sent counts at least one byte, so an
// empty body is sent as one space.
func (h *Handler) writeSlowly(w http.ResponseWriter, r *http.Request, body []byte, f Fault) {
	if len(body) == 0 {
		body = []byte(" ")
	}
	chunks := f.Chunks
	if chunks <= 0 {
		chunks = 8
	}
	size := max(1, (len(body)+chunks-1)/chunks)
	for i := 0; i < len(body); i += size {
		if i > 0 && !h.pause(r, f.Latency) {
			panic(http.ErrAbortHandler)
		}
		_, _ = w.Write(body[i:min(i+size, len(body))])
		flush(w)
	}
}

// pause waits d of real time; false when the caller went or the Server
// closed first.
func (h *Handler) pause(r *http.Request, d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-r.Context().Done():
	case <-h.closed:
	}
	return false
}

func flush(w http.ResponseWriter) { _ = http.NewResponseController(w).Flush() }

// resetConnection takes the connection from the HTTP server, flushing what
// was written, and closes it with a TCP reset.
func resetConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // not a TCP connection the handler can take: a plain drop
	}
	if tc, ok := conn.(*tls.Conn); ok {
		conn = tc.NetConn() // a reset skips TLS's close_notify
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0)
	}
	conn.Close()
}
