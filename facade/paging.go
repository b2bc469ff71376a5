package facade

import (
	"bytes"
	"context"
	"fmt"
	"iter"
	"math"
	"net/http"
	"reflect"
	"sync"

	"github.com/scmodel/scmgo/gen"
)

// DefaultPageSize is the page size the reference gives as take's default.
const DefaultPageSize = 1000

// MaxPrefetch bounds PageOptions.Prefetch.
const MaxPrefetch = 16

// DefaultMaxRequests is the request budget of one paging when
// PageOptions.MaxRequests is zero: 10,000 pages, ten million items at the
// default page size.
const DefaultMaxRequests = 10_000

// PageOptions controls a paged operation. A nil *PageOptions means the
// defaults. The options are copied when the iterator is created: changing
// them afterwards, even before ranging, changes nothing.
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
	// MaxRequests is the budget of page requests (retries of one page
	// count once). A paging that needs more ends with a [*limits.Error]
	// naming the skip it stopped before, after every page fetched within
	// the budget. Zero means DefaultMaxRequests. It bounds a server that
	// never answers a short or empty page; a server that answers pages it
	// answered before is stopped sooner, by a [*MalformedError] (its Cycle).
	MaxRequests int
	// KeepRepeatedEdges turns the cycle check off: a page that starts or
	// ends with the item an earlier page started or ended with is read as
	// any other, for a table whose edge rows are legitimately equal. The
	// cost: a server that ignores skip, or cycles through a few pages, is
	// then stopped only by MaxRequests, after that many requests and their
	// items (a page equal to the one before still ends the paging).
	KeepRepeatedEdges bool
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
		ok("MaxRequests", p.MaxRequests >= 0, "must not be negative, got %d", p.MaxRequests).
		done()
	if p.MaxRequests == 0 {
		p.MaxRequests = DefaultMaxRequests
	}
	return p, err
}

// pageSource fetches one page of an operation and finds its items.
type pageSource[T, P any] struct {
	op    gen.OperationID
	fetch func(ctx context.Context, skip, take int32) (P, error)
	items func(P) []T
}

// itemsOf returns the items of a page; an answer of null has none.
func (s pageSource[T, P]) itemsOf(page P) []T { return itemsOf(page, s.items) }

func itemsOf[T, P any](page P, items func(P) []T) []T {
	if v := reflect.ValueOf(page); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return items(page)
}

// pager builds the source of a paged operation from a request builder.
func pager[T, P any](c *Client, op gen.OperationID, build func(skip, take int32) call, items func(P) []T) pageSource[T, P] {
	return pageSource[T, P]{op: op, items: items, fetch: func(ctx context.Context, skip, take int32) (P, error) {
		return fetchPage(ctx, c, build(skip, take), items)
	}}
}

// fetchPage sends one page request and decodes the answer in one pass with
// the generated decoders, as every answer is (Client.decodeInto). An answer
// that lacks the property holding the page's items (x-paged-items), or has
// it as another type than an array, is a [*MalformedError], never an
// empty page: a server whose page puts its items elsewhere would otherwise
// look empty.
func fetchPage[T, P any](ctx context.Context, c *Client, cl call, items func(P) []T) (P, error) {
	var page P
	var missing error
	_, err := c.do(ctx, cl, func(resp *http.Response) error {
		return readBody(resp, func(body []byte) error {
			if err := c.decodeAnswer(requestContext(resp), cl.op, body, &page); err != nil {
				return err
			}
			if cl.op.PagedItems != "[]" && itemsOf(page, items) == nil {
				missing = c.listed(missingItems(cl.op, body))
			}
			return nil
		})
	})
	if err == nil {
		err = missing
	}
	return page, err
}

// bodyBuffers recycles the buffers page bodies are read into: the decoders
// copy what they keep.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// recycle returns a buffer to the pool unless an unusually large page grew
// it: the pool should not pin megabytes.
func recycle(buf *bytes.Buffer) {
	if buf.Cap() <= 4<<20 {
		bodyBuffers.Put(buf)
	}
}

// pagePlan hands out the skip and take of successive requests, within the
// request budget.
type pagePlan struct {
	op        gen.OperationID
	next, end int64 // end < 0: unbounded
	size      int64
	requests  int // handed out so far
	budget    int
}

func newPagePlan(op gen.OperationID, o PageOptions) pagePlan {
	p := pagePlan{op: op, next: int64(o.StartAt), end: -1, size: int64(o.PageSize), budget: o.MaxRequests}
	if o.MaxItems > 0 {
		p.end = p.next + int64(o.MaxItems)
	}
	return p
}

