package facade

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
)

// secret holds the API key behind a pointer: fmt prints a nested pointer as
// an address, and every method that prints a secret prints a placeholder,
// so no %v, %+v or %#v of a facade value shows the key.
type secret struct{ v *string }

const redacted = "[REDACTED]"

func newSecret(s string) secret { return secret{&s} }

func (s secret) empty() bool { return s.v == nil || *s.v == "" }
func (s secret) reveal() string {
	if s.v == nil {
		return ""
	}
	return *s.v
}

func (s secret) String() string {
	if s.empty() {
		return "(none)"
	}
	return redacted
}

func (s secret) GoString() string              { return s.String() }
func (s secret) Format(f fmt.State, verb rune) { fmt.Fprint(f, s.String()) }
func (s secret) LogValue() slog.Value          { return slog.StringValue(s.String()) }
func (s secret) MarshalText() ([]byte, error)  { return []byte(s.String()), nil }

func (s secret) headerValue(prefix string) secret {
	if s.empty() || prefix == "" {
		return s
	}
	return newSecret(prefix + " " + s.reveal())
}

// authTransport is the transport every request of a [Client] passes
// through, the facade's own, Raw()'s and those of a caller's http.Client
// alike. To a clone of each request bound for the base URL's host it adds
// the Authorization and User-Agent headers, and for a state-changing
// operation (known by its method and path) it stops net/http from silently
// sending it again on a dead keep-alive connection. Requests to other hosts
// (after a redirect, say) never carry the key, nor do plain-http requests to
// a host that is not loopback unless explicitly allowed.
type authTransport struct {
	base          http.RoundTripper
	host          string
	basePath      string // the base URL's path, ending in a slash
	header        secret
	userAgent     string
	allowInsecure bool
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != t.host {
		return t.base.RoundTrip(withUserAgent(req, t.userAgent))
	}
	if !t.header.empty() && req.URL.Scheme == "http" && !t.allowInsecure && !isLoopback(req.URL.Hostname()) {
		closeBody(req)
		return nil, &configError{fmt.Sprintf("facade: refusing to send the API key over plain http to %s", req.URL.Host)}
	}
	r := req.Clone(req.Context())
	if !t.header.empty() {
		r.Header.Set("Authorization", t.header.reveal())
	}
	if t.userAgent != "" {
		r.Header.Set("User-Agent", t.userAgent)
	}
	if changesState(r, t.basePath) {
		makeNonReplayable(r)
	}
	return t.base.RoundTrip(r)
}

func withUserAgent(req *http.Request, ua string) *http.Request {
	if ua == "" || req.Header.Get("User-Agent") == ua {
		return req
	}
	r := req.Clone(req.Context())
	r.Header.Set("User-Agent", ua)
	return r
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CloseIdleConnections closes the idle connections of the wrapped transport.
func (t *authTransport) CloseIdleConnections() {
	if ci, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}
