package main

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// httpClient is the HTTP client of every command: a transport of scm's
// own with the TLS settings of the flags, wrapped by the notice that says
// what scm waits for and, for scm demo --read-only, by a guard that sends
// no operation that changes state. scm applies --ca-cert and
// --insecure-skip-verify itself because the facade's TLS options need the
// bare *http.Transport that the wrappers hide.
func (a *app) httpClient(attemptTimeout time.Duration) (*http.Client, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	cfg, err := a.tlsConfig()
	if err != nil {
		return nil, err
	}
	t.TLSClientConfig = cfg
	var rt http.RoundTripper = &noticeTransport{base: t, notice: a.waitNotice(attemptTimeout)}
	if a.readOnly {
		rt = readOnlyTransport{base: rt}
	}
	return &http.Client{Transport: rt}, nil
}

// tlsConfig is the TLS configuration of --ca-cert and
// --insecure-skip-verify, nil for Go's defaults.
func (a *app) tlsConfig() (*tls.Config, error) {
	if a.caCert == "" && !a.skipVerify {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: a.skipVerify}
	if a.caCert == "" {
		return cfg, nil
	}
	pem, err := os.ReadFile(a.caCert)
	if err != nil {
		return nil, usagef("--ca-cert: %v", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, usagef("--ca-cert: %s holds no PEM certificate", a.caCert)
	}
	cfg.RootCAs = pool
	return cfg, nil
}

// readOnlyTransport refuses every operation the spec marks as changing
// state (x-changes-state), and any request that names no operation: with
// it, nothing a command does can change the server.
type readOnlyTransport struct{ base http.RoundTripper }

func (t readOnlyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	name, _ := facade.OperationFromContext(req.Context())
	if op, ok := gen.LookupOperation(name); !ok || op.ChangesState {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("read-only: %s changes state, so scm did not send it", name)
	}
	return t.base.RoundTrip(req)
}
