package jsondec

import (
	"context"
	"encoding/json"
	"sync"
)

// maxDepth is how deeply arrays and objects may nest, as in encoding/json.
const maxDepth = 10000

// Reader reads one JSON document held in memory, front to back. Generated
// decoders walk objects with [Reader.FirstKey] and [Reader.NextKey], arrays
// with [Reader.FirstElem] and [Reader.NextElem], and read values with the
// functions of this package, each of which returns a [Status].
type Reader struct {
	data  []byte
	pos   int
	depth int
	err   *Error

	// the value last read as Kept or Lost, and its JSON type
	keptStart, keptEnd int
	converted          string // the JSON type of the value last Converted

	ctx     context.Context // checked when pos passes checkAt
	checkAt int
	opts    *Options

	scratch   []byte            // unescaped names
	names     map[string]string // unknown field names, allocated once per name
	lastName  string            // the name last found in names
	typed     *Site             // the place of the type finding last noted
	typedKind kind              // and its kind: converted or kept raw
	arena     arena
	slabs     slabs
	small     []dropper // the blocks of the SlabOf of each type, by id
	notes     notes
}

var readers = sync.Pool{New: func() any { return &Reader{names: make(map[string]string)} }}

func newReader(data []byte, o *Options) *Reader {
	r := readers.Get().(*Reader)
	r.data, r.pos, r.depth, r.err, r.opts, r.typed = data, 0, 0, nil, o, nil
	r.watch(o)
	r.arena.reset()
	return r
}

func (r *Reader) release() {
	r.data, r.ctx, r.opts = nil, nil, nil
	r.arena = arena{}
	r.slabs = slabs{}
	r.dropSmall()
	r.notes.reset()
	if len(r.scratch) > 4<<10 {
		r.scratch = nil
	}
	readers.Put(r)
}

// left is how many bytes of the document are still to be read.
func (r *Reader) left() int { return len(r.data) - r.pos }

// Failed reports whether the document was found malformed.
func (r *Reader) Failed() bool { return r.err != nil }

// fail records that the document is malformed at the current offset.
func (r *Reader) fail(msg string) Status {
	if r.err == nil {
		r.err = &Error{Offset: int64(r.pos), Msg: msg}
	}
	return Failed
}

// failChar records an unexpected byte (or the end of the document).
func (r *Reader) failChar(context string) Status {
	if r.pos >= len(r.data) {
		return r.fail("unexpected end of JSON input")
	}
	return r.fail("invalid character " + quoteChar(r.data[r.pos]) + " " + context)
}

