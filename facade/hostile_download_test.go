package facade

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
)

// A server that lies when a download is resumed. Its first answer is the
// workbook v1, 256 KiB, with a strong ETag and Accept-Ranges: bytes, cut
// off after about half of it (at a byte that is no multiple of a reader's
// buffer); what it answers to the request for the rest is the
// case. Each case is read through WriteTo and ReadAll, and asserts the
// named error, bounded memory and time, and that nothing silently wrong
// reaches the caller: only bytes of v1, in order, and never a whole-length
// result that is not v1.

const liarSize = 256 << 10

// versions are two versions of the workbook, which differ in every part.
var versions = func() [2][]byte {
	var v [2][]byte
	for i := range v {
		v[i] = make([]byte, liarSize)
		r := rand.New(rand.NewPCG(uint64(i), 7))
		for j := range v[i] {
			v[i][j] = byte(r.Uint32())
		}
	}
	return v
}()

// liar is a server whose first answer is set by first (v1, cut off after
// half, by default) and whose later answers are given by rest.
type liar struct {
	first func(w http.ResponseWriter)
	rest  func(w http.ResponseWriter, r *http.Request)

	mu   sync.Mutex
	seen []http.Header
}

func (l *liar) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.seen = append(l.seen, r.Header.Clone())
	n := len(l.seen)
	l.mu.Unlock()
	if n > 1 {
		l.rest(w, r)
		return
	}
	if l.first != nil {
		l.first(w)
	} else {
		w.Header().Set("ETag", `"v1"`)
	}
	w.Header().Set("Accept-Ranges", "bytes")
	w.Header().Set("Content-Length", strconv.Itoa(liarSize))
	_, _ = w.Write(versions[0][:half])
	_ = http.NewResponseController(w).Flush()
	panic(http.ErrAbortHandler)
}

func (l *liar) requests() []http.Header {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]http.Header(nil), l.seen...)
}

// partial answers 206 with the headers given, Content-Range cr, and body.
// A body of another length than its range is sent chunked (no
// Content-Length), as a server that does not count may.
func partial(etag, cr string, body []byte, chunked bool) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		if etag != "" {
			w.Header().Set("ETag", etag)
		}
		w.Header().Set("Content-Range", cr)
		if !chunked {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		w.WriteHeader(http.StatusPartialContent)
		if chunked {
			_ = http.NewResponseController(w).Flush() // before the body: no length is counted
		}
		_, _ = w.Write(body)
	}
}

// rangeOf is the Content-Range of bytes first to last of the workbook.
func rangeOf(first, last int) string { return fmt.Sprintf("bytes %d-%d/%d", first, last, liarSize) }

// half is where the liar's first answer is cut off.
const half = liarSize/2 + 1000

// hostileDownloadTime bounds a hostile download's read: it takes well under
// a second under the race detector, so a machine ten times slower meets it;
// the bytes allocated are what tell a bounded read from an unbounded one.
const hostileDownloadTime = 15 * time.Second

