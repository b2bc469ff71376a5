package facade

import (
	"bytes"
	"context"
	"iter"
	"math"
	"net/http"
	"sync"

	"github.com/scmodel/scmgo/gen"
)

// DefaultPageSize is the page size the reference gives as take's default.
const DefaultPageSize = 1000

// MaxPrefetch bounds PageOptions.Prefetch.
const MaxPrefetch = 16

// PageOptions controls a paged operation. A nil *PageOptions means the
// defaults. The options are copied when the iterator is created.
type PageOptions struct {
	// PageSize is the take of each request. Zero means DefaultPageSize.
	PageSize int
	// MaxItems stops after this many items. Zero means no limit. Page
	// iterators deliver whole pages: a server that answers more items than
	// asked for can put more than MaxItems in them; item iterators never
	// yield more.
	MaxItems int
	// StartAt is the skip of the first request: the number of items to
	// skip. It is a plain resume token: the count of items already seen.
	StartAt int
	// Prefetch is the number of pages requested concurrently ahead of the
	// consumer and delivered in order. 0 or 1 fetches one page at a time.
	// Memory holds at most Prefetch pages; at most Prefetch-1 requests are
	// wasted past the end.
	Prefetch int
}

func (o *PageOptions) normalized(op gen.OperationID) (PageOptions, error) {
	var p PageOptions
	if o != nil {
		p = *o
	}
	if p.PageSize == 0 {
		p.PageSize = DefaultPageSize
	}
	err := check(op).
		ok("PageSize", p.PageSize > 0 && p.PageSize <= math.MaxInt32, "must be between 1 and %d, got %d", math.MaxInt32, p.PageSize).
		ok("MaxItems", p.MaxItems >= 0, "must not be negative, got %d", p.MaxItems).
		ok("StartAt", p.StartAt >= 0 && p.StartAt <= math.MaxInt32, "must be between 0 and %d, got %d", math.MaxInt32, p.StartAt).
		ok("Prefetch", p.Prefetch >= 0 && p.Prefetch <= MaxPrefetch, "must be between 0 and %d, got %d", MaxPrefetch, p.Prefetch).
		done()
	return p, err
}

// pageSource fetches one page of an operation and finds its items.
type pageSource[T, P any] struct {
	op    gen.OperationID
	fetch func(ctx context.Context, skip, take int32) (P, uint64, error)
	items func(P) []T
}

// pagePlan hands out the skip and take of successive requests.
type pagePlan struct {
	next, end int64 // end < 0: unbounded
	size      int64
}

func newPagePlan(o PageOptions) pagePlan {
	p := pagePlan{next: int64(o.StartAt), end: -1, size: int64(o.PageSize)}
	if o.MaxItems > 0 {
		p.end = p.next + int64(o.MaxItems)
	}
	return p
}

func (p *pagePlan) take() (skip, take int32, ok bool) {
	n := p.size
	if p.end >= 0 {
		n = min(n, p.end-p.next)
	}
	if n <= 0 || p.next > math.MaxInt32 {
		return 0, 0, false
	}
	skip = int32(p.next)
	p.next += n
	return skip, int32(n), true
}

type fetched[P any] struct {
	page P
	hash uint64
	err  error
	take int32
}

// pagesSeq yields whole pages in order, stopping after a short page, at an
// empty page, or at a page identical to the previous one (a server that
// clamps skip past the end).
func pagesSeq[T, P any](ctx context.Context, src pageSource[T, P], opts *PageOptions) iter.Seq2[P, error] {
	o, err := opts.normalized(src.op)
	return func(yield func(P, error) bool) {
		if err != nil {
			var zero P
			yield(zero, err)
			return
		}
		if o.Prefetch <= 1 {
			sequentialPages(ctx, src, o, yield)
			return
		}
		windowedPages(ctx, src, o, yield)
	}
}

// pageStep applies the stop rules to one fetched page and yields it. It
// reports whether to continue.
type pageStep[T, P any] struct {
	src      pageSource[T, P]
	prevHash uint64
	seen     bool
}