// take returns the next request; ok is false when the plan is done, and
// err is set when it is not but the budget is spent.
func (p *pagePlan) take() (skip, take int32, ok bool, err error) {
	n := p.size
	if p.end >= 0 {
		n = min(n, p.end-p.next)
	}
	if n <= 0 || p.next > math.MaxInt32 {
		return 0, 0, false, nil
	}
	if p.requests >= p.budget {
		return 0, 0, false, limitError(string(p.op), "PageOptions.MaxRequests", int64(p.budget), "requests",
			fmt.Sprintf("paging (stopped before the request at skip %d)", p.next))
	}
	p.requests++
	skip = int32(p.next)
	p.next += n
	return skip, int32(n), true, nil
}

// pagesSeq yields whole pages in order. It stops after a short page, at an
// empty page, or at a page whose items repeat the previous page's (a server
// that clamps skip past the end answers its last page again). A page that
// starts or ends with the item a recent page started or ended with is a
// cycle, and ends the paging with a [*MalformedError] (its Cycle).
func pagesSeq[T, P any](ctx context.Context, src pageSource[T, P], opts *PageOptions) iter.Seq2[P, error] {
	o, err := opts.normalized(src.op)
	return func(yield func(P, error) bool) {
		if err != nil {
			var zero P
			yield(zero, err)
			return
		}
		w := newWindow(ctx, src.fetch, newPagePlan(src.op, o), max(o.Prefetch, 1))
		defer w.close()
		var prev []T
		seen := newPageDigests(src.op)
		for {
			f, ok := w.next()
			if !ok {
				return
			}
			items := src.itemsOf(f.page)
			if f.err == nil && !o.KeepRepeatedEdges && len(items) > 0 && !repeats(prev, items) {
				f.err = seen.add(f.skip, items[0], items[len(items)-1])
			}
			if f.err != nil {
				var zero P
				yield(zero, f.err)
				return
			}
			if len(items) == 0 || repeats(prev, items) || !yield(f.page, nil) || len(items) < int(f.take) {
				return
			}
			prev = items
		}
	}
}

// repeats reports whether items are the same as the previous page's.
func repeats[T any](prev, items []T) bool {
	return len(prev) == len(items) && reflect.DeepEqual(prev[0], items[0]) && reflect.DeepEqual(prev, items)
}

type fetched[P any] struct {
	page P
	err  error
	skip int32
	take int32
}

// window keeps up to size page requests in flight ahead of the consumer and
// hands their pages out in order; size 1 fetches one page at a time.
type window[P any] struct {
	ctx    context.Context
	cancel context.CancelFunc
	fetch  func(ctx context.Context, skip, take int32) (P, error)
	plan   pagePlan
	size   int
	queue  []chan fetched[P]
	spent  bool // the plan's budget ran out: its error is queued

	wg sync.WaitGroup
}

func newWindow[P any](ctx context.Context, fetch func(context.Context, int32, int32) (P, error), plan pagePlan, size int) *window[P] {
	ctx, cancel := context.WithCancel(ctx)
	return &window[P]{ctx: ctx, cancel: cancel, fetch: fetch, plan: plan, size: size}
}

// next tops the window up and waits for its oldest page; false when the
// plan has no more pages.
func (w *window[P]) next() (fetched[P], bool) {
	for len(w.queue) < w.size && w.launch() {
	}
	if len(w.queue) == 0 {
		return fetched[P]{}, false
	}
	f := <-w.queue[0]
	w.queue = w.queue[1:]
	if err := w.ctx.Err(); err != nil {
		f = fetched[P]{err: err} // the caller's context ended: no page after it
	}
	return f, true
}

func (w *window[P]) launch() bool {
	if w.spent {
		return false
	}
	skip, take, ok, err := w.plan.take()
	ch := make(chan fetched[P], 1)
	if err != nil {
		w.spent = true
		ch <- fetched[P]{err: err}
		w.queue = append(w.queue, ch)
		return true
	}
	if !ok {
		return false
	}
	w.queue = append(w.queue, ch)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		page, err := w.fetch(w.ctx, skip, take)
		ch <- fetched[P]{page, err, skip, take}
	}()
	return true
}

// close cancels the requests still in flight and waits for them, so that no
// goroutine outlives the loop.
func (w *window[P]) close() {
	w.cancel()
	w.wg.Wait()
}

// itemsSeq yields the items of every page.
// A server that answers more items than asked for does not make it yield
// more than MaxItems. The options are copied now, not when ranged.
func itemsSeq[T, P any](ctx context.Context, src pageSource[T, P], opts *PageOptions) iter.Seq2[T, error] {
	var o PageOptions
	if opts != nil {
		o = *opts
	}
	limit := -1
	if o.MaxItems > 0 {
		limit = o.MaxItems
	}
	return func(yield func(T, error) bool) {
		n := 0
		for page, err := range pagesSeq(ctx, src, &o) {
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

// failedSeq yields err once.
func failedSeq[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}