// read reads the download of l through way ("WriteTo" or "ReadAll"), and
// returns what reached the caller, the bounds of the read (its time and the
// bytes it allocated) and the error.
func (l *liar) read(t *testing.T, way string) ([]byte, time.Duration, uint64, error) {
	t.Helper()
	_, c := newStub(t, l.ServeHTTP, WithClock(faketest.NewInstantClock()))
	d, err := c.Dashboards.ExportPage(testCtx(t), 7, 1)
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	var got []byte
	if way == "WriteTo" {
		var buf bytes.Buffer
		_, err = d.WriteTo(&buf)
		got = buf.Bytes()
	} else {
		got, err = d.ReadAll(nil)
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	return got, elapsed, after.TotalAlloc - before.TotalAlloc, err
}

// Finding 2: each lying answer to a resumed download fails naming what is
// wrong, through WriteTo and through ReadAll; the caller gets a prefix of
// v1 at most.
func TestHostileResumedDownload(t *testing.T) {
	v1, v2 := versions[0], versions[1]
	for name, tc := range map[string]struct {
		first  func(w http.ResponseWriter)
		rest   func(w http.ResponseWriter, r *http.Request)
		reason string
		ranges int // Range requests sent; -1: not checked
	}{
		"another version spliced in (the ETag changed)": {
			rest:   partial(`"v2"`, rangeOf(half, liarSize-1), v2[half:], false),
			reason: `the download began as ETag "v1"; the server's 206 is ETag "v2", another version`, ranges: 1,
		},
		"a 206 without the validator": {
			rest:   partial("", rangeOf(half, liarSize-1), v2[half:], false),
			reason: `the download began as ETag "v1"; the server's 206 has no ETag, so it may be another version`, ranges: 1,
		},
		"a range shorter than asked": {
			rest:   partial(`"v1"`, rangeOf(half, half+999), v1[half:half+1000], false),
			reason: fmt.Sprintf("asked for bytes %d to the last (%d), the server sent bytes %d to %d", half, liarSize-1, half, half+999), ranges: 1,
		},
		"a range of a longer download": {
			rest:   partial(`"v1"`, fmt.Sprintf("bytes %d-%d/%d", half, 2*liarSize-1, 2*liarSize), append(v1[half:], v2...), false),
			reason: fmt.Sprintf("asked for the rest of a download of %d bytes, the server sent a range of one of %d bytes", liarSize, 2*liarSize), ranges: 1,
		},
		"a body longer than its range": {
			rest:   partial(`"v1"`, rangeOf(half, liarSize-1), append(bytes.Clone(v1[half:]), v2[:4096]...), true),
			reason: fmt.Sprintf("the server sent more than the %d bytes it announced", liarSize), ranges: 1,
		},
		"a 206 whose Content-Length is not its range's": {
			rest:   partial(`"v1"`, rangeOf(half, liarSize-1), v1[half:liarSize-10], false),
			reason: fmt.Sprintf("the server's 206 says bytes %d to %d (%d bytes) in a body of %d bytes", half, liarSize-1, liarSize-half, liarSize-half-10), ranges: 1,
		},
		"a body that ends before its range, every time": {
			rest: func(w http.ResponseWriter, r *http.Request) {
				var from int
				_, _ = fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-", &from)
				partial(`"v1"`, rangeOf(from, liarSize-1), v1[from:from+1000], true)(w, r)
			},
			reason: "the 4 attempts the retry policy allows are spent", ranges: 3,
		},
		"no validator, so no Range request": {
			first:  func(http.ResponseWriter) {},
			rest:   partial("", rangeOf(half, liarSize-1), v2[half:], false),
			reason: "the server gave no strong validator to resume on (no ETag, no Last-Modified), so the rest could be another version's", ranges: 0,
		},
		"a weak ETag, so no Range request": {
			first:  func(w http.ResponseWriter) { w.Header().Set("ETag", `W/"v1"`) },
			rest:   partial(`W/"v1"`, rangeOf(half, liarSize-1), v2[half:], false),
			reason: "its ETag is weak", ranges: 0,
		},
		"a Last-Modified as late as its Date, so no Range request": {
			first: func(w http.ResponseWriter) {
				now := time.Now().UTC().Format(http.TimeFormat)
				w.Header().Set("Last-Modified", now)
				w.Header().Set("Date", now)
			},
			rest:   partial("", rangeOf(half, liarSize-1), v2[half:], false),
			reason: "its Last-Modified is not a second before its Date", ranges: 0,
		},
	} {
		for _, way := range []string{"WriteTo", "ReadAll"} {
			t.Run(name+"/"+way, func(t *testing.T) {
				l := &liar{first: tc.first, rest: tc.rest}
				got, elapsed, allocated, err := l.read(t, way)
				var dlErr *RequestError
				require.ErrorAs(t, err, &dlErr)
				noResume := tc.ranges == 0
				if noResume && way == "ReadAll" {
					// ReadAll starts over from the first byte instead, which
					// the liar answers with its 206: not the whole download.
					assert.Contains(t, err.Error(), "asked for the whole download, the server answered 206")
				} else {
					assert.Contains(t, err.Error(), tc.reason)
				}
				assert.True(t, bytes.HasPrefix(v1, got), "only v1's bytes, in order: %d bytes", len(got))
				if way == "ReadAll" {
					assert.Nil(t, got, "ReadAll hands out nothing of a download that failed")
				}
				ranges := 0
				for _, h := range l.requests() {
					if h.Get("Range") != "" {
						ranges++
						assert.Equal(t, `"v1"`, h.Get("If-Range"), "every Range request is conditional on the version begun")
					}
				}
				if tc.ranges >= 0 && !(noResume && way == "ReadAll") {
					assert.Equal(t, tc.ranges, ranges, "Range requests")
				}
				assert.Less(t, allocated, uint64(16<<20), "bytes allocated")
				assert.Less(t, elapsed, hostileDownloadTime)
			})
		}
	}
}

// Finding 6 of the house review: a 206 that starts at another byte than
// the first missing one, and is right in every other way (the same ETag,
// the same total, up to the last byte, its body as long as its range), is
// refused, and none of its bytes reaches the caller.
func TestResumeRefusesAWrongFirstByte(t *testing.T) {
	v1 := versions[0]
	for name, from := range map[string]int{"earlier": half - 100, "later": half + 100} {
		t.Run(name, func(t *testing.T) {
			l := &liar{rest: partial(`"v1"`, rangeOf(from, liarSize-1), v1[from:], false)}
			got, _, _, err := l.read(t, "WriteTo")
			var dlErr *RequestError
			require.ErrorAs(t, err, &dlErr)
			assert.Equal(t, fmt.Sprintf("asked for the rest from byte %d, the server sent it from byte %d", half, from), dlErr.Broken.Reason)
			assert.Equal(t, v1[:half], got, "the first half only")
			assert.EqualValues(t, half, dlErr.Broken.Delivered)
			assert.Len(t, l.requests(), 2, "the 206 is not taken, and not asked again")
		})
	}
}

// A download without a strong validator is read whole by ReadAll, which
// starts over from the first byte instead of asking for the rest; and a
// strong Last-Modified (a second before its Date) resumes as an ETag does.
func TestDownloadValidators(t *testing.T) {
	v1 := versions[0]
	modified := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for name, tc := range map[string]struct {
		first   func(w http.ResponseWriter)
		ifRange string // "" when the second request is not a Range request
	}{
		"none":          {func(http.ResponseWriter) {}, ""},
		"a strong ETag": {func(w http.ResponseWriter) { w.Header().Set("ETag", `"v1"`) }, `"v1"`},
		"a strong Last-Modified": {func(w http.ResponseWriter) {
			w.Header().Set("Last-Modified", modified.Format(http.TimeFormat))
			w.Header().Set("Date", modified.Add(time.Hour).Format(http.TimeFormat))
		}, modified.Format(http.TimeFormat)},
	} {
		t.Run(name, func(t *testing.T) {
			l := &liar{first: tc.first, rest: func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("Range") == "" {
					w.Header().Set("Content-Length", strconv.Itoa(liarSize))
					_, _ = w.Write(v1)
					return
				}
				tc.first(w)
				partial("", rangeOf(half, liarSize-1), v1[half:], false)(w, r)
			}}
			got, _, _, err := l.read(t, "ReadAll")
			require.NoError(t, err)
			assert.True(t, bytes.Equal(v1, got), "the whole of v1")
			reqs := l.requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, tc.ifRange, reqs[1].Get("If-Range"))
			assert.Equal(t, tc.ifRange != "", reqs[1].Get("Range") != "")
		})
	}
}

