package fetch

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Client is base unless a TLS flag asks for another: one that trusts the
// caCert file (PEM, -ca-cert) as well as the system's authorities, or that
// skips verification (-insecure-skip-verify), saying so on warn. The
// client made keeps base's timeout.
func Client(base *http.Client, caCert string, insecure bool, warn io.Writer) (*http.Client, error) {
	if caCert == "" && !insecure {
		return base, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caCert != "" {
		pool, err := certPool(caCert)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	if insecure {
		cfg.InsecureSkipVerify = true
		fmt.Fprintln(warn, "specdiff: -insecure-skip-verify: the server's certificate is not verified")
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = cfg
	return &http.Client{Timeout: base.Timeout, Transport: t}, nil
}

// maxCertBytes bounds a -ca-cert file: 1 MiB, some 500 certificates.
const maxCertBytes = 1 << 20

// certPool is the system's pool plus the certificates of the PEM file.
func certPool(file string) (*x509.CertPool, error) {
	data, err := ReadFixed(file, maxCertBytes)
	if err != nil {
		return nil, fmt.Errorf("-ca-cert: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("-ca-cert %s: no PEM certificate in the file", file)
	}
	return pool, nil
}

// TLSHint adds what to do to a certificate error: name the authority with
// -ca-cert or skip verification.
func TLSHint(err error) error {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	if errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) {
		return fmt.Errorf("%w (trust the server's certificate authority with -ca-cert FILE, or skip verification with -insecure-skip-verify)", err)
	}
	return err
}
