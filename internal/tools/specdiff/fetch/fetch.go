package fetch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
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

// DefaultMaxSize bounds what is read from stdin or a URL when
// Fetcher.MaxSize is zero.
const DefaultMaxSize = 64 << 20

// ErrTooLarge: a listing read from stdin or a URL is larger than
// Fetcher.MaxSize. It is refused whole: a listing cut short would report
// the operations past the cut as missing.
var ErrTooLarge = errors.New("the listing is larger than its size limit")

// Fetcher reads listings from files, stdin and http(s) URLs, and finds the
// document of a server given its base URL.
type Fetcher struct {
	Stdin   io.Reader
	Headers http.Header // sent with URL requests; never printed
	Client  *http.Client
	MaxSize int64 // bytes read from stdin or a URL; zero means DefaultMaxSize
}

// readListing reads all of r, at most the fetcher's MaxSize bytes: one byte
// more is an error matching ErrTooLarge that names the limit.
func (f Fetcher) readListing(r io.Reader) ([]byte, error) {
	max := cmp.Or(f.MaxSize, DefaultMaxSize)
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%w of %d bytes: refused rather than compared cut short", ErrTooLarge, max)
	}
	return data, err
}

// Read reads the listing arg names: a file, - for stdin, the URL of a
// document, or a server's base URL, whose document it finds (see
// [Fetcher.discover]).
func (f Fetcher) Read(ctx context.Context, arg string) (Source, []byte, error) {
	switch {
	case arg == "-":
		data, err := f.readListing(f.Stdin)
		if err != nil {
			err = fmt.Errorf("stdin: %w", err)
		}
		return Source{Name: "stdin"}, data, err
	case strings.HasPrefix(arg, "http://"), strings.HasPrefix(arg, "https://"):
		return f.fetch(ctx, arg)
	}
	data, err := os.ReadFile(arg)
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
	data, err := f.readListing(resp.Body)
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
