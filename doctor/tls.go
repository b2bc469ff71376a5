package doctor

import (
	"cmp"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// renewWithin is how long before its end a certificate is worth a warning.
const renewWithin = 14 * 24 * time.Hour

// tls reports the TLS handshake of the call, or why there is none: plain
// http, to this machine or not, and a scheme that does not fit the port.
func (d *doctor) tls(t connSeen, err error) bool {
	if d.base.Scheme == "http" {
		return d.plainHTTP(err)
	}
	if t.tlsState == nil {
		if seen, fix, ok := d.tlsFailure(firstError(t.tlsErr, err)); ok {
			d.add(CheckTLS, Fail, seen, fix)
			return false
		}
		if t.tlsErr != nil {
			_, hint := errorText(err)
			d.add(CheckTLS, Fail, "the TLS handshake failed: "+rootCause(t.tlsErr), cmp.Or(hint, "check the server's TLS settings"))
			return false
		}
		d.add(CheckTLS, OK, "the client's transport reports no handshake (a reused connection, or a transport of its own)", "")
		return true
	}
	d.certificate(t.tlsState)
	return true
}

func (d *doctor) plainHTTP(err error) bool {
	switch {
	case httpsAnswer(err):
		d.add(CheckTLS, Fail, fmt.Sprintf("the server speaks HTTPS on %s, and the base URL says http", d.base.Host),
			fmt.Sprintf("use %s (%s)", withScheme(d.base, "https"), d.names.BaseURL))
		return false
	case isLoopback(d.base.Hostname()):
		d.add(CheckTLS, OK, "none: plain http to this machine", "")
	default:
		d.add(CheckTLS, Warn, "none: plain http, so the API key crosses the network unencrypted",
			fmt.Sprintf("use %s if the server speaks HTTPS (%s)", withScheme(d.base, "https"), d.names.BaseURL))
	}
	return true
}

// tlsFailure says what failed in a handshake and what to change, for the
// failures a configuration causes; ok is false for others.
func (d *doctor) tlsFailure(err error) (seen, fix string, ok bool) {
	var (
		header    tls.RecordHeaderError
		hostErr   x509.HostnameError
		authority x509.UnknownAuthorityError
		invalid   x509.CertificateInvalidError
	)
	switch {
	case err == nil:
		return "", "", false
	case errors.Is(err, http.ErrSchemeMismatch), errors.As(err, &header):
		fix = fmt.Sprintf("use %s (%s)", withScheme(d.base, "http"), d.names.BaseURL)
		if !isLoopback(d.base.Hostname()) {
			fix += " with " + d.names.InsecureHTTP + ", knowing that the API key then crosses the network unencrypted"
		}
		return fmt.Sprintf("the server speaks plain HTTP on %s, not HTTPS", d.base.Host), fix, true
	case errors.As(err, &hostErr):
		return fmt.Sprintf("the server's certificate is for %s, not %s", listed(certificateNames(hostErr.Certificate), 6), hostErr.Host),
			fmt.Sprintf("use one of those names as the host of the base URL (%s), or give the server a certificate for %s", d.names.BaseURL, hostErr.Host), true
	case errors.As(err, &authority):
		return fmt.Sprintf("the server's certificate%s is signed by an authority this machine does not trust", issuedBy(authority.Cert)),
			fmt.Sprintf("trust the server's CA: give its certificate (PEM) with %s; or, knowingly, turn verification off with %s", d.names.CACert, d.names.SkipVerify), true
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		return "the server's certificate has expired or is not valid yet: " + invalid.Detail, "renew the server's certificate, or check this machine's clock", true
	case errors.As(err, &invalid):
		return "the server's certificate is not valid for a server: " + invalid.Error(), "give the server a certificate for TLS servers", true
	}
	return "", "", false
}

// certificate reports the handshake that succeeded: the version and the
// certificate, with a warning when it was not verified or ends soon.
func (d *doctor) certificate(s *tls.ConnectionState) {
	if len(s.PeerCertificates) == 0 {
		d.add(CheckTLS, OK, tls.VersionName(s.Version)+", no certificate", "")
		return
	}
	cert := s.PeerCertificates[0]
	seen := fmt.Sprintf("%s, a certificate for %s%s, valid until %s", tls.VersionName(s.Version), listed(certificateNames(cert), 6),
		issuedBy(cert), cert.NotAfter.UTC().Format(time.DateOnly))
	switch {
	case len(s.VerifiedChains) == 0:
		d.add(CheckTLS, Warn, seen+", not verified: anyone on the path can read the API key",
			fmt.Sprintf("trust the server's CA with %s instead of %s", d.names.CACert, d.names.SkipVerify))
	case cert.NotAfter.Sub(d.clk.Now()) < renewWithin:
		d.add(CheckTLS, Warn, seen, "renew the server's certificate before it ends")
	default:
		d.add(CheckTLS, OK, seen, "")
	}
}

// certificateNames are the host names and addresses a certificate is for.
func certificateNames(cert *x509.Certificate) []string {
	if cert == nil {
		return []string{"no names"}
	}
	names := append([]string(nil), cert.DNSNames...)
	for _, ip := range cert.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) == 0 && cert.Subject.CommonName != "" {
		names = append(names, cert.Subject.CommonName+" (in its common name only, which Go ignores)")
	}
	if len(names) == 0 {
		return []string{"no names"}
	}
	return names
}

// issuedBy names a certificate's issuer, "" when it names none.
func issuedBy(cert *x509.Certificate) string {
	if cert == nil {
		return ""
	}
	if name := cmp.Or(cert.Issuer.CommonName, strings.Join(cert.Issuer.Organization, ", ")); name != "" {
		return " issued by " + name
	}
	return ""
}
