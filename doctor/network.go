package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"

	"github.com/scmodel/scmgo/facade"
)

// network sends getCurrentUser with the connection traced, and reports
// the name lookup, the connection, the TLS handshake and the key, a line
// each, up to the first that failed.
func (d *doctor) network(ctx context.Context) bool {
	d.c.CloseIdleConnections() // a connection made before would hide the lookup, the connection and the handshake
	tr := &connTrace{}
	user, err := d.c.User.Current(httptrace.WithClientTrace(ctx, tr.clientTrace()))
	t := tr.snapshot()
	if !d.dns(t, err) || !d.connect(t, err) || !d.tls(t, err) {
		return false
	}
	if err != nil {
		return d.keyRefused(err)
	}
	d.user = &userSeen{name: user.Username, id: user.Id, props: user.AdditionalProperties}
	d.add(CheckKey, OK, fmt.Sprintf("accepted: the key of %s (user id %d)", orDash(user.Username), user.Id), "")
	return true
}

func (d *doctor) dns(t connSeen, err error) bool {
	host := d.base.Hostname()
	var dnsErr *net.DNSError
	switch {
	case !t.resolved && (t.dnsErr != nil || errors.As(err, &dnsErr)):
		return d.dnsFailed(host, firstError(t.dnsErr, err))
	case t.resolved:
		d.add(CheckDNS, OK, fmt.Sprintf("%s is at %s%s", t.host, listed(t.addrs, 4), d.ofProxy()), "")
	case net.ParseIP(host) != nil:
		d.add(CheckDNS, OK, host+" is an address: nothing to look up", "")
	case t.reused:
		d.add(CheckDNS, OK, host+": the call reused a connection, so nothing was looked up", "")
	default:
		d.add(CheckDNS, OK, host+": the client's transport reports no lookup", "")
	}
	return true
}

func (d *doctor) dnsFailed(host string, err error) bool {
	var dnsErr *net.DNSError
	seen := fmt.Sprintf("looking up %s: %s", host, rootCause(err))
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		seen = fmt.Sprintf("no host is named %s", dnsErr.Name)
	}
	fix := "check the host of the base URL (" + d.names.BaseURL + ") and this machine's DNS settings"
	if d.viaProxy {
		fix = "check the host of the proxy variable, and this machine's DNS settings"
	}
	d.add(CheckDNS, Fail, seen, fix)
	return false
}

func (d *doctor) connect(t connSeen, err error) bool {
	switch {
	case !t.connected && (t.connErr != nil || dialFailed(err)):
		addr := t.addr
		if addr == "" {
			addr = d.base.Host
		}
		fix := "check the host and port of the base URL (" + d.names.BaseURL + "), that the server runs, and that no firewall is in between"
		if d.viaProxy {
			fix = "check the proxy's address, and that it runs"
		}
		d.add(CheckConnect, Fail, fmt.Sprintf("connecting to %s%s: %s", addr, d.ofProxy(), rootCause(firstError(t.connErr, err))), fix)
		return false
	case t.connected:
		d.add(CheckConnect, OK, "connected to "+t.addr+d.ofProxy(), "")
	case t.reused:
		d.add(CheckConnect, OK, "the call reused a connection made before", "")
	default:
		d.add(CheckConnect, OK, "the client's transport reports no connection", "")
	}
	return true
}

func (d *doctor) ofProxy() string {
	if d.viaProxy {
		return " (the proxy)"
	}
	return ""
}

// keyRefused reports the key check's failure: a refused key (401, 403,
// or a real server's 500 "Access is denied"), or any other failure of
// getCurrentUser, with what to change.
func (d *doctor) keyRefused(err error) bool {
	seen, hint := errorText(err)
	switch {
	case errors.Is(err, facade.ErrUnauthorized), errors.Is(err, facade.ErrForbidden):
		d.add(CheckKey, Fail, "the server refused the key: "+seen,
			fmt.Sprintf("give the key of a user of this server with %s (a server that wants a word such as Bearer before the key takes it with %s)", d.names.APIKey, d.names.KeyPrefix))
	case hint != "":
		d.add(CheckKey, Fail, seen, hint)
	default:
		d.add(CheckKey, Fail, seen, "the server could not tell who the key belongs to: check the base URL ("+d.names.BaseURL+") and the server's state")
	}
	return false
}

// httpsAnswer reports the answer of an HTTPS port to plain HTTP: a 400
// whose body says so (Go's servers, nginx).
func httpsAnswer(err error) bool {
	var apiErr *facade.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		return false
	}
	body := bytes.ToLower(apiErr.Body)
	return bytes.Contains(body, []byte("http request to an https server")) || bytes.Contains(body, []byte("plain http request was sent to https"))
}

// errorText is a facade error's text without the package's prefix and
// without its hint, and the hint: the report says what to change apart.
func errorText(err error) (text, hint string) {
	var apiErr *facade.APIError
	var reqErr *facade.RequestError
	switch {
	case errors.As(err, &apiErr):
		e := *apiErr
		hint, e.Hint = e.Hint, ""
		text = e.Error()
	case errors.As(err, &reqErr):
		e := *reqErr
		hint, e.Hint = e.Hint, ""
		text = e.Error()
	default:
		text = err.Error()
	}
	return strings.TrimPrefix(text, "facade: "), hint
}

// rootCause is the innermost error's text: "connection refused" rather
// than the chain of operations around it.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// listed joins at most n items, saying how many more there are.
func listed(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
