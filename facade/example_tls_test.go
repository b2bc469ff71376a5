package facade_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// tlsServer serves the fake over HTTPS with a certificate of its own, as
// servers of this kind usually are.
func tlsServer() *httptest.Server {
	srv := httptest.NewUnstartedServer(fake.NewHandler())
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	return srv
}

// A server whose certificate comes from its own CA: trust that CA's PEM
// file, besides the system's roots.
func ExampleWithCACertFile() {
	srv := tlsServer()
	defer srv.Close()
	dir, err := os.MkdirTemp("", "scm-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	caPath := filepath.Join(dir, "company-ca.pem")
	if err := os.WriteFile(caPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		log.Fatal(err)
	}

	c, err := facade.New(srv.URL+"/api/v1", facade.WithAPIKey(fake.DefaultAPIKey), facade.WithCACertFile(caPath))
	if err != nil {
		log.Fatal(err)
	}
	u, err := c.User.Current(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("signed in as", u.Username)
	// Output: signed in as demo
}

// A TLS configuration of your own: here a pool holding the server's
// certificate; client certificates would go here too.
func ExampleWithTLSConfig() {
	srv := tlsServer()
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())

	c, err := facade.New(srv.URL+"/api/v1", facade.WithAPIKey(fake.DefaultAPIKey),
		facade.WithTLSConfig(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	if err != nil {
		log.Fatal(err)
	}
	u, err := c.User.Current(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("signed in as", u.Username)
	// Output: signed in as demo
}

// Skipping verification, knowingly: New logs a warning once.
func ExampleWithInsecureSkipVerify() {
	srv := tlsServer()
	defer srv.Close()
	warnings := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{Level: slog.LevelWarn, ReplaceAttr: withoutTimeAndURL}))

	c, err := facade.New(srv.URL+"/api/v1", facade.WithAPIKey(fake.DefaultAPIKey), facade.WithInsecureSkipVerify(), facade.WithLogger(warnings))
	if err != nil {
		log.Fatal(err)
	}
	u, err := c.User.Current(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("signed in as", u.Username)
	// Output:
	// level=WARN msg="scm: TLS certificate verification is off (WithInsecureSkipVerify): the API key can be read by anyone on the path"
	// signed in as demo
}

// withoutTimeAndURL drops the attributes that change from run to run.
func withoutTimeAndURL(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.TimeKey || a.Key == "baseURL" {
		return slog.Attr{}
	}
	return a
}
