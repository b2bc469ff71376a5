package jsondec

import (
	"encoding/json"
	"sync"
	"unsafe"
)

// slabs hand out the pointers of optional fields (a cell's *string and
// *json.RawMessage) from arrays allocated slabSize at a time, instead of
// one allocation each. A pointer kept from a decoded document keeps its
// slab alive: at most slabSize values.
type slabs struct {
	strs   []string
	raws   []json.RawMessage
	ints   []int64
	bools  []bool
	floats []float64
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

// Scratch lends the slices that arrays of T are read into before they
// have their final length, so that reading a page of rows allocates its
// slice once, at its length, instead of growing it.
type Scratch[T any] struct{ pool sync.Pool }

// maxScratch bounds the elements of a slice kept for reuse.
const maxScratch = 1 << 14

// Get returns an empty slice to append to.
func (s *Scratch[T]) Get() *[]T {
	if p, ok := s.pool.Get().(*[]T); ok {
		return p
	}
	p := make([]T, 0, 64)
	return &p
}

// Done returns a copy of the elements of *p, exactly as long, and takes p
// back.
func (s *Scratch[T]) Done(p *[]T) []T {
	out := append(make([]T, 0, len(*p)), *p...)
	clear(*p)
	if cap(*p) <= maxScratch {
		*p = (*p)[:0]
		s.pool.Put(p)
	}
	return out
}
