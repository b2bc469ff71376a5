package facade

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
)

// A failed attempt is classed by the types and sentinels of its error
// (errors.Is, errors.As), never by its text, with one exception Go leaves
// no choice about: plainHTTPToHTTPS.

// errBuild marks a request that could not be built: it was never sent, and
// building it again fails again.
var errBuild = fmt.Errorf("%w: building the request", errNotSent)

// configError is a failure of the client's configuration found before
// anything was sent, e.g. an API key that would go over plain http. It is
// never retried.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

// retryableTransport reports whether a failure before the response headers
// may pass when tried again: a refused or reset connection, a stall, a cut,
// a timeout, and whatever is not known to be final. Final are a request
// that was never built and a configuration the server will refuse again
// (see configHint).
func retryableTransport(err error) bool {
	var cfg *configError
	return !errors.Is(err, errBuild) && !errors.As(err, &cfg) && configHint(err, nil) == ""
}

// retryableBody reports whether a failure while reading a successful
// response body may pass when tried again: the body stalled (the attempt
// timeout), was cut short, or its connection failed. A body that arrived
// whole but did not decode is not.
func retryableBody(err error) bool {
	var netErr net.Error
	return errors.Is(err, errAttemptTimeout) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ETIMEDOUT) || errors.As(err, &netErr)
}

// neverSent reports a failure that proves the request never left: the
// connection (to the server or its proxy) could not be made, or a request
// without a body failed before any of it was written. Such a call is
// retried even when it changes state.
func neverSent(err error) bool {
	var opErr *net.OpError
	return errors.Is(err, errNotWritten) || errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "proxyconnect")
}

// configHint says what to change when err is a configuration the server
// refuses whatever the number of tries: a scheme that does not match the
// port, a certificate that does not verify, a host that does not exist, a
// TLS handshake the server refuses. It returns "" for any other error.
// base, when known, is the base URL the hint suggests a fix of.
func configHint(err error, base *url.URL) string {
	var (
		hostErr   x509.HostnameError
		authority x509.UnknownAuthorityError
		invalid   x509.CertificateInvalidError
		verify    *tls.CertificateVerificationError
		header    tls.RecordHeaderError
		dnsErr    *net.DNSError
		roots     x509.SystemRootsError
	)
	switch {
	case errors.Is(err, http.ErrSchemeMismatch):
		hint := "the server answers plain HTTP on this port, not HTTPS: use " + withScheme(base, "http") + " as the base URL"
		if base != nil && !isLoopback(base.Hostname()) {
			hint += " (and WithInsecureHTTP, since the API key then crosses the network unencrypted)"
		}
		return hint
	case errors.As(err, &hostErr):
		return hostnameHint(hostErr)
	case errors.As(err, &authority):
		return tlsHint
	case errors.As(err, &invalid):
		return invalidCertificateHint(invalid)
	case errors.As(err, &roots), errors.As(err, &verify):
		return tlsHint
	case errors.As(err, &header):
		return "the server does not speak TLS on this port: check the port, or use " + withScheme(base, "http") + " if it serves plain HTTP"
	case serverAlert(err):
		return "the server refused the TLS handshake: it may want a client certificate or a TLS version this client does not offer (set them with WithTLSConfig)"
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return fmt.Sprintf("no host is named %s: check the host of the base URL", dnsErr.Name)
	}
	return ""
}

// tlsHint says what to do about a certificate of an authority this client
// does not trust.
const tlsHint = "the server's certificate is not trusted: trust its CA with WithCACertFile, or, knowingly, skip verification with WithInsecureSkipVerify"

// hostnameHint names the host the client asked for and the names the
// certificate has: trusting the CA does not help, the name must match.
func hostnameHint(e x509.HostnameError) string {
	names := "no names"
	if c := e.Certificate; c != nil {
		var list []string
		list = append(list, c.DNSNames...)
		for _, ip := range c.IPAddresses {
			list = append(list, ip.String())
		}
		if len(list) == 0 && c.Subject.CommonName != "" {
			list = append(list, c.Subject.CommonName+" (common name only, which Go ignores)")
		}
		if len(list) > 0 {
			names = strings.Join(list, ", ")
		}
	}
	return fmt.Sprintf("the server's certificate is for %s, not %s: use one of its names in the base URL, or give the server a certificate that names %s",
		cut(names), cut(e.Host), cut(e.Host))
}

func invalidCertificateHint(e x509.CertificateInvalidError) string {
	if e.Reason == x509.Expired {
		return "the server's certificate has expired or is not valid yet (" + cut(e.Detail) + "): renew it, or check this machine's clock"
	}
	return "the server's certificate is not valid for this use: " + cut(e.Error())
}

// withScheme is the base URL with another scheme, or a phrase saying so
// when the base URL is not known.
func withScheme(base *url.URL, scheme string) string {
	if base == nil {
		return scheme + "://"
	}
	u := *base
	u.Scheme = scheme
	return u.String()
}

// plainHTTPToHTTPS reports the answer of an HTTPS port to a request sent in
// plain HTTP. Servers give it only as text in a 400: Go's servers answer
// "Client sent an HTTP request to an HTTPS server.", nginx "The plain HTTP
// request was sent to HTTPS port". This is the one place the SDK reads an
// error's text to class it.
func plainHTTPToHTTPS(status int, body []byte) bool {
	return status == http.StatusBadRequest &&
		(bytes.Contains(body, []byte("Client sent an HTTP request to an HTTPS server")) ||
			bytes.Contains(body, []byte("The plain HTTP request was sent to HTTPS port")))
}
