package jsondec

import (
	"encoding/json"
	"sync/atomic"
	"unsafe"

	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/internal/properties"
)

// slabs hand out the pointers of optional fields (a cell's *string and
// *json.RawMessage) from arrays allocated slabSize at a time, instead of
// one allocation each; props does the same for a model's first unknown
// field. A pointer kept from a decoded document keeps its slab alive: at
// most slabSize values.
type slabs struct {
	strs   []string
	raws   []json.RawMessage
	ints   []int64
	bools  []bool
	floats []float64
	props  properties.Slab // the unknown fields of models
}

// setProp sets the property name of a model's *more to value, taking its
// first property from the reader's slab.
func (r *Reader) setProp(more *extra.Properties, name string, value json.RawMessage) {
	r.slabs.props.Set((*properties.Properties)(more), name, value)
}

const slabSize = 64

func take[T any](slab *[]T) *T {
	if len(*slab) == 0 {
		*slab = make([]T, slabSize)
	}
	p := &(*slab)[0]
	*slab = (*slab)[1:]
	return p
}

// NewStr returns a pointer to a new empty string of type S.
func NewStr[S ~string](r *Reader) *S { return (*S)(unsafe.Pointer(take(&r.slabs.strs))) }

// NewRaw returns a pointer to a new empty raw value.
func NewRaw(r *Reader) *json.RawMessage { return take(&r.slabs.raws) }

// NewInt64 returns a pointer to a new zero int64 of type I.
func NewInt64[I ~int64](r *Reader) *I { return (*I)(unsafe.Pointer(take(&r.slabs.ints))) }

// NewBool returns a pointer to a new false of type B.
func NewBool[B ~bool](r *Reader) *B { return (*B)(unsafe.Pointer(take(&r.slabs.bools))) }

// NewFloat64 returns a pointer to a new zero float64 of type F.
func NewFloat64[F ~float64](r *Reader) *F { return (*F)(unsafe.Pointer(take(&r.slabs.floats))) }

// Scratch sizes the slices that arrays of T are read into: an array longer
// than the few elements a decoder holds on its stack starts with room for
// as many elements as the last one had, so that the pages of rows of a
// paged operation are read straight into slices of their final length,
// without growing and copying.
type Scratch[T any] struct{ last atomic.Int64 }

// maxHint bounds the room a slice starts with.
const maxHint = 1 << 16

// Start returns a slice holding small, with room for more.
func (s *Scratch[T]) Start(small []T) []T {
	n := min(max(int(s.last.Load()), 2*len(small)), maxHint)
	return append(make([]T, 0, n), small...)
}

// Done records the length of v and returns it, copied when it has much
// more room than it needs.
func (s *Scratch[T]) Done(v []T) []T {
	s.last.Store(int64(len(v)))
	if cap(v) > 2*len(v) {
		return append(make([]T, 0, len(v)), v...)
	}
	return v
}

// A SlabOf names the reader's slab of the short arrays of elements of type
// T (a row's cells): [Small] hands them out from blocks of a few
// kilobytes, instead of one allocation each. Generated decoders declare
// one per element type, with [NewSlabOf].
type SlabOf[T any] struct{ id int }

var slabKinds atomic.Int64

// NewSlabOf returns a new SlabOf, distinct from every other.
func NewSlabOf[T any]() SlabOf[T] { return SlabOf[T]{id: int(slabKinds.Add(1) - 1)} }

// smallBlock is the size of the blocks of a SlabOf, in bytes.
const smallBlock = 4 << 10

// Small returns a copy of small with capacity its length, so that
// appending to it copies, from the reader's slab of k: the elements of a
// short array. An array kept from a decoded document keeps its block
// alive: at most smallBlock bytes, or one array.
func Small[T any](r *Reader, k SlabOf[T], small []T) []T {
	n := len(small)
	if n == 0 {
		return []T{}
	}
	h := holderOf(r, k)
	if len(h.free) < n {
		h.free = make([]T, max(n, smallBlock/max(int(unsafe.Sizeof(small[0])), 1)))
	}
	out := h.free[:n:n]
	h.free = h.free[n:]
	copy(out, small)
	return out
}

func holderOf[T any](r *Reader, k SlabOf[T]) *smallHolder[T] {
	for len(r.small) <= k.id {
		r.small = append(r.small, nil)
	}
	h, _ := r.small[k.id].(*smallHolder[T])
	if h == nil {
		h = new(smallHolder[T])
		r.small[k.id] = h
	}
	return h
}

// Grow returns a slice holding small, with room for more, to read an
// array of more elements than a decoder holds on its stack into: the
// reader's spare one for k when it has one, else one that s sizes.
func Grow[T any](r *Reader, k SlabOf[T], s *Scratch[T], small []T) []T {
	h := holderOf(r, k)
	if g := h.spare; g != nil {
		h.spare = nil // an array of T within this one gets its own
		return append(g, small...)
	}
	return s.Start(small)
}

// sparePart bounds the arrays that Done copies into the slab, in bytes:
// a longer array (a page's rows) is returned as it was read.
const sparePart = smallBlock / 8

// Done returns the array v that Grow began, as Small would when it is
// short, keeping v as the spare for the next; else v itself, as s.Done.
func Done[T any](r *Reader, k SlabOf[T], s *Scratch[T], v []T) []T {
	if len(v) == 0 || len(v)*int(unsafe.Sizeof(v[0])) > sparePart {
		return s.Done(v)
	}
	s.last.Store(int64(len(v)))
	out := Small(r, k, v)
	if cap(v)*int(unsafe.Sizeof(v[0])) <= maxSpare {
		clear(v) // the spare holds nothing of the document
		holderOf(r, k).spare = v[:0]
	}
	return out
}

// maxSpare bounds the spare a pooled reader keeps for a SlabOf, in bytes:
// a short array read into room sized by a long one does not leave that
// room held.
const maxSpare = 4 * smallBlock

// smallHolder is the free part of the block of one SlabOf, and the spare
// slice longer arrays of T are read into.
type smallHolder[T any] struct{ free, spare []T }

func (h *smallHolder[T]) drop() { h.free = nil }

// dropper is a smallHolder of any type.
type dropper interface{ drop() }

// dropSmall lets go of the blocks of every SlabOf, keeping their holders,
// so that a pooled reader holds no memory a decoded document uses.
func (r *Reader) dropSmall() {
	for _, h := range r.small {
		if h != nil {
			h.drop()
		}
	}
}
