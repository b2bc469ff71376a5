package facade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// Download is a workbook streamed from the server. Read it or call WriteTo,
// and Close it; it is never buffered whole.
//
// A download whose body stalls or breaks off goes on by itself, within the
// call's attempt budget ([RetryPolicy.MaxAttempts] requests in all): from
// the start when none of it was read yet, else with a Range request for
// the rest, when the server said it takes them (Accept-Ranges: bytes) and
// answers 206 from the right byte. Otherwise the read fails with a
// [*DownloadError] saying how many bytes were delivered and why the rest
// could not be had.
type Download struct {
	io.ReadCloser
	ContentType   string
	ContentLength int64  // -1 when unknown
	Filename      string // from Content-Disposition, "" when none
}

// WriteTo copies the whole workbook to w and closes the download.
func (d *Download) WriteTo(w io.Writer) (int64, error) {
	defer d.Close()
	return io.Copy(w, d.ReadCloser)
}

var _ io.WriterTo = (*Download)(nil)

// ReadAll reads the whole download into memory and closes it. As no byte
// reaches the caller before the last one arrived, a download that breaks
// off and cannot go on from where it broke off is fetched again from the
// start, within the same attempts ([RetryPolicy.MaxAttempts] requests in
// all), where [Download.Read] would fail with a [*DownloadError].
//
// progress, when not nil, is called on the caller's goroutine as bytes
// arrive, with the bytes received so far and the download's length (-1
// when the server did not say); received is 0 again, and size that of the
// new answer, when the download is fetched again from the start.
func (d *Download) ReadAll(progress func(received, size int64)) ([]byte, error) {
	defer d.Close()
	if progress == nil {
		progress = func(int64, int64) {}
	}
	var buf bytes.Buffer
	size := func() int64 { return d.ContentLength }
	if b, ok := d.ReadCloser.(*resumingBody); ok {
		b.whole = true
		b.restarted = func() { buf.Reset(); progress(0, b.size) }
		size = func() int64 { return b.size }
	}
	progress(0, size())
	chunk := make([]byte, 32<<10)
	for {
		n, err := d.Read(chunk)
		if n > 0 {
			buf.Write(chunk[:n])
			progress(int64(buf.Len()), size())
		}
		if errors.Is(err, io.EOF) {
			return buf.Bytes(), nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// DownloadError is a download that broke off and could not go on: Delivered
// bytes reached the caller, and Reason says why the rest could not be had
// (the server does not take Range requests, it sent the whole workbook
// again, the attempts ran out). It unwraps to the failure that broke the
// download off, or to the failure of the request that was to resume it.
type DownloadError struct {
	Operation string    // camelCase operationId
	Delivered int64     // bytes handed to the caller
	Size      int64     // the whole download's length, -1 when the server did not say
	Reason    string    // why the download could not go on
	Attempts  []Attempt // every request of the download, the last included
	Err       error
}

func (e *DownloadError) Error() string {
	of := ""
	if e.Size >= 0 {
		of = fmt.Sprintf(" of %d", e.Size)
	}
	msg := fmt.Sprintf("facade: %s: the download broke off after %d%s bytes were delivered: %v", e.Operation, e.Delivered, of, e.Err)
	if e.Reason != "" {
		msg += "; " + e.Reason
	}
	if len(e.Attempts) > 1 {
		msg += fmt.Sprintf(" (after %d attempts)", len(e.Attempts))
	}
	return msg
}

// Unwrap returns the failure that ended the download.
func (e *DownloadError) Unwrap() error { return e.Err }

func (c *Client) download(ctx context.Context, cl call) (*Download, error) {
	t := c.newTries()
	resp, err := c.send(ctx, cl, nil, t)
	if err != nil {
		return nil, err
	}
	d := &Download{ContentType: resp.Header.Get("Content-Type"), ContentLength: resp.ContentLength}
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		d.Filename = params["filename"]
	}
	b := &resumingBody{c: c, ctx: ctx, cl: cl, t: t}
	b.take(resp)
	d.ReadCloser = b
	return d, nil
}

// resumingBody is the body of a download that goes on where it broke off.
// Like any reader it is for one goroutine at a time.
type resumingBody struct {
	c   *Client
	ctx context.Context
	cl  call
	t   *tries

	body      io.ReadCloser
	status    int
	delivered int64
	size      int64  // of the whole download, -1 when unknown
	validator string // the first answer's strong ETag or Last-Modified, sent as If-Range
	noResume  string // why the rest cannot be asked for, "" when it can
	err       error  // the error every later Read returns

	// whole is set by ReadAll: no byte was handed out before the end, so
	// the download may start over from its first byte; restarted is then
	// called when it does, and restarts counts how often.
	whole     bool
	restarted func()
	restarts  int
}

// take makes resp, the answer for the whole download, the current body.
func (b *resumingBody) take(resp *http.Response) {
	b.body, b.status, b.size = resp.Body, resp.StatusCode, resp.ContentLength
	b.validator = resp.Header.Get("ETag")
	if strings.HasPrefix(b.validator, "W/") || b.validator == "" {
		b.validator = resp.Header.Get("Last-Modified")
	}
	switch {
	case resp.Uncompressed:
		b.noResume = "the server compressed it in transit, so its bytes cannot be counted to resume"
	case !acceptsRanges(resp.Header):
		b.noResume = "the server does not support resuming (its answer had no Accept-Ranges: bytes)"
	default:
		b.noResume = ""
	}
}

func acceptsRanges(h http.Header) bool {
	for _, v := range h.Values("Accept-Ranges") {
		for _, unit := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(unit), "bytes") {
				return true
			}
		}
	}
	return false
}

