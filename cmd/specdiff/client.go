package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
)

// connection is how specdiff reaches a server: the -header, -ca-cert and
// -insecure-skip-verify flags of the commands that send requests.
type connection struct {
	headers  headerFlag
	caCert   string
	insecure bool
}

func (c *connection) register(fs *flag.FlagSet) {
	fs.Var(&c.headers, "header", `HTTP header "Name: value" for requests to URLs; repeatable; never printed`)
	fs.StringVar(&c.caCert, "ca-cert", "", "PEM file of the certificate authority (or self-signed certificate) to trust besides the system's")
	fs.BoolVar(&c.insecure, "insecure-skip-verify", false, "do not verify the server's certificate (knowingly: anyone on the way can read the key)")
}

// client is e.client unless a TLS flag asks for another: one that trusts
// the -ca-cert file as well as the system's authorities, or that skips
// verification (with a warning on stderr).
func (c *connection) client(e env) (*http.Client, error) {
	if c.caCert == "" && !c.insecure {
		return e.client, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if c.caCert != "" {
		pool, err := certPool(c.caCert)
		if err != nil {
			return nil, err
		}
		cfg.RootCAs = pool
	}
	if c.insecure {
		cfg.InsecureSkipVerify = true
		fmt.Fprintln(e.stderr, "specdiff: -insecure-skip-verify: the server's certificate is not verified")
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = cfg
	return &http.Client{Timeout: e.client.Timeout, Transport: t}, nil
}

// certPool is the system's pool plus the certificates of the PEM file.
func certPool(file string) (*x509.CertPool, error) {
	data, err := os.ReadFile(file)
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

// tlsHint adds what to do to a certificate error.
func tlsHint(err error) error {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	if errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) {
		return fmt.Errorf("%w (trust the server's certificate authority with -ca-cert FILE, or skip verification with -insecure-skip-verify)", err)
	}
	return err
}
