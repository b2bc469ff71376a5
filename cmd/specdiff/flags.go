package main

import (
	"flag"
	"fmt"
	"net/http"
	"strings"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
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

// client is e.client, or the one the TLS flags ask for (fetch.Client).
func (c *connection) client(e env) (*http.Client, error) {
	return fetch.Client(e.client, c.caCert, c.insecure, e.stderr)
}

// headerFlag collects -header "Name: value" flags.
type headerFlag struct{ h http.Header }

func (f *headerFlag) String() string { return "" }

// Set adds one header; the value is never echoed, not even in errors.
func (f *headerFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return fmt.Errorf(`want "Name: value"`)
	}
	if f.h == nil {
		f.h = http.Header{}
	}
	f.h.Add(name, strings.TrimSpace(value))
	return nil
}
