package jsondec

// Status is the outcome of reading one value.
type Status uint8

const (
	// OK: the value had the type wanted and is stored.
	OK Status = iota
	// Null: the value was null; the target keeps its zero value.
	Null
	// Converted: the value had another JSON type and was converted without
	// loss (a number for a string, "42" for an integer, "true" for a bool).
	Converted
	// Kept: the value had another type, or did not fit: the target keeps its
	// zero value and the value's text is to be kept raw ([Reader.Kept]).
	Kept
	// Lost: a value inside this one (an array's element) could not be held
	// and has been reported; this value's text is to be kept raw.
	Lost
	// Failed: the document is malformed; decoding stops.
	Failed
)

// skip reads the next value whatever its type, checking that it is
// well-formed. Nested arrays and objects are followed with a stack of the
// kinds of container open, not recursion.
func (r *Reader) skip() Status {
	base := r.depth
	var open nesting
	for {
		switch c := r.ws(); c {
		case '{', '[':
			r.pos++
			r.depth++
			if r.depth > maxDepth {
				return r.fail("exceeded max depth")
			}
			close := byte('}')
			if c == '[' {
				close = ']'
			}
			if st := r.afterOpen(close); st == Failed {
				return st
			} else if st == Null { // closed at once
				r.depth--
				break
			}
			open.push(close == '}')
			continue
		default:
			if st := r.scalar(); st == Failed {
				return st
			}
		}
		// a value ended: close what ends here, then go on after a comma
		for {
			if open.n == 0 {
				r.depth = base
				return OK
			}
			object := open.top()
			c := r.ws()
			if c == ',' {
				if r.pos >= r.checkAt && !r.check() {
					return Failed
				}
				r.pos++
				if object && r.objectKey() == Failed {
					return Failed
				}
				break
			}
			if object && c != '}' {
				return r.failChar("after object key:value pair")
			}
			if !object && c != ']' {
				return r.failChar("after array element")
			}
			r.pos++
			r.depth--
			open.pop()
		}
	}
}

// nesting is a stack of the containers open while skipping, a bit each
// (set for an object): the first 64 levels in a word, deeper ones in a
// slice, so that skipping the shallow values answers hold takes no memory.
type nesting struct {
	bits uint64
	n    int
	deep []bool
}

func (s *nesting) push(object bool) {
	if s.n < 64 {
		s.bits = s.bits&^(1<<s.n) | b2u(object)<<s.n
	} else {
		s.deep = append(s.deep[:s.n-64], object)
	}
	s.n++
}

func (s *nesting) top() bool {
	if i := s.n - 1; i >= 64 {
		return s.deep[i-64]
	}
	return s.bits>>(s.n-1)&1 != 0
}

func (s *nesting) pop() { s.n-- }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// afterOpen reads what follows an opening bracket: the closing one (Null:
// empty), or for an object its first key and colon.
func (r *Reader) afterOpen(close byte) Status {
	if r.ws() == close {
		r.pos++
		return Null
	}
	if close == '}' {
		return r.objectKey()
	}
	return OK
}

// objectKey reads a field name and the colon after it.
func (r *Reader) objectKey() Status {
	if r.ws() != '"' {
		return r.failChar("looking for beginning of object key string")
	}
	if _, stop, ok := r.shortString(); !ok {
		if _, ok := r.scanStringAt(stop); !ok {
			return Failed
		}
	}
	if r.ws() != ':' {
		return r.failChar("after object key")
	}
	r.pos++
	return OK
}

// scalar reads a string, number, true, false or null.
func (r *Reader) scalar() Status {
	if r.pos >= len(r.data) {
		return r.failChar("")
	}
	switch c := r.data[r.pos]; {
	case c == '"':
		if _, stop, ok := r.shortString(); ok {
			return OK
		} else if _, ok := r.scanStringAt(stop); !ok {
			return Failed
		}
		return OK
	case c == '-' || c >= '0' && c <= '9':
		if _, ok := r.scanNumber(); !ok {
			return Failed
		}
		return OK
	case c == 't':
		return r.literal("true")
	case c == 'f':
		return r.literal("false")
	case c == 'n':
		return r.literal("null")
	}
	return r.failChar("looking for beginning of value")
}

func (r *Reader) literal(word string) Status {
	if r.pos+len(word) <= len(r.data) && string(r.data[r.pos:r.pos+len(word)]) == word {
		r.pos += len(word)
		return OK
	}
	return r.literalError()
}

// literalError points at the first byte that breaks true, false or null.
func (r *Reader) literalError() Status {
	var word string
	switch r.data[r.pos] {
	case 't':
		word = "true"
	case 'f':
		word = "false"
	default:
		word = "null"
	}
	for i := 1; i < len(word); i++ {
		r.pos++
		if r.pos >= len(r.data) || r.data[r.pos] != word[i] {
			return r.failChar("in literal " + word + " (expecting " + quoteChar(word[i]) + ")")
		}
	}
	return r.fail("invalid literal")
}

// scanNumber reads a number and returns its text, checking its grammar:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *Reader) scanNumber() ([]byte, bool) {
	d, start := r.data, r.pos
	i := start
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(d, i+1)
	default:
		r.pos = i
		r.failChar("in numeric literal")
		return nil, false
	}
	if i < len(d) && d[i] == '.' {
		if i+1 >= len(d) || d[i+1] < '0' || d[i+1] > '9' {
			r.pos = i + 1
			r.failChar("after decimal point in numeric literal")
			return nil, false
		}
		i = digits(d, i+1)
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			r.pos = i
			r.failChar("in exponent of numeric literal")
			return nil, false
		}
		i = digits(d, i+1)
	}
	r.pos = i
	return d[start:i], true
}

func digits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

func quoteChar(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c < ' ' || c >= 0x7f:
		const hex = "0123456789abcdef"
		return `'\x` + string([]byte{hex[c>>4], hex[c&15]}) + `'`
	}
	return "'" + string(c) + "'"
}
