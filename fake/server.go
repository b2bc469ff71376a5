package fake

import (
	"context"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/routers"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
)

// BasePath is the path prefix every operation is served under.
const BasePath = "/api/v1"

// Server is a fake modelling server listening on a loopback address, like
// httptest.Server.
type Server struct {
	// URL is the base URL of the interface, ending in /api/v1.
	URL string
	// APIKey is a valid key: the first of the configured keys.
	APIKey string
	// Handler is the server's handler; the Server's fault and counter methods
	// are its methods.
	*Handler
	ts *httptest.Server
}

// NewServer starts a fake server on 127.0.0.1. Close it when done.
func NewServer(opts ...Option) *Server {
	h := newHandler(opts)
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ErrorLog = h.errorLog()
	ts.Start()
	return &Server{URL: ts.URL + BasePath, APIKey: h.cfg.keys[0], Handler: h, ts: ts}
}

// Close shuts the server down and blocks until all its requests are done.
// Calls waiting on a latency fault end at once.
func (s *Server) Close() {
	s.closeOnce.Do(func() { close(s.closed) })
	s.ts.Close()
}

// Client returns an HTTP client for the server.
func (s *Server) Client() *http.Client { return s.ts.Client() }

// Handler is the fake server as an http.Handler: it routes every operation
// under BasePath, checks the API key, validates the request, applies scripted
// faults and keeps call counters.
type Handler struct {
	cfg    config
	world  *world
	inner  http.Handler
	ops    map[string]gen.Operation  // "METHOD /api/v1/path"
	routes map[string]*routers.Route // operation id → route in the spec

	closeOnce sync.Once
	closed    chan struct{} // closed by Server.Close: latency faults stop waiting

	fmu     sync.Mutex
	faults  map[string][]Fault
	calls   map[string]int
	applied map[string]int
}

// NewHandler returns the fake server as an http.Handler serving under
// /api/v1. Its dynamic type is *Handler, whose methods script faults and read
// counters.
func NewHandler(opts ...Option) http.Handler { return newHandler(opts) }

func newHandler(opts []Option) *Handler {
	cfg := newConfig(opts)
	h := &Handler{
		cfg:     cfg,
		world:   newWorld(cfg),
		ops:     map[string]gen.Operation{},
		routes:  mustSpecRoutes(),
		faults:  map[string][]Fault{},
		calls:   map[string]int{},
		applied: map[string]int{},
		closed:  make(chan struct{}),
	}
	for id, fs := range cfg.faults {
		for _, f := range fs {
			h.InjectFault(id, f)
		}
	}
	for _, op := range gen.Operations() {
		h.ops[op.Method+" "+BasePath+op.Path] = op
	}
	strict := genserver.NewStrictHandlerWithOptions(&service{w: h.world}, nil, genserver.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  h.requestError,
		ResponseErrorHandlerFunc: h.responseFailed,
	})
	h.inner = genserver.HandlerWithOptions(strict, genserver.StdHTTPServerOptions{
		BaseURL:          BasePath,
		ErrorHandlerFunc: h.requestError,
	})
	return h
}

// Clock returns the clock the server computes lifecycles from.
func (h *Handler) Clock() Clock { return h.cfg.clock }

// ServeHTTP serves one call.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	op, ok := h.ops[r.Method+" "+r.URL.Path]
	if !ok {
		h.writeError(w, r, http.StatusNotFound, "no operation at "+r.Method+" "+clip(r.URL.Path))
		return
	}
	r = r.WithContext(context.WithValue(r.Context(), callKey{}, &call{op: op}))
	f, faulted := h.nextFault(op.ID)
	if faulted && h.faultBefore(w, r, f) {
		return
	}
	if faulted && (f.Kind == FaultDropAfterHandler || f.Kind == FaultTruncate) {
		h.serveFaulted(w, r, f)
		return
	}
	h.serveChecked(w, r)
}

// serveChecked authenticates and validates the call, runs the handler and
// counts an applied side effect.
func (h *Handler) serveChecked(w http.ResponseWriter, r *http.Request) {
	c := r.Context().Value(callKey{}).(*call)
	user, err := h.authenticate(r)
	if err != nil {
		h.writeAPIError(w, r, err)
		return
	}
	if err := h.limitBody(w, r, c.op); err != nil {
		h.writeAPIError(w, r, err)
		return
	}
	if err := h.validateRequest(c.op, r); err != nil {
		h.writeAPIError(w, r, err)
		return
	}
	c.user = user
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	h.inner.ServeHTTP(sw, r)
	if c.op.ChangesState && sw.status < 300 {
		h.countApplied(c.op.ID)
	}
}

// call is what the server knows of a call, kept in its context: the
// operation, and the user once the key is checked.
type call struct {
	op   gen.Operation
	user string
}

type callKey struct{}

func opFrom(ctx context.Context) gen.Operation {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c.op
	}
	return gen.Operation{}
}

func userFrom(ctx context.Context) string {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c.user
	}
	return ""
}

func lookupOp(name string) (string, bool) {
	op, ok := gen.LookupOperation(strings.TrimSpace(name))
	return op.ID, ok
}

// responseFailed answers an error a handler returned, or one met writing
// its answer. Once the answer's header is out its status cannot change: the
// connection is dropped, so the client sees a cut answer, and no second
// header is written (net/http would log it as superfluous).
func (h *Handler) responseFailed(w http.ResponseWriter, r *http.Request, err error) {
	if sw, ok := w.(*statusWriter); ok && sw.wroteHeader {
		panic(http.ErrAbortHandler)
	}
	h.responseError(w, r, err)
}

// errorLog is the http.Server's log: the logger of WithLogger at Error
// level, nil (the log package's) without one.
func (h *Handler) errorLog() *log.Logger {
	if h.cfg.logger == nil {
		return nil
	}
	return slog.NewLogLogger(h.cfg.logger.Handler(), slog.LevelError)
}

// statusWriter records the status a handler answered.
type statusWriter struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
}

func (s *statusWriter) WriteHeader(code int) {
	if !s.wroteHeader {
		s.status, s.wroteHeader = code, true
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	s.wroteHeader = true
	return s.ResponseWriter.Write(b)
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
