package main

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"strings"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// common are the flags every command takes.
type common struct {
	spec, output string
	maxBytes     int64
}

func newFlagSet(e env, name string, c *common) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { writeUsage(e.stdout) }
	fs.StringVar(&c.spec, "spec", "", "the spec `FILE` to compare with (default: the api/openapi.yaml built into specdiff)")
	fs.StringVar(&c.output, "o", "text", "output: text, json, markdown or github")
	registerMaxBytes(fs, &c.maxBytes)
	return fs
}

// registerMaxBytes adds -max-input-bytes, the size limit of each document
// a command reads (fetch.DefaultMaxSize).
func registerMaxBytes(fs *flag.FlagSet, max *int64) {
	fs.Int64Var(max, strings.TrimPrefix(fetch.MaxSizeFlag, "-"), fetch.DefaultMaxSize,
		"the most `BYTES` read of each input: the spec, a listing (file, stdin or URL), a findings file, an overlay; a larger one is refused before it is read")
}

// parseFlags parses args, flags before, between and after the other
// arguments (specdiff URL -header "..."), which it returns; "--" ends the
// flags. ok is false when the command is done, with code.
func parseFlags(e env, fs *flag.FlagSet, c *common, args []string) (rest []string, code int, ok bool) {
	rest, code, ok = parseArgs(fs, args)
	if !ok {
		return nil, code, false
	}
	if !maxBytesValid(e, c.maxBytes) {
		return nil, exitError, false
	}
	if !report.IsOutput(c.output) {
		fmt.Fprintf(e.stderr, "specdiff: -o %q: want text, json, markdown or github\n", c.output)
		return nil, exitError, false
	}
	return rest, 0, true
}

// parseOverlayArgs is parseArgs for the overlay commands, with their
// -max-input-bytes checked.
func parseOverlayArgs(e env, fs *flag.FlagSet, f *overlayFlags, args []string) (rest []string, code int, ok bool) {
	rest, code, ok = parseArgs(fs, args)
	if ok && !maxBytesValid(e, f.maxBytes) {
		return nil, exitError, false
	}
	return rest, code, ok
}

// maxBytesValid reports whether -max-input-bytes is a size, saying why on
// stderr when it is not.
func maxBytesValid(e env, max int64) bool {
	if max <= 0 {
		fmt.Fprintf(e.stderr, "specdiff: %s %d: want a positive number of bytes\n", fetch.MaxSizeFlag, max)
		return false
	}
	return true
}

// parseArgs parses flags before, between and after the other arguments,
// which it returns; "--" ends the flags. ok is false when the command is
// done (-h, or a bad flag that fs reported), with code.
func parseArgs(fs *flag.FlagSet, args []string) (rest []string, code int, ok bool) {
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitClean, false
			}
			return nil, exitError, false
		}
		left := fs.Args() // Parse stops at the first argument that is not a flag
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			rest = append(rest, left...)
			break
		}
		if len(left) == 0 {
			break
		}
		rest, args = append(rest, left[0]), left[1:]
	}
	return rest, 0, true
}

// overlayFlags are the flags of specdiff overlay and overlay apply.
type overlayFlags struct {
	spec, out, source string
	maxBytes          int64
}

func newOverlayFlagSet(e env, name string, f *overlayFlags) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { writeUsage(e.stdout) }
	fs.StringVar(&f.out, "o", "", "write to `FILE` (default: standard output; for apply, the spec in place)")
	registerMaxBytes(fs, &f.maxBytes)
	return fs
}

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

// inputFlag collects -input NAME=VALUE flags.
type inputFlag map[string]string

func (f *inputFlag) String() string { return "" }

// Set adds one input.
func (f *inputFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" || value == "" {
		return errors.New("want NAME=VALUE, such as jobId=4001")
	}
	if *f == nil {
		*f = map[string]string{}
	}
	(*f)[name] = value
	return nil
}
