package facade

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
)

// secret holds the API key. Every way of printing it prints a placeholder.
type secret string

const redacted = "[REDACTED]"

func (s secret) empty() bool { return s == "" }

func (s secret) String() string {
	if s == "" {
		return "(none)"
	}
	return redacted
}

func (s secret) GoString() string              { return s.String() }
func (s secret) Format(f fmt.State, verb rune) { fmt.Fprint(f, s.String()) }
func (s secret) LogValue() slog.Value          { return slog.StringValue(s.String()) }
func (s secret) MarshalText() ([]byte, error)  { return []byte(s.String()), nil }
func (s secret) headerValue(prefix string) secret {
	if s == "" || prefix == "" {
		return s
	}
	return secret(prefix + " " + string(s))
}

// authTransport adds the Authorization and User-Agent headers to a clone of
// each request bound for the base URL's host. Requests to other hosts (after
// a redirect, say) never carry the key, nor do plain-http requests to a host
// that is not loopback unless explicitly allowed.
type authTransport struct {
	base          http.RoundTripper
	host          string
	header        secret
	userAgent     string
	allowInsecure bool
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.header.empty() || req.URL.Host != t.host {
		return t.base.RoundTrip(withUserAgent(req, t.userAgent))
	}
	if req.URL.Scheme == "http" && !t.allowInsecure && !isLoopback(req.URL.Hostname()) {
		closeBody(req)
		return nil, fmt.Errorf("facade: refusing to send the API key over plain http to %s", req.URL.Host)
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", string(t.header))
	if t.userAgent != "" {
		r.Header.Set("User-Agent", t.userAgent)
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
