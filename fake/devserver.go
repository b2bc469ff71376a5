package fake

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// DevServer is the standalone fake server on real time, as cmd/scm-fake and
// scm serve-fake run it.
type DevServer struct {
	Addr           string // where to listen
	Key            string // the API key clients must send
	Seed           int64
	RunDuration    time.Duration
	ImportDuration time.Duration
	Licensed       bool // start every user with a license
	// MaxUpload bounds a multipart request body (see WithMaxUpload).
	MaxUpload int64
	// WorkbookInflated bounds the inflated size of an uploaded workbook's
	// parts in total (WorkbookLimits.TotalBytes).
	WorkbookInflated int64
}

// DefaultDevServer listens on 127.0.0.1:8080 with the default key, seed and
// durations, and starts every user licensed, so runs start at once; the
// -unlicensed flag serves the 403 a user without a license gets.
func DefaultDevServer() DevServer {
	return DevServer{Addr: "127.0.0.1:8080", Key: DefaultAPIKey, Seed: DefaultSeed,
		RunDuration: DefaultRunDuration, ImportDuration: DefaultImportDuration, Licensed: true,
		MaxUpload: DefaultMaxUpload, WorkbookInflated: DefaultWorkbookTotalBytes}
}

// RegisterFlags defines the server's flags on fs, with s's values as
// defaults.
func (s *DevServer) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&s.Addr, "addr", s.Addr, "address to listen on")
	fs.StringVar(&s.Key, "key", s.Key, "the API key clients must send")
	fs.Int64Var(&s.Seed, "seed", s.Seed, "seed of the generated data")
	fs.DurationVar(&s.RunDuration, "run-duration", s.RunDuration, "how long a run takes")
	fs.DurationVar(&s.ImportDuration, "import-duration", s.ImportDuration, "how long an import or copy job takes")
	fs.Int64Var(&s.MaxUpload, "max-upload", s.MaxUpload, "largest multipart upload in bytes; a larger one is refused with 413")
	fs.Int64Var(&s.WorkbookInflated, "max-workbook-inflated", s.WorkbookInflated,
		"largest inflated size in bytes of an uploaded workbook's parts, in total; a larger workbook is refused with 400")
	fs.BoolFunc("unlicensed", "start users without a license: runs answer 403 until requestLicense", func(v string) error {
		unlicensed, err := strconv.ParseBool(v)
		s.Licensed = !unlicensed
		return err
	})
}

// ListenAndServe listens on s.Addr and serves (see [DevServer.Serve]).
func (s DevServer) ListenAndServe(ctx context.Context, out io.Writer) error {
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln, out)
}

// Serve writes the base URL and the key to out, then serves on ln until
// ctx is done.
func (s DevServer) Serve(ctx context.Context, ln net.Listener, out io.Writer) error {
	opts := []Option{WithAPIKeys(s.Key), WithSeed(s.Seed), WithRunDuration(s.RunDuration), WithImportDuration(s.ImportDuration),
		WithMaxUpload(s.MaxUpload), WithWorkbookLimits(WorkbookLimits{TotalBytes: s.WorkbookInflated})}
	if s.Licensed {
		opts = append(opts, WithLicense())
	}
	fmt.Fprintf(out, "base URL: http://%s%s\nAPI key:  %s\n", ln.Addr(), BasePath, s.Key)
	return Serve(ctx, ln, NewHandler(opts...))
}