func (b *resumingBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	for {
		n, err := b.body.Read(p)
		b.delivered += int64(n)
		if err == nil || errors.Is(err, io.EOF) {
			return n, err
		}
		restarts := b.restarts
		if err := b.resume(err); err != nil {
			b.err = err
			if n > 0 {
				return n, nil // these bytes first; the error on the next Read
			}
			return 0, err
		}
		if b.restarts != restarts {
			n = 0 // bytes of the answer given up
		}
		if n > 0 {
			return n, nil
		}
	}
}

// Close closes the current body; later Reads fail.
func (b *resumingBody) Close() error {
	if b.err == nil {
		b.err = errors.New("facade: read of a closed download")
	}
	return b.body.Close()
}

// resume goes on after the body failed with cause: from the start when
// nothing was delivered, else from the first byte not delivered. It
// returns the error that ends the download when it cannot.
func (b *resumingBody) resume(cause error) error {
	b.body.Close()
	b.t.attempts = append(b.t.attempts, Attempt{Status: b.status, Err: cause})
	n := len(b.t.attempts)
	switch {
	case !retryableBody(cause) || b.ctx.Err() != nil:
		return b.fail(cause, "")
	case b.delivered > 0 && b.noResume != "" && !b.mayRestart():
		return b.fail(cause, b.noResume)
	case n >= b.t.policy.MaxAttempts:
		return b.fail(cause, fmt.Sprintf("the %d attempts the retry policy allows are spent", b.t.policy.MaxAttempts))
	}
	delay := b.t.policy.backoff(n)
	if err := b.c.retrySleep(b.ctx, delay, cause); err != nil {
		return b.fail(err, "")
	}
	b.t.attempts[n-1].Delay = delay
	if b.noResume != "" {
		b.delivered = 0 // only when mayRestart: fetch it all again
	}
	resp, err := b.c.send(b.ctx, b.rest(), nil, b.t)
	if err != nil {
		return b.fail(err, fmt.Sprintf("asking for the rest from byte %d failed", b.delivered))
	}
	return b.accept(resp, cause)
}

// mayRestart reports whether the download may start over from its first
// byte after bytes were read: when ReadAll reads it, handing nothing out
// before the end. Every download's operation changes no state (the spec's
// binary answers are exports), so sending it again is safe.
func (b *resumingBody) mayRestart() bool { return b.whole }

// restart makes resp, a whole answer, the current body of a download read
// from its first byte again.
func (b *resumingBody) restart(resp *http.Response) {
	b.take(resp)
	b.delivered = 0
	b.restarts++
	if b.restarted != nil {
		b.restarted()
	}
}

// rest is the call for what was not delivered: the whole download again
// when nothing was, else a Range request from the first byte missing, on
// the condition (If-Range) that the download is still the one begun.
func (b *resumingBody) rest() call {
	cl := b.cl
	if b.delivered == 0 {
		return cl
	}
	build, from, validator := cl.build, b.delivered, b.validator
	cl.build = func(server string) (*http.Request, error) {
		req, err := build(server)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Range", "bytes="+strconv.FormatInt(from, 10)+"-")
		req.Header.Set("Accept-Encoding", "identity") // byte offsets count the bytes as sent
		if validator != "" {
			req.Header.Set("If-Range", validator)
		}
		return req, nil
	}
	return cl
}

// accept takes the answer to rest as the current body, or says why it is
// not the rest of the download.
func (b *resumingBody) accept(resp *http.Response, cause error) error {
	if b.delivered == 0 || (resp.StatusCode == http.StatusOK && b.mayRestart()) {
		b.restart(resp)
		return nil
	}
	first, total, ok := contentRange(resp.Header.Get("Content-Range"))
	reason := ""
	switch {
	case resp.StatusCode == http.StatusOK:
		reason = "asked for the rest, the server sent the whole workbook again (it changed since, or it does not take ranges)"
	case resp.StatusCode != http.StatusPartialContent || !ok:
		reason = fmt.Sprintf("asked for the rest, the server answered %d with Content-Range %q", resp.StatusCode, cut(resp.Header.Get("Content-Range")))
	case first != b.delivered:
		reason = fmt.Sprintf("asked for the rest from byte %d, the server sent it from byte %d", b.delivered, first)
	case b.size >= 0 && total >= 0 && total != b.size:
		reason = fmt.Sprintf("asked for the rest, the server sent a download of %d bytes instead of %d", total, b.size)
	}
	if reason != "" {
		resp.Body.Close()
		return b.fail(cause, reason)
	}
	b.body, b.status = resp.Body, resp.StatusCode
	return nil
}

// contentRange reads "bytes FIRST-LAST/TOTAL"; total is -1 for "*".
func contentRange(v string) (first, total int64, ok bool) {
	spec, found := strings.CutPrefix(v, "bytes ")
	if !found {
		return 0, 0, false
	}
	span, size, found := strings.Cut(spec, "/")
	from, _, found2 := strings.Cut(span, "-")
	if !found || !found2 {
		return 0, 0, false
	}
	first, err := strconv.ParseInt(from, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	total = -1
	if size != "*" {
		if total, err = strconv.ParseInt(size, 10, 64); err != nil {
			return 0, 0, false
		}
	}
	return first, total, true
}

func (b *resumingBody) fail(err error, reason string) error {
	return &DownloadError{Operation: b.cl.op.ID, Delivered: b.delivered, Size: b.size, Reason: reason,
		Attempts: b.t.attempts, Err: err}
}
