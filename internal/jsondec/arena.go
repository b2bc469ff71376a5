package jsondec

import "unsafe"

// arena holds the bytes of the strings and raw values of one decoded
// document, so that a page of rows allocates a few blocks instead of one
// allocation per value. A block is never written again where a value
// already lies: the strings made over it are immutable, and a raw value's
// capacity ends where it does, so appending to it copies.
//
// A block is sized from what is left of the document: what the arena may
// yet have to hold is at most the rest of the document's bytes, and in a
// page of rows about half of them are strings' and raw values'. So a
// block is a quarter of the rest (at least minBlock, at most maxBlock),
// and the last block of a document is small, where a fixed size would
// leave most of a large block unused: a page needing 65 KiB took 128.
//
// A value kept from a decoded document keeps its block alive: at most
// maxBlock bytes, or a quarter of the document when smaller.
type arena struct {
	block []byte
}

const minBlock, maxBlock = 256, 64 << 10

func (a *arena) reset() { a.block = nil }

// alloc returns n bytes of the arena to fill, with capacity n; left is
// how many bytes of the document are still to be read.
func (a *arena) alloc(n, left int) []byte {
	if n > len(a.block) {
		if n > maxBlock/4 {
			return make([]byte, n) // large values on their own
		}
		a.block = make([]byte, min(max((n+left)/4, 2*n, minBlock), maxBlock))
	}
	b := a.block[:n:n]
	a.block = a.block[n:]
	return b
}

// str copies b into the arena as a string.
func (a *arena) str(b []byte, left int) string {
	if len(b) == 0 {
		return ""
	}
	s := a.alloc(len(b), left)
	copy(s, b)
	return unsafe.String(&s[0], len(s))
}

// bytes copies b into the arena.
func (a *arena) bytes(b []byte, left int) []byte {
	s := a.alloc(len(b), left)
	copy(s, b)
	return s
}
