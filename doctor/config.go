package doctor

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// versionPrefix ends the base URL of every server of the interface.
const versionPrefix = "/api/v1"

// configuration checks what the client was given: the base URL, a key,
// and the proxy its requests go through. It goes on unless there is no
// key: a server refuses every call without one.
func (d *doctor) configuration(context.Context) bool {
	d.baseURL()
	if !d.c.HasAPIKey() {
		d.add(CheckAPIKey, Fail, "no API key is set: the server refuses every call without one", "give the key of a user of this server with "+d.names.APIKey)
		return false
	}
	d.add(CheckAPIKey, OK, "set (never shown)", "")
	return d.proxy()
}

// baseURL checks the base URL's path: every operation's path is relative
// to /api/v1.
func (d *doctor) baseURL() {
	u := *d.base
	u.Path = strings.TrimSuffix(u.Path, "/")
	shown := u.Redacted()
	if !strings.HasSuffix(u.Path, versionPrefix) {
		fixed := u
		fixed.Path += versionPrefix
		d.add(CheckBaseURL, Warn, fmt.Sprintf("%s: its path %q does not end in %s, which every operation's path is relative to", shown, u.Path, versionPrefix),
			fmt.Sprintf("use %s (%s), unless the server's interface is really there", fixed.Redacted(), d.names.BaseURL))
		return
	}
	d.add(CheckBaseURL, OK, shown, "")
}

// proxy says which proxy the requests go through, as the client's
// transport decides (net/http's HTTPS_PROXY, HTTP_PROXY and NO_PROXY by
// default), and why none when a variable is set.
func (d *doctor) proxy() bool {
	proxy, err := d.opts.Proxy(&http.Request{URL: d.base, Header: http.Header{}})
	vars := proxyVariables(d.base.Scheme)
	switch {
	case err != nil:
		d.add(CheckProxy, Fail, fmt.Sprintf("the proxy setting does not parse: %v", err), "correct "+strings.Join(vars, " or ")+", or unset it")
		return false
	case proxy != nil:
		d.viaProxy = true
		d.add(CheckProxy, OK, fmt.Sprintf("requests go through the proxy %s (%s)", proxy.Redacted(), fromVariable(setVariables(vars))), "")
	case len(setVariables(vars)) > 0:
		d.add(CheckProxy, OK, fmt.Sprintf("none for %s: %s is set, but %s", d.base.Hostname(), setVariables(vars)[0], exemption(d.base.Hostname())), "")
	default:
		d.add(CheckProxy, OK, fmt.Sprintf("none: neither %s is set", strings.Join(vars, " nor ")), "")
	}
	return true
}

// proxyVariables are the variables net/http reads for a URL of scheme:
// the upper-case name first, as net/http prefers it.
func proxyVariables(scheme string) []string {
	if scheme == "https" {
		return []string{"HTTPS_PROXY", "https_proxy"}
	}
	return []string{"HTTP_PROXY", "http_proxy"}
}

// setVariables are those of names that are set and not empty.
func setVariables(names []string) []string {
	var set []string
	for _, n := range names {
		if os.Getenv(n) != "" {
			set = append(set, n)
		}
	}
	return set
}

// exemption says why net/http sends no request for host through the proxy.
func exemption(host string) string {
	if isLoopback(host) {
		return "net/http never sends requests for this machine through a proxy"
	}
	return "NO_PROXY (or no_proxy) exempts it"
}

// fromVariable says where the proxy came from: the first of the set
// variables, else the client's own setting (Options.Proxy).
func fromVariable(set []string) string {
	if len(set) == 0 {
		return "the client's proxy setting"
	}
	return "from " + set[0]
}

// isLoopback reports whether host is this machine.
func isLoopback(host string) bool {
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// withScheme is u with another scheme, as a fix quotes it.
func withScheme(u *url.URL, scheme string) string {
	v := *u
	v.Scheme = scheme
	v.Path = strings.TrimSuffix(v.Path, "/")
	return v.Redacted()
}