// spaces returns the index of the first byte of d from p on that is not
// JSON whitespace.
func spaces(d []byte, p int) int {
	for p < len(d) && isSpace(d[p]) {
		p++
	}
	return p
}

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool { return c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r') }

// ws skips white space and returns the next byte, 0 at the end.
func (r *Reader) ws() byte {
	for r.pos < len(r.data) {
		if c := r.data[r.pos]; !isSpace(c) {
			return c
		}
		r.pos++
	}
	return 0
}

// Object starts reading an object: OK when the next value is one (read its
// fields with FirstKey and NextKey), Null for null, Kept for a value of
// another type (skipped), Failed for malformed JSON.
func (r *Reader) Object() Status { return r.open('{') }

// Array starts reading an array, as Object does an object.
func (r *Reader) Array() Status { return r.open('[') }

func (r *Reader) open(want byte) Status {
	c := r.ws()
	if c == want {
		r.pos++
		r.depth++
		if r.depth > maxDepth {
			return r.fail("exceeded max depth")
		}
		return OK
	}
	return r.other(c)
}

// other reads a value that is not of the type wanted: null, or a value of
// another type, kept.
func (r *Reader) other(c byte) Status {
	if c == 'n' {
		return r.null()
	}
	return r.keep()
}

// keep skips the next value and remembers where it was: it is kept raw.
func (r *Reader) keep() Status {
	r.ws()
	start := r.pos
	if r.skip() == Failed {
		return Failed
	}
	r.keptStart, r.keptEnd = start, r.pos
	return Kept
}

func (r *Reader) null() Status {
	if r.pos+4 <= len(r.data) && string(r.data[r.pos:r.pos+4]) == "null" {
		r.pos += 4
		return Null
	}
	return r.literalError()
}

// FirstKey reads the first field name of an object that Object opened and
// the colon after it; false at the end of an empty object, or when the
// document is malformed (see Failed). The name is valid until the next call.
func (r *Reader) FirstKey() ([]byte, bool) {
	if r.ws() == '}' {
		r.pos++
		r.depth--
		return nil, false
	}
	return r.key()
}

// NextKey reads the comma and the next field name, as FirstKey does.
func (r *Reader) NextKey() ([]byte, bool) {
	if r.pos >= r.checkAt && !r.check() {
		return nil, false
	}
	switch r.ws() {
	case ',':
		r.pos++
		r.ws()
		return r.key()
	case '}':
		r.pos++
		r.depth--
		return nil, false
	}
	r.failChar("after object key:value pair")
	return nil, false
}

func (r *Reader) key() ([]byte, bool) {
	if r.pos >= len(r.data) || r.data[r.pos] != '"' {
		r.failChar("looking for beginning of object key string")
		return nil, false
	}
	name, ok := r.name()
	if !ok {
		return nil, false
	}
	if r.ws() != ':' {
		r.failChar("after object key")
		return nil, false
	}
	r.pos++
	return name, true
}

// KeyIs reads the field name key (as it is written in JSON, with its
// colon: "type":) when it comes next, after the comma unless it is the
// first of its object, and reports whether it did; otherwise it reads
// nothing. Generated decoders look for the fields in the spec's order so,
// reading the names that are not next with FirstKey and NextKey. KeyIs is
// small enough to be inlined, and passes over one space after the comma
// (", "); SpacedKeyIs does the same where other whitespace comes before
// the comma or the name.
func (r *Reader) KeyIs(first bool, key string) bool {
	p, d := r.pos, r.data
	if !first {
		if p >= len(d) || d[p] != ',' {
			return false
		}
		p++
		if p < len(d) && d[p] == ' ' { // ", " between fields
			p++
		}
	}
	if len(d)-p < len(key) || string(d[p:p+len(key)]) != key {
		return false
	}
	r.pos = p + len(key)
	return true
}

// SpacedKeyIs is KeyIs passing over any whitespace around the comma, so
// that answers written with spaces or line breaks between fields take the
// same path as compact ones. It returns false at once where KeyIs has
// looked already.
func (r *Reader) SpacedKeyIs(first bool, key string) bool {
	start, d := r.pos, r.data
	p := start
	if !first {
		p = spaces(d, p)
		if p >= len(d) || d[p] != ',' {
			return false
		}
		p++
	}
	q := spaces(d, p)
	if first && q == p || !first && p == start+1 && (q == p || q == p+1 && d[p] == ' ') {
		return false // what KeyIs looked at
	}
	if len(d)-q < len(key) || string(d[q:q+len(key)]) != key {
		return false
	}
	r.pos = q + len(key)
	return true
}

// FirstElem reports whether an array that Array opened has an element to
// read; false for an empty one or malformed JSON (see Failed).
func (r *Reader) FirstElem() bool {
	if r.ws() == ']' {
		r.pos++
		r.depth--
		return false
	}
	return true
}

// NextElem reads the comma before the next element, and reports whether
// there is one.
func (r *Reader) NextElem() bool {
	if r.pos >= r.checkAt && !r.check() {
		return false
	}
	switch r.ws() {
	case ',':
		r.pos++
		return true
	case ']':
		r.pos++
		r.depth--
		return false
	}
	r.failChar("after array element")
	return false
}

// Start is the offset of the next value, for [Reader.KeepFrom].
func (r *Reader) Start() int {
	r.ws()
	return r.pos
}

// KeepFrom marks the value read since offset start as kept raw: an array
// some of whose elements could not be held.
func (r *Reader) KeepFrom(start int) Status {
	r.keptStart, r.keptEnd = start, r.pos
	return Lost
}

// Kept returns a copy of the text of the value last read as Kept or Lost.
func (r *Reader) Kept() []byte {
	return r.arena.bytes(r.data[r.keptStart:r.keptEnd], r.left())
}

// end checks that only white space is left.
func (r *Reader) end() {
	if r.ws(); r.pos < len(r.data) {
		r.failChar("after top-level value")
	}
}

// Null reads null when it is the next value: its outcome and true.
func (r *Reader) Null() (Status, bool) {
	if r.ws() == 'n' {
		return r.null(), true
	}
	return OK, false
}

// Entry reads the value of the field named key into m, verbatim.
func (r *Reader) Entry(m map[string]json.RawMessage, key []byte) Status {
	name := r.internName(key)
	var raw json.RawMessage
	if r.Raw(&raw) == Failed {
		return Failed
	}
	m[name] = raw
	return OK
}