// A first answer that is not 200 to a request for the whole download (a
// 206 that was not asked for, a 204) is a *RequestError with Broken set at once.
func TestDownloadRefusesAPartialFirstAnswer(t *testing.T) {
	for name, status := range map[string]int{"206": http.StatusPartialContent, "204": http.StatusNoContent} {
		t.Run(name, func(t *testing.T) {
			_, c := newStub(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Range", rangeOf(0, 99))
				w.WriteHeader(status)
				if status != http.StatusNoContent {
					_, _ = w.Write(versions[0][:100])
				}
			}, WithClock(faketest.NewInstantClock()))
			_, err := c.Dashboards.ExportPage(testCtx(t), 7, 1)
			var dlErr *RequestError
			require.ErrorAs(t, err, &dlErr)
			assert.Contains(t, err.Error(), fmt.Sprintf("asked for the whole download, the server answered %d", status))
		})
	}
}

// A body longer than its answer announced is cut at the length announced,
// and the read fails: the extra bytes never reach the caller, however many
// the server sends.
func TestDownloadBodyLongerThanAnnounced(t *testing.T) {
	v1 := versions[0]
	endless := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Range", rangeOf(half, liarSize-1))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = w.Write(v1[half:])
		for r.Context().Err() == nil { // without end
			if _, err := w.Write(versions[1][:4096]); err != nil {
				return
			}
		}
	}
	for _, way := range []string{"WriteTo", "ReadAll"} {
		t.Run(way, func(t *testing.T) {
			l := &liar{rest: endless}
			got, elapsed, allocated, err := l.read(t, way)
			var dlErr *RequestError
			require.ErrorAs(t, err, &dlErr)
			assert.ErrorIs(t, err, errTooLong)
			assert.Contains(t, err.Error(), fmt.Sprintf("the server sent more than the %d bytes it announced", liarSize))
			if way == "WriteTo" {
				assert.Equal(t, v1, got, "the bytes announced, and not one more")
			} else {
				assert.Nil(t, got)
			}
			assert.Less(t, allocated, uint64(16<<20))
			assert.Less(t, elapsed, hostileDownloadTime)
		})
	}
}
