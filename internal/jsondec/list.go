package jsondec

import (
	"errors"
	"io"
)

// EachBatch reads a JSON document from src as it streams. When the
// document is an array, EachBatch hands each batch of its elements to
// each, about size bytes of them at a time, as the text of a JSON array of
// them, with the offset in the document that the batch's text starts at:
// an offset o in the batch is at + o in the document. So a long list costs
// the memory of one batch's text (or of its longest element), never the
// whole document. When the document is not an array, EachBatch reads it
// whole and hands it to whole.
//
// Each element is checked as JSON, and so is the array's punctuation: a
// malformed document is an [*Error] with its offset in the document. An
// error reading src other than its end is returned as it is.
func EachBatch(src io.Reader, size int, each func(batch []byte, at int64) error, whole func(doc []byte) error) error {
	l := &lister{src: src, r: newReader(nil, nil), buf: make([]byte, 0, min(max(size, 512), 1<<20)), bs: 0, be: 0}
	defer l.r.release()
	c, err := l.peek()
	if err != nil && err != io.EOF {
		return err
	}
	if c != '[' {
		rest, err := io.ReadAll(src)
		if err != nil {
			return err
		}
		return whole(append(l.buf, rest...))
	}
	l.pos++
	l.bs, l.be = -1, -1 // until the array opens, nothing read is dropped
	return l.elements(size, each)
}

// lister holds the part of a streamed document that is not yet handed
// out: buf[pos:] is at base+pos in the document. The elements of the
// batch being gathered are buf[bs:be] (bs < 0: none yet).
type lister struct {
	src    io.Reader
	r      *Reader // reads buf
	buf    []byte
	pos    int
	bs, be int
	base   int64
	eof    bool
	batch  []byte
}

// peek returns the next byte that is not white space, reading more when
// the buffer holds none; 0 and io.EOF at the end of the document.
func (l *lister) peek() (byte, error) {
	for {
		if l.pos = spaces(l.buf, l.pos); l.pos < len(l.buf) {
			return l.buf[l.pos], nil
		}
		if l.eof {
			return 0, io.EOF
		}
		if err := l.fill(); err != nil {
			return 0, err
		}
	}
}

// fill drops what was handed out and reads until the buffer is full or
// the document ends; a buffer full of what is not handed out yet doubles.
func (l *lister) fill() error {
	drop := l.pos
	if l.bs >= 0 {
		drop = l.bs
	}
	if drop > 0 {
		n := copy(l.buf, l.buf[drop:])
		l.buf, l.base, l.pos = l.buf[:n], l.base+int64(drop), l.pos-drop
		if l.bs >= 0 {
			l.bs, l.be = l.bs-drop, l.be-drop
		}
	}
	if len(l.buf) == cap(l.buf) {
		l.buf = append(l.buf, make([]byte, cap(l.buf))...)[:len(l.buf)]
	}
	for len(l.buf) < cap(l.buf) {
		n, err := l.src.Read(l.buf[len(l.buf):cap(l.buf)])
		l.buf = l.buf[:len(l.buf)+n]
		if err == io.EOF {
			l.eof = true
			return nil
		}
		if err != nil {
			return err // io.ErrUnexpectedEOF too: a body cut off is no end
		}
	}
	return nil
}

// elements reads the array's elements after its opening bracket, handing
// them to each in batches of about size bytes.
func (l *lister) elements(size int, each func([]byte, int64) error) error {
	c, err := l.peek()
	if err != nil {
		return l.malformed(err)
	}
	if c == ']' {
		l.pos++
		return l.end()
	}
	for {
		if err := l.element(); err != nil {
			return err
		}
		c, err := l.peek()
		if err != nil {
			return l.malformed(err)
		}
		switch c {
		case ',':
			l.pos++
		case ']':
			l.pos++
			if err := l.flush(each); err != nil {
				return err
			}
			return l.end()
		default:
			return l.malformed(nil)
		}
		if l.be-l.bs >= size {
			if err := l.flush(each); err != nil {
				return err
			}
		}
	}
}

// element reads the element at pos, which is not white space, into the
// batch, reading more of the document while it is cut off.
func (l *lister) element() error {
	for {
		r := l.r
		r.data, r.pos, r.depth, r.err = l.buf, l.pos, 1, nil
		st := r.skip()
		cut := st == Failed && r.pos >= len(l.buf) || st != Failed && r.pos == len(l.buf) && isNumberStart(l.buf[l.pos])
		if cut && !l.eof {
			if err := l.fill(); err != nil {
				return err
			}
			continue
		}
		if st == Failed {
			return l.offset(r.err)
		}
		if l.bs < 0 {
			l.bs = l.pos
		}
		l.pos, l.be = r.pos, r.pos
		return nil
	}
}

func isNumberStart(c byte) bool { return c == '-' || c >= '0' && c <= '9' }

// flush hands the batch gathered to each, as a JSON array.
func (l *lister) flush(each func([]byte, int64) error) error {
	if l.bs < 0 {
		return nil
	}
	l.batch = append(append(append(l.batch[:0], '['), l.buf[l.bs:l.be]...), ']')
	at := l.base + int64(l.bs) - 1
	l.bs, l.be = -1, -1
	err := each(l.batch, at)
	if e := (*Error)(nil); errors.As(err, &e) {
		moved := *e
		moved.Offset += at
		return &moved
	}
	return err
}

// end checks that only white space follows the array.
func (l *lister) end() error {
	if _, err := l.peek(); err != io.EOF {
		if err != nil {
			return err
		}
		return l.offset(&Error{Offset: int64(l.pos), Msg: "invalid character " + quoteChar(l.buf[l.pos]) + " after top-level value"})
	}
	return nil
}

// malformed is the error of an array whose punctuation is wrong at pos, or
// that ends early (err io.EOF); another read error is returned as it is.
func (l *lister) malformed(err error) error {
	switch {
	case err == io.EOF:
		return l.offset(&Error{Offset: int64(l.pos), Msg: "unexpected end of JSON input"})
	case err != nil:
		return err
	}
	return l.offset(&Error{Offset: int64(l.pos), Msg: "invalid character " + quoteChar(l.buf[l.pos]) + " after array element"})
}

// offset moves an error at an offset in the buffer to the document's.
func (l *lister) offset(e *Error) error {
	moved := *e
	moved.Offset += l.base
	return &moved
}
