package jsondec

import "unsafe"

// arena holds the bytes of the strings and raw values of one decoded
// document, so that a page of rows allocates a few blocks instead of one
// allocation per value. A block is never written again where a value
// already lies: the strings made over it are immutable, and a raw value's
// capacity ends where it does, so appending to it copies.
//
// A value kept from a decoded document keeps its block alive: at most
// maxBlock bytes, or the document's size when smaller.
type arena struct {
	block []byte
	size  int // size of the next block
}

const minBlock, maxBlock = 256, 64 << 10

func (a *arena) reset(docSize int) {
	a.block = nil
	a.size = min(max(docSize/2, minBlock), maxBlock)
}

// alloc returns n bytes of the arena to fill, with capacity n.
func (a *arena) alloc(n int) []byte {
	if n > len(a.block) {
		if n > a.size/4 {
			return make([]byte, n) // large values on their own
		}
		a.block = make([]byte, a.size)
	}
	b := a.block[:n:n]
	a.block = a.block[n:]
	return b
}

// str copies b into the arena as a string.
func (a *arena) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	s := a.alloc(len(b))
	copy(s, b)
	return unsafe.String(&s[0], len(s))
}

// bytes copies b into the arena.
func (a *arena) bytes(b []byte) []byte {
	s := a.alloc(len(b))
	copy(s, b)
	return s
}
