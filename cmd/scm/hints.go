package main

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/scmodel/scmgo/facade"
)

// connectionText explains a failure that the connection's settings cause,
// saying what to change: the scheme of --base-url when the server speaks
// the other one on that port, or its host when the server's certificate
// names other hosts. ok is false for any other failure.
func (a *app) connectionText(err error) (string, bool) {
	u, perr := url.Parse(a.baseURL)
	if perr != nil {
		return "", false
	}
	op, cause := operationOf(err)
	var hostErr x509.HostnameError
	switch {
	case u.Scheme == "http" && httpsAnswer(err):
		return fmt.Sprintf("%s: the server speaks HTTPS on %s, and --base-url says http: use %s (--base-url or SCM_BASE_URL); the server answered: %s",
			op, u.Host, withScheme(u, "https"), cause), true
	case u.Scheme == "https" && plainHTTPPeer(err):
		return fmt.Sprintf("%s: the server speaks plain HTTP on %s, not HTTPS: use %s (--base-url or SCM_BASE_URL; --insecure-http for a host that is not loopback); %s",
			op, u.Host, withScheme(u, "http"), rootCause(err)), true
	case errors.As(err, &hostErr):
		return hostnameText(op, u, hostErr), true
	}
	return "", false
}

// operationOf returns the operation a facade error names, and its cause
// without the facade's wording.
func operationOf(err error) (op, cause string) {
	var apiErr *facade.APIError
	var reqErr *facade.RequestError
	switch {
	case errors.As(err, &apiErr):
		return apiErr.Operation, fmt.Sprintf("%d %s", apiErr.StatusCode, http.StatusText(apiErr.StatusCode))
	case errors.As(err, &reqErr):
		return reqErr.Operation, rootCause(err)
	}
	return "request", err.Error()
}

// httpsAnswer reports the answer of an HTTPS server to a plain HTTP
// request: a 400 whose body says so (Go's "Client sent an HTTP request to
// an HTTPS server.", nginx's "The plain HTTP request was sent to HTTPS
// port").
func httpsAnswer(err error) bool {
	var apiErr *facade.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		return false
	}
	body := bytes.ToLower(apiErr.Body)
	return bytes.Contains(body, []byte("http request to an https server")) || bytes.Contains(body, []byte("plain http request was sent to https"))
}

// plainHTTPPeer reports a TLS handshake answered by a server that speaks
// plain HTTP.
func plainHTTPPeer(err error) bool {
	var header tls.RecordHeaderError
	return errors.Is(err, http.ErrSchemeMismatch) || errors.As(err, &header) ||
		strings.Contains(err.Error(), "first record does not look like a TLS handshake")
}

// hostnameText says which names the server's certificate holds, and that
// the host of --base-url must be one of them.
func hostnameText(op string, u *url.URL, e x509.HostnameError) string {
	names := certificateNames(e.Certificate)
	if len(names) == 0 {
		return fmt.Sprintf("%s: the server's certificate names no host (no subject alternative names), so %s cannot match it: the server needs a certificate for %s",
			op, u.Hostname(), u.Hostname())
	}
	return fmt.Sprintf("%s: the server's certificate is for %s, not %s: use one of those names as the host in --base-url, e.g. %s (the name is what does not match: trusting the certificate's CA again changes nothing)",
		op, strings.Join(names, ", "), u.Hostname(), withHost(u, suggestedName(u.Hostname(), e.Certificate)))
}

// suggestedName is the certificate's name to use instead of host: an
// address of the certificate that host resolves to (localhost is
// 127.0.0.1), else its first name that is not a wildcard.
func suggestedName(host string, cert *x509.Certificate) string {
	addrs, _ := net.LookupHost(host)
	for _, ip := range cert.IPAddresses {
		for _, a := range addrs {
			if parsed := net.ParseIP(a); parsed != nil && parsed.Equal(ip) {
				return ip.String()
			}
		}
	}
	for _, name := range cert.DNSNames {
		if !strings.HasPrefix(name, "*.") {
			return name
		}
	}
	return certificateNames(cert)[0]
}

// certificateNames lists the host names and addresses a certificate is
// valid for.
func certificateNames(cert *x509.Certificate) []string {
	if cert == nil {
		return nil
	}
	names := append([]string(nil), cert.DNSNames...)
	for _, ip := range cert.IPAddresses {
		names = append(names, ip.String())
	}
	return names
}

// rootCause is the innermost error's text.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

func withScheme(u *url.URL, scheme string) string {
	v := *u
	v.Scheme = scheme
	return v.Redacted()
}

func withHost(u *url.URL, host string) string {
	v := *u
	if port := u.Port(); port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	v.Host = host
	return v.Redacted()
}
