package fake

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// DevServer is the standalone fake server on real time, as cmd/scm-fake and
// scm serve-fake run it. Besides the operations it serves its OpenAPI
// document where Java servers publish theirs (see [DevServer.Handler]).
type DevServer struct {
	Addr           string // where to listen
	Key            string // the API key clients must send
	Seed           int64
	RunDuration    time.Duration
	ImportDuration time.Duration
	Licensed       bool // start every user with a license

	// Log writes a line per request to LogOutput: the operation (or the
	// method and path of a request that is none), the status and the
	// duration, as in "getScenarios 200 1.2ms".
	Log bool
	// LogOutput is where Log writes; nil means os.Stderr.
	LogOutput io.Writer

	// TLS serves HTTPS with a self-signed certificate for 127.0.0.1, ::1
	// and localhost (and the host of Addr), made at start and written as
	// PEM to TLSCertOut, so that clients can trust it (scm --ca-cert,
	// specdiff -ca-cert). TLS needs TLSCertOut.
	TLS        bool
	TLSCertOut string

	// MaxUpload bounds a multipart request body (see WithMaxUpload).
	MaxUpload int64
	// WorkbookInflated bounds the inflated size of an uploaded workbook's
	// parts in total (WorkbookLimits.TotalBytes).
	WorkbookInflated int64
}

// DefaultDevServer listens on 127.0.0.1:8080 with the default key, seed and
// durations, and starts every user licensed, so runs start at once; the
// --unlicensed flag serves the answer a user without a license gets: 500
// "Access is denied".
func DefaultDevServer() DevServer {
	return DevServer{Addr: "127.0.0.1:8080", Key: DefaultAPIKey, Seed: DefaultSeed,
		RunDuration: DefaultRunDuration, ImportDuration: DefaultImportDuration, Licensed: true,
		MaxUpload: DefaultMaxUpload, WorkbookInflated: DefaultWorkbookTotalBytes}
}

// RegisterFlags defines the server's flags on fs, with s's values as
// defaults. cmd/scm-fake and scm serve-fake both take them, written
// --name (Go's flag package takes -name too).
func (s *DevServer) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&s.Addr, "addr", s.Addr, "address to listen on")
	fs.StringVar(&s.Key, "key", s.Key, "the API key clients must send")
	fs.Int64Var(&s.Seed, "seed", s.Seed, "seed of the generated data")
	fs.DurationVar(&s.RunDuration, "run-duration", s.RunDuration, "how long a run takes")
	fs.DurationVar(&s.ImportDuration, "import-duration", s.ImportDuration, "how long an import or copy job takes")
	fs.Int64Var(&s.MaxUpload, "max-upload", s.MaxUpload, "largest multipart upload in bytes; a larger one is refused with 413")
	fs.Int64Var(&s.WorkbookInflated, "max-workbook-inflated", s.WorkbookInflated,
		"largest inflated size in bytes of an uploaded workbook's parts, in total; a larger workbook is refused with 400")
	fs.BoolFunc("unlicensed", "start users without a license: runs answer 500 \"Access is denied\" until requestLicense", func(v string) error {
		unlicensed, err := strconv.ParseBool(v)
		s.Licensed = !unlicensed
		return err
	})
	fs.BoolVar(&s.Log, "log", s.Log, "log a line per request to standard error: operation, status, duration")
	fs.BoolVar(&s.TLS, "tls", s.TLS, "serve HTTPS with a self-signed certificate for 127.0.0.1 and localhost (needs --tls-cert-out)")
	fs.StringVar(&s.TLSCertOut, "tls-cert-out", s.TLSCertOut, "with --tls, write the certificate as PEM to `FILE`, for clients to trust")
}

// Validate checks settings that only make sense together: TLS needs
// TLSCertOut, and TLSCertOut is only written with TLS.
func (s DevServer) Validate() error {
	switch {
	case s.TLS && s.TLSCertOut == "":
		return errors.New("--tls needs --tls-cert-out FILE: where to write the certificate clients trust")
	case !s.TLS && s.TLSCertOut != "":
		return errors.New("--tls-cert-out is written only with --tls")
	}
	return nil
}

// ListenAndServe listens on s.Addr and serves (see [DevServer.Serve]).
func (s DevServer) ListenAndServe(ctx context.Context, out io.Writer) error {
	if err := s.Validate(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln, out)
}

// Serve writes the base URL, the key, the URL of the OpenAPI document and,
// with TLS, the certificate file to out (once the file is written), then
// serves on ln until ctx is done.
func (s DevServer) Serve(ctx context.Context, ln net.Listener, out io.Writer) error {
	if err := s.Validate(); err != nil {
		ln.Close()
		return err
	}
	scheme, tail := "http", ""
	if s.TLS {
		cfg, err := s.tlsConfig(ln.Addr())
		if err != nil {
			ln.Close()
			return err
		}
		ln, scheme = tls.NewListener(ln, cfg), "https"
		tail = fmt.Sprintf("CA cert:  %s (trust it: scm --ca-cert %[1]s, specdiff -ca-cert %[1]s)\n", s.TLSCertOut)
	}
	root := scheme + "://" + ln.Addr().String()
	fmt.Fprintf(out, "base URL: %s%s\nAPI key:  %s\nAPI docs: %s%s\n%s", root, BasePath, s.Key, root, apiDocsPath, tail)
	return Serve(ctx, ln, s.Handler())
}

// Handler is the fake server of s's settings as an http.Handler: the
// operations under BasePath, and the OpenAPI document at /v3/api-docs (JSON)
// and /v3/api-docs.yaml, without a key, as springdoc serves a Java server's.
// With Log set, each request is logged.
func (s DevServer) Handler() http.Handler {
	opts := []Option{WithAPIKeys(s.Key), WithSeed(s.Seed), WithRunDuration(s.RunDuration), WithImportDuration(s.ImportDuration),
		WithMaxUpload(s.MaxUpload), WithWorkbookLimits(WorkbookLimits{TotalBytes: s.WorkbookInflated})}
	if s.Licensed {
		opts = append(opts, WithLicense())
	}
	h := withAPIDocs(NewHandler(opts...))
	if !s.Log {
		return h
	}
	w := s.LogOutput
	if w == nil {
		w = os.Stderr
	}
	return logRequests(h, w)
}

// hosts are the names the TLS certificate is made for.
func (s DevServer) hosts(addr net.Addr) []string {
	hosts := []string{"127.0.0.1", "::1", "localhost"}
	add := func(h string) {
		if ip := net.ParseIP(h); h != "" && (ip == nil || !ip.IsUnspecified()) && !containsFold(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	if h, _, err := net.SplitHostPort(s.Addr); err == nil {
		add(h)
	}
	if h, _, err := net.SplitHostPort(addr.String()); err == nil {
		add(h)
	}
	return hosts
}

func containsFold(list []string, s string) bool {
	for _, e := range list {
		if strings.EqualFold(e, s) {
			return true
		}
	}
	return false
}
