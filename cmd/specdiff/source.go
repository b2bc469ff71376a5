package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// source names where a listing came from.
type source struct {
	name   string // shown in reports: the file name, "stdin", or the URL without credentials
	file   string // the file name for annotations; empty for stdin and URLs
	note   string // said on stderr: where a server's document was found
	format string // the format the source is known to have, "" to detect it
}

// maxListingSize bounds what is read from stdin or a URL.
const maxListingSize = 64 << 20

// fetcher reads listings from files, stdin and http(s) URLs, and finds the
// document of a server given its base URL.
type fetcher struct {
	stdin   io.Reader
	headers http.Header // sent with URL requests; never printed
	client  *http.Client
}

func (f fetcher) read(ctx context.Context, arg string) (source, []byte, error) {
	switch {
	case arg == "-":
		data, err := io.ReadAll(io.LimitReader(f.stdin, maxListingSize))
		return source{name: "stdin"}, data, err
	case strings.HasPrefix(arg, "http://"), strings.HasPrefix(arg, "https://"):
		return f.fetch(ctx, arg)
	}
	data, err := os.ReadFile(arg)
	return source{name: arg, file: arg}, data, err
}

func (f fetcher) fetch(ctx context.Context, raw string) (source, []byte, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return source{name: "URL"}, nil, fmt.Errorf("listing URL: %w", err)
	}
	if isServerURL(u) {
		return f.discover(ctx, u)
	}
	src := source{name: redactedURL(u)}
	status, data, err := f.get(ctx, u)
	switch {
	case err != nil:
		return src, nil, fmt.Errorf("GET %s: %w", src.name, tlsHint(err))
	case status/100 != 2:
		return src, nil, fmt.Errorf("GET %s: %s", src.name, statusText(status))
	}
	return src, data, nil
}

// get sends GET u with the headers and reads at most maxListingSize bytes
// of the answer. Errors never repeat the URL, which may hold credentials.
func (f fetcher) get(ctx context.Context, u *url.URL) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, redactURLError(err)
	}
	req.Header = f.headers.Clone()
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, nil, redactURLError(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxListingSize))
	return resp.StatusCode, data, err
}

func statusText(code int) string {
	return fmt.Sprintf("%d %s", code, http.StatusText(code))
}

// redactedURL names a listing URL without what may be a credential: the
// password of its user info and its query.
func redactedURL(u *url.URL) string {
	shown := *u
	if shown.RawQuery != "" {
		shown.RawQuery = "xxxxx" // a bare ?TOKEN is a credential too
	}
	return shown.Redacted()
}

// redactURLError drops the URL a *url.Error repeats, which may hold
// credentials; the caller names the redacted URL instead.
func redactURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
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
