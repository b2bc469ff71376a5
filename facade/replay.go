package facade

import (
	"io"
	"net/http"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// stateChanging holds "METHOD /path" of every operation the spec marks
// x-changes-state, paths relative to the base URL.
var stateChanging = func() map[string]bool {
	m := map[string]bool{}
	for _, op := range gen.Operations() {
		if op.ChangesState {
			m[op.Method+" "+op.Path] = true
		}
	}
	return m
}()

// changesState reports whether req, bound for the base URL whose path is
// basePath (ending in a slash), is a call of a state-changing operation:
// keyed by its method and path, so a request from Raw() or from a caller's
// own code is known as well as one the facade built.
func changesState(req *http.Request, basePath string) bool {
	rel, ok := strings.CutPrefix(req.URL.Path, basePath)
	return ok && stateChanging[req.Method+" /"+rel]
}

// makeNonReplayable stops net/http from silently resending a request on a
// reused keep-alive connection that died before the response. net/http
// replays a request when its method is GET, HEAD, OPTIONS or TRACE (or it
// has an Idempotency-Key header) and its Body is nil, http.NoBody, or has a
// GetBody. A non-nil empty body without GetBody makes it non-replayable;
// the transport probes the empty body and sends no body bytes. Other
// methods are never replayed without the header, so their body is left as
// it is. req must be the transport's own clone.
func makeNonReplayable(req *http.Request) {
	req.GetBody = nil
	req.Header.Del("Idempotency-Key")
	req.Header.Del("X-Idempotency-Key")
	if !replayableMethod(req.Method) {
		return
	}
	if req.Body == nil || req.Body == http.NoBody {
		req.Body = io.NopCloser(strings.NewReader(""))
		req.ContentLength = 0
	}
}

func replayableMethod(m string) bool {
	switch m {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}
