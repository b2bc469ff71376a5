package fetch

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Source names where a listing came from.
type Source struct {
	Name   string // shown in reports: the file name, "stdin", or the URL without credentials
	File   string // the file name for annotations; empty for stdin and URLs
	Note   string // to say on stderr: where a server's document was found
	Format string // the format the source is known to have, "" to detect it
}

// Fetcher reads listings from files, stdin and http(s) URLs, and finds the
// document of a server given its base URL.
type Fetcher struct {
	Stdin   io.Reader
	Headers http.Header // sent with URL requests; never printed
	Client  *http.Client
	MaxSize int64 // bytes read of a listing, from a file, stdin or a URL; zero means DefaultMaxSize
}

// readListing reads all of r, what names it, at most the fetcher's MaxSize
// bytes: one byte more is a *TooLargeError.
func (f Fetcher) readListing(r io.Reader, what string) ([]byte, error) {
	return ReadAll(r, what, f.MaxSize)
}

// Read reads the listing arg names: a file, - for stdin, the URL of a
// document, or a server's base URL, whose document it finds (see
// [Fetcher.discover]).
func (f Fetcher) Read(ctx context.Context, arg string) (Source, []byte, error) {
	switch {
	case arg == "-":
		data, err := f.readListing(f.Stdin, "stdin")
		return Source{Name: "stdin"}, data, err
	case strings.HasPrefix(arg, "http://"), strings.HasPrefix(arg, "https://"):
		return f.fetch(ctx, arg)
	}
	data, err := ReadFile(arg, f.MaxSize)
	return Source{Name: arg, File: arg}, data, err
}

func (f Fetcher) fetch(ctx context.Context, raw string) (Source, []byte, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Source{Name: "URL"}, nil, fmt.Errorf("listing URL: %w", err)
	}
	if isServerURL(u) {
		return f.discover(ctx, u)
	}
	src := Source{Name: RedactedURL(u)}
	status, data, err := f.get(ctx, u)
	switch {
	case err != nil:
		return src, nil, fmt.Errorf("GET %s: %w", src.Name, TLSHint(err))
	case status/100 != 2:
		return src, nil, fmt.Errorf("GET %s: %s", src.Name, StatusText(status))
	}
	return src, data, nil
}

// get sends GET u with the headers and reads the answer, refusing one of
// more than MaxSize bytes. Errors never repeat the URL, which may hold
// credentials.
func (f Fetcher) get(ctx context.Context, u *url.URL) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, RedactURLError(err)
	}
	req.Header = f.Headers.Clone()
	resp, err := f.Client.Do(req)
	if err != nil {
		return 0, nil, RedactURLError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, nil, nil // only the status is reported
	}
	data, err := f.readListing(resp.Body, "the answer")
	return resp.StatusCode, data, err
}

// StatusText is a status code with its text: "404 Not Found".
func StatusText(code int) string {
	return fmt.Sprintf("%d %s", code, http.StatusText(code))
}

// RedactedURL names a URL without what may be a credential: the password
// of its user info and its query.
func RedactedURL(u *url.URL) string {
	shown := *u
	if shown.RawQuery != "" {
		shown.RawQuery = "xxxxx" // a bare ?TOKEN is a credential too
	}
	return shown.Redacted()
}

// RedactURLError drops the URL a *url.Error repeats, which may hold
// credentials; the caller names the redacted URL instead.
func RedactURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}
