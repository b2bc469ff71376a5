package fake

import (
	"fmt"
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
	}
	return "FaultKind(" + strconv.Itoa(int(k)) + ")"
}

// Fault is scripted for one operation and applied to the next Times calls of
// it, in the order faults were injected. Times of zero or less means once.
type Fault struct {
	Kind       FaultKind
	Status     int           // FaultStatus: the status code; zero means 503
	RetryAfter string        // FaultStatus: the Retry-After header, when not empty
	Latency    time.Duration // FaultLatency: how long to wait
	Times      int           // how many calls it applies to; zero or less means 1
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

// faultBefore applies the part of f that comes before the handler. It
// reports whether the call is over.
func (h *Handler) faultBefore(w http.ResponseWriter, r *http.Request, f Fault) bool {
	switch f.Kind {
	case FaultStatus:
		status := f.Status
		if status == 0 {
			status = http.StatusServiceUnavailable
		}
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		h.writeError(w, r, status, fmt.Sprintf("injected fault: %d %s", status, http.StatusText(status)))
		return true
	case FaultDropBeforeHandler:
		panic(http.ErrAbortHandler)
	case FaultLatency:
		select {
		case <-time.After(f.Latency):
		case <-r.Context().Done():
			return true
		case <-h.closed:
			panic(http.ErrAbortHandler) // the server is going away: drop the call
		}
	}
	return false
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
	_, _ = w.Write(body[:len(body)/2])
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
	panic(http.ErrAbortHandler)
}
