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
	"time"
)

// Download is a workbook streamed from the server. Read it or call WriteTo,
// and Close it; it is never buffered whole.
//
// A download whose body stalls, breaks off, or ends before the length its
// answer announced goes on by itself, within the call's attempt budget
// ([RetryPolicy.MaxAttempts] requests in all): from the start when none of
// it was read yet, else with a Range request for the rest. It resumes only
// where no other version's bytes can be spliced in: the server said it
// takes ranges (Accept-Ranges: bytes), its first answer carried a strong
// validator (a strong ETag, or else a Last-Modified at least a second
// before the answer's Date, RFC 9110 §8.8.2.2), sent back as If-Range, and
// its 206 is exactly the rest asked for: from the first byte missing to
// the last, of the same total length, with the same validator, its body as
// long as its range. Otherwise the read fails with a [*RequestError] with Broken set
// saying how many bytes were delivered and why the rest could not be had;
// so does a body longer than announced, whose extra bytes are not handed
// out. A Read returns io.EOF only once every byte announced was delivered.
type Download struct {
	io.ReadCloser
	ContentType   string
	ContentLength int64  // -1 when unknown
	Filename      string // from Content-Disposition, "" when none

	limits Limits // MaxBodyBytes bounds ReadAll
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
// all), where [Download.Read] would fail with a [*RequestError] with Broken set.
//
// progress, when not nil, is called on the caller's goroutine as bytes
// arrive, with the bytes received so far and the download's length (-1
// when the server did not say); received is 0 again, and size that of the
// new answer, when the download is fetched again from the start.
//
// A download longer than [Limits].MaxBodyBytes fails with a [*limits.Error]
// once one byte more arrived, whatever length its answer announced.
func (d *Download) ReadAll(progress func(received, size int64)) ([]byte, error) {
	defer d.Close()
	capped := d.limits.capBody(d.operation(), d.ReadCloser)
	if progress == nil {
		progress = func(int64, int64) {}
	}
	var buf bytes.Buffer
	size := func() int64 { return d.ContentLength }
	if b, ok := d.ReadCloser.(*resumingBody); ok {
		b.whole = true
		b.restarted = func() { buf.Reset(); capped.left = capped.err.Max; progress(0, b.size) }
		size = func() int64 { return b.size }
	}
	progress(0, size())
	chunk := make([]byte, 32<<10)
	for {
		n, err := capped.Read(chunk)
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

// operation is the camelCase operationId of the download, "" when not known.
func (d *Download) operation() string {
	if b, ok := d.ReadCloser.(*resumingBody); ok {
		return b.cl.op.ID
	}
	return ""
}

func (c *Client) download(ctx context.Context, cl call) (*Download, error) {
	t := c.newTries()
	resp, err := c.send(ctx, cl, nil, t)
	if err != nil {
		return nil, err
	}
	d := &Download{ContentType: resp.Header.Get("Content-Type"), ContentLength: resp.ContentLength, limits: c.cfg.limits}
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		d.Filename = params["filename"]
	}
	b := &resumingBody{c: c, ctx: ctx, cl: cl, t: t}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, b.fail(notWhole(resp), "")
	}
	b.take(resp)
	d.ReadCloser = b
	return d, nil
}

// notWhole is the failure of an answer to a request for the whole download
// that is not 200 OK: a 206 to a request without Range, a 204.
func notWhole(resp *http.Response) error {
	return fmt.Errorf("asked for the whole download, the server answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
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
	size      int64          // of the whole download, -1 when unknown
	validator rangeValidator // the first answer's strong validator, sent as If-Range
	noResume  string         // why the rest cannot be asked for, "" when it can
	err       error          // the error every later Read returns

	// whole is set by ReadAll: no byte was handed out before the end, so
	// the download may start over from its first byte; restarted is then
	// called when it does, and restarts counts how often.
	whole     bool
	restarted func()
	restarts  int
}

// take makes resp, a 200 answer for the whole download, the current body.
func (b *resumingBody) take(resp *http.Response) {
	b.body, b.status, b.size = resp.Body, resp.StatusCode, resp.ContentLength
	v, weak := strongValidator(resp.Header)
	b.validator = v
	switch {
	case resp.Uncompressed:
		b.noResume = "the server compressed it in transit, so its bytes cannot be counted to resume"
	case !acceptsRanges(resp.Header):
		b.noResume = "the server does not support resuming (its answer had no Accept-Ranges: bytes)"
	case v.header == "":
		b.noResume = "the server gave no strong validator to resume on (" + weak + "), so the rest could be another version's"
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
		n, err := b.readBody(p)
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

// readBody reads the current body up to the download's length, when it is
// known: a body that ends before it fails with io.ErrUnexpectedEOF, as one
// cut off does, and one that goes on past it with errTooLong.
func (b *resumingBody) readBody(p []byte) (int, error) {
	if b.size < 0 {
		return b.body.Read(p)
	}
	left := b.size - b.delivered
	if left == 0 {
		var probe [1]byte
		if n, _ := b.body.Read(probe[:]); n > 0 {
			return 0, fmt.Errorf("%w: the server sent more than the %d bytes it announced", errTooLong, b.size)
		}
		return 0, io.EOF // a failure after the last byte loses nothing
	}
	n, err := b.body.Read(p[:min(int64(len(p)), left)])
	if errors.Is(err, io.EOF) && int64(n) < left {
		err = fmt.Errorf("the body ended after %d of the %d bytes announced: %w", b.delivered+int64(n), b.size, io.ErrUnexpectedEOF)
	}
	return n, err
}

// errTooLong is a body longer than its answer announced.
var errTooLong = errors.New("facade: a body longer than announced")

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
	build, from, validator := cl.build, b.delivered, b.validator.value
	cl.build = func(server string) (*http.Request, error) {
		req, err := build(server)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Range", "bytes="+strconv.FormatInt(from, 10)+"-")
		req.Header.Set("Accept-Encoding", "identity") // byte offsets count the bytes as sent
		req.Header.Set("If-Range", validator)
		return req, nil
	}
	return cl
}

// accept takes the answer to rest as the current body, or says why it is
// not the rest of the download.
func (b *resumingBody) accept(resp *http.Response, cause error) error {
	if b.delivered == 0 || (resp.StatusCode == http.StatusOK && b.mayRestart()) {
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return b.fail(notWhole(resp), "")
		}
		b.restart(resp)
		return nil
	}
	total, reason := b.checkRest(resp)
	if reason != "" {
		resp.Body.Close()
		return b.fail(cause, reason)
	}
	b.body, b.status, b.size = resp.Body, resp.StatusCode, total
	return nil
}

// checkRest checks that resp is the rest of the download asked for: a 206
// from the first byte missing to the last byte, of the download's total
// length, with the validator the download began with, its body as long as
// its range. It returns the total length, or the reason resp is not the
// rest.
func (b *resumingBody) checkRest(resp *http.Response) (int64, string) {
	if resp.StatusCode == http.StatusOK {
		return 0, "asked for the rest, the server sent the whole workbook again (it changed since, or it does not take ranges)"
	}
	cr := resp.Header.Get("Content-Range")
	first, last, total, ok := contentRange(cr)
	switch {
	case resp.StatusCode != http.StatusPartialContent || !ok:
		return 0, fmt.Sprintf("asked for the rest, the server answered %d with Content-Range %q", resp.StatusCode, cut(cr))
	case first != b.delivered:
		return 0, fmt.Sprintf("asked for the rest from byte %d, the server sent it from byte %d", b.delivered, first)
	case b.size >= 0 && total != b.size:
		return 0, fmt.Sprintf("asked for the rest of a download of %d bytes, the server sent a range of one of %d bytes", b.size, total)
	case last != total-1:
		return 0, fmt.Sprintf("asked for bytes %d to the last (%d), the server sent bytes %d to %d", b.delivered, total-1, first, last)
	case resp.ContentLength >= 0 && resp.ContentLength != last-first+1:
		return 0, fmt.Sprintf("the server's 206 says bytes %d to %d (%d bytes) in a body of %d bytes", first, last, last-first+1, resp.ContentLength)
	case resp.Uncompressed:
		return 0, "the server compressed the rest in transit, so its bytes cannot be counted"
	}
	return total, b.validator.mismatch(resp.Header)
}

// contentRange reads "bytes FIRST-LAST/TOTAL" of a download of a known
// length: 0 <= first <= last < total.
func contentRange(v string) (first, last, total int64, ok bool) {
	spec, found := strings.CutPrefix(v, "bytes ")
	span, size, found2 := strings.Cut(spec, "/")
	from, to, found3 := strings.Cut(span, "-")
	if !found || !found2 || !found3 {
		return 0, 0, 0, false
	}
	var errs [3]error
	first, errs[0] = strconv.ParseInt(from, 10, 64)
	last, errs[1] = strconv.ParseInt(to, 10, 64)
	total, errs[2] = strconv.ParseInt(size, 10, 64)
	ok = errors.Join(errs[:]...) == nil && first >= 0 && first <= last && last < total
	return first, last, total, ok
}

// fail is the *RequestError of a download that broke off with err; reason
// may quote the server's headers (a validator, a Content-Range), scrubbed
// of the key.
func (b *resumingBody) fail(err error, reason string) error {
	return &RequestError{Operation: b.cl.op.ID, Attempts: b.t.attempts, Err: err,
		Broken: &BrokenDownload{Delivered: b.delivered, Size: b.size, Reason: b.c.secretsOf(b.cl, nil).scrub(reason)}}
}

// rangeValidator is what tells one version of a download from another, sent as
// If-Range to resume it: a strong ETag, or a Last-Modified date that is a
// strong validator.
type rangeValidator struct {
	header string // "ETag" or "Last-Modified"; "" when the answer had none
	value  string
}

// strongValidator finds the strong validator of an answer, by RFC 9110's
// rules for If-Range (§13.1.5): a strong ETag; else, only when the answer
// has no ETag at all, a Last-Modified that is strong (§8.8.2.2: the
// answer's Date at least a second later). When there is none, why says so.
func strongValidator(h http.Header) (v rangeValidator, why string) {
	etag := h.Get("ETag")
	switch {
	case etag != "" && !strings.HasPrefix(etag, "W/"):
		return rangeValidator{"ETag", etag}, ""
	case etag != "":
		return rangeValidator{}, "its ETag is weak, and a date must not stand in for an entity tag"
	}
	lm := h.Get("Last-Modified")
	if lm == "" {
		return rangeValidator{}, "no ETag, no Last-Modified"
	}
	modified, err1 := http.ParseTime(lm)
	date, err2 := http.ParseTime(h.Get("Date"))
	if err1 != nil || err2 != nil || date.Sub(modified) < time.Second {
		return rangeValidator{}, "its Last-Modified is not a second before its Date, so it is weak"
	}
	return rangeValidator{"Last-Modified", lm}, ""
}

// mismatch says how the answer h to a request with If-Range differs from
// the version the download began as, "" when it is the same: it must carry
// the same validator.
func (v rangeValidator) mismatch(h http.Header) string {
	got := h.Get(v.header)
	if got == v.value {
		return ""
	}
	if got == "" {
		return fmt.Sprintf("the download began as %s %s; the server's 206 has no %s, so it may be another version", v.header, cut(v.value), v.header)
	}
	return fmt.Sprintf("the download began as %s %s; the server's 206 is %s %s, another version", v.header, cut(v.value), v.header, cut(got))
}