func (s *pageStep[T, P]) deliver(f fetched[P], yield func(P, error) bool) bool {
	if f.err != nil {
		yield(f.page, f.err)
		return false
	}
	n := len(s.src.items(f.page))
	if n == 0 || s.seen && f.hash == s.prevHash {
		return false
	}
	s.prevHash, s.seen = f.hash, true
	return yield(f.page, nil) && n >= int(f.take)
}

func sequentialPages[T, P any](ctx context.Context, src pageSource[T, P], o PageOptions, yield func(P, error) bool) {
	plan := newPagePlan(o)
	step := pageStep[T, P]{src: src}
	for {
		skip, take, ok := plan.take()
		if !ok {
			return
		}
		page, hash, err := src.fetch(ctx, skip, take)
		if !step.deliver(fetched[P]{page, hash, err, take}, yield) {
			return
		}
	}
}

// windowedPages keeps up to o.Prefetch requests in flight and delivers
// their pages in order. Returning (end of data, error, or the consumer
// breaking) cancels the outstanding requests and waits for them, so no
// goroutine outlives the loop.
func windowedPages[T, P any](ctx context.Context, src pageSource[T, P], o PageOptions, yield func(P, error) bool) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	plan := newPagePlan(o)
	var queue []chan fetched[P]
	launch := func() {
		skip, take, ok := plan.take()
		if !ok {
			return
		}
		ch := make(chan fetched[P], 1)
		queue = append(queue, ch)
		wg.Add(1)
		go func() {
			defer wg.Done()
			page, hash, err := src.fetch(ctx, skip, take)
			ch <- fetched[P]{page, hash, err, take}
		}()
	}
	for range o.Prefetch {
		launch()
	}
	step := pageStep[T, P]{src: src}
	for len(queue) > 0 {
		f := <-queue[0]
		queue = queue[1:]
		if err := ctx.Err(); err != nil {
			f = fetched[P]{err: err} // the caller's context ended: no page after it
		}
		if !step.deliver(f, yield) {
			return
		}
		launch()
	}
}

// itemsSeq yields the items of every page.
// A server that answers more items than asked for does not make it yield
// more than MaxItems.
func itemsSeq[T, P any](ctx context.Context, src pageSource[T, P], opts *PageOptions) iter.Seq2[T, error] {
	limit := -1
	if opts != nil && opts.MaxItems > 0 {
		limit = opts.MaxItems
	}
	return func(yield func(T, error) bool) {
		n := 0
		for page, err := range pagesSeq(ctx, src, opts) {
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range src.items(page) {
				if n == limit || !yield(item, nil) {
					return
				}
				n++
			}
		}
	}
}

// fetchPage sends one page request and decodes it, fingerprinting the
// page's items so that a repeated page can be recognised even when the
// server changes other fields (an echoed skip, a timestamp) between answers.
func fetchPage[P any](ctx context.Context, c *Client, cl call) (P, uint64, error) {
	var page P
	var sum uint64
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer recycle(buf)
	_, err := c.do(ctx, cl, func(resp *http.Response) error {
		buf.Reset()
		if _, err := buf.ReadFrom(resp.Body); err != nil {
			return err
		}
		var zero P
		page = zero
		sum = itemsFingerprint(buf.Bytes(), cl.op.PagedItems)
		return decodePage(buf.Bytes(), &page)
	})
	return page, sum, err
}

// pageBuffers recycles the buffers page bodies are read into.
var pageBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// recycle returns a page buffer to the pool unless an unusually large page
// grew it: the pool should not pin megabytes.
func recycle(buf *bytes.Buffer) {
	if buf.Cap() <= 4<<20 {
		pageBuffers.Put(buf)
	}
}

// pager builds the source of a paged operation from a request builder.
func pager[T, P any](c *Client, op gen.OperationID, build func(skip, take int32) call, items func(P) []T) pageSource[T, P] {
	return pageSource[T, P]{
		op: op,
		fetch: func(ctx context.Context, skip, take int32) (P, uint64, error) {
			return fetchPage[P](ctx, c, build(skip, take))
		},
		items: items,
	}
}

// failedSeq yields err once.
func failedSeq[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}
