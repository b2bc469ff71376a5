package jsondec

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special returns the index of the first byte of the 8 in v that ends a
// run of a string's plain bytes: a quote, a backslash or a control
// character; 8 when there is none. Bytes above ASCII are not special here.
func special(v uint64) int { return bits.TrailingZeros64(specials(v)) / 8 }

// scanString reads the string that starts at r.pos (its opening quote) up
// to its closing quote, checking that it is well-formed. plain reports that
// its content is its bytes: no escapes, nothing above ASCII.
func (r *Reader) scanString() (plain, ok bool) { return r.scanStringAt(r.pos + 1) }

// scanStringAt is scanString going on from index i of a string whose
// bytes before i are plain ASCII. It looks for quotes, backslashes and
// control bytes eight bytes at a time and steps over the two-byte escapes
// it finds inside the eight, so that strings dense with escapes and text
// beyond ASCII (paths, quotes, line breaks) are scanned a word at a time
// too.
func (r *Reader) scanStringAt(i int) (plain, ok bool) {
	d := r.data
	var high uint64 // the bytes passed, or-ed: bit 7 of a byte is set past ASCII
	escaped := false
	for {
		for i+8 <= len(d) {
			v := binary.LittleEndian.Uint64(d[i:])
			for m := specials(v); m != 0; {
				n := bits.TrailingZeros64(m) >> 3
				if d[i+n] != '\\' || n == 7 || !shortEscape[d[i+n+1]] {
					high |= v & (1<<(8*n) - 1)
					i += n
					goto stop
				}
				escaped = true
				m &^= 0x8080 << (8 * n) // the backslash and the byte it escapes
			}
			high |= v
			i += 8
		}
		for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= ' ' {
			high |= uint64(d[i])
			i++
		}
		if i >= len(d) {
			r.pos = i
			r.fail("unexpected end of JSON input")
			return false, false
		}
	stop:
		switch d[i] {
		case '"':
			r.pos = i + 1
			return !escaped && high&highs == 0, true
		case '\\':
			escaped = true
			n, good := escapeLen(d[i:])
			if !good {
				r.pos = i + n
				r.failChar("in string escape code")
				return false, false
			}
			i += n
		default: // a control character
			r.pos = i
			r.failChar("in string literal")
			return false, false
		}
	}
}

// specials marks with bit 7 each of the 8 bytes in v that is a quote, a
// backslash or a control character, and no other: each byte is tested on
// its own, with no carry between bytes.
func specials(v uint64) uint64 {
	const low7 = 0x7f7f7f7f7f7f7f7f
	q, b := v^'"'*ones, v^'\\'*ones
	isQuote := ^((q&low7 + low7) | q)
	isBackslash := ^((b&low7 + low7) | b)
	isControl := ^((v&low7 + (0x80-' ')*ones) | v)
	return (isQuote | isBackslash | isControl) & highs
}

// shortEscape holds the bytes that make a two-byte escape after a
// backslash.
var shortEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// escapeLen is the length of the escape at the start of b (a backslash),
// or where it goes wrong.
func escapeLen(b []byte) (int, bool) {
	if len(b) < 2 {
		return len(b), false
	}
	if shortEscape[b[1]] {
		return 2, true
	}
	if b[1] != 'u' {
		return 1, false
	}
	for i := 2; i < 6; i++ {
		if i >= len(b) || !isHex(b[i]) {
			return i, false
		}
	}
	return 6, true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// shortString reads a string of at most 16 plain ASCII bytes (nearly
// every field's name, and many short values) a byte at a time, and returns
// its content. Otherwise it reads nothing, and stop is the index of the
// first byte it did not find plain, to go on from (scanStringAt).
func (r *Reader) shortString() (content []byte, stop int, ok bool) {
	d, start := r.data, r.pos+1
	if start+16 <= len(d) {
		// eight bytes at a time: the first that is not plain ASCII ends
		// the string when it is its closing quote
		for at := start; at < start+16; at += 8 {
			v := binary.LittleEndian.Uint64(d[at:])
			n := special(v)
			if n < 8 {
				if d[at+n] == '"' && v&highs&(1<<(8*n)-1) == 0 {
					r.pos = at + n + 1
					return d[start : at+n], at + n, true
				}
				return nil, at, false
			}
			if v&highs != 0 {
				return nil, at, false
			}
		}
		return nil, start + 16, false
	}
	end := min(start+16, len(d))
	i := start
	for ; i < end; i++ {
		switch c := d[i]; {
		case c == '"':
			r.pos = i + 1
			return d[start:i], i, true
		case c == '\\' || c < ' ' || c >= 0x80:
			return nil, i, false
		}
	}
	return nil, i, false
}

// readString reads a string value and returns its content, copied into
// the arena: the decoded text is what encoding/json gives, invalid UTF-8
// and unpaired surrogates turning into U+FFFD.
func (r *Reader) readString() (string, bool) {
	content, stop, ok := r.shortString()
	if ok {
		return r.arena.str(content, r.left()), true
	}
	start := r.pos
	plain, ok := r.scanStringAt(stop)
	if !ok {
		return "", false
	}
	content = r.data[start+1 : r.pos-1]
	if plain {
		return r.arena.str(content, r.left()), true
	}
	// unescaped straight into the arena: escapes only shorten a string,
	// and only invalid UTF-8, which turns a byte into three, lengthens it
	out := unescape(r.arena.alloc(len(content), r.left())[:0], content)
	if len(out) == 0 {
		return "", true
	}
	return unsafe.String(&out[0], len(out)), true
}

// name reads a field name: its bytes when plain, else decoded into the
// scratch buffer. It is valid until the next name.
func (r *Reader) name() ([]byte, bool) {
	content, stop, ok := r.shortString()
	if ok {
		return content, true
	}
	start := r.pos
	plain, ok := r.scanStringAt(stop)
	if !ok {
		return nil, false
	}
	content = r.data[start+1 : r.pos-1]
	if plain {
		return content, true
	}
	r.scratch = unescape(r.scratch[:0], content)
	return r.scratch, true
}

// unescape appends the decoded content of a well-formed string to buf, as
// encoding/json decodes it: the runs between escapes whole when they are
// valid UTF-8, else a rune at a time, invalid bytes turning into U+FFFD.
func unescape(buf, s []byte) []byte {
	for len(s) > 0 {
		run := s
		if j := bytes.IndexByte(s, '\\'); j >= 0 {
			run = s[:j]
		}
		if utf8.Valid(run) {
			buf = append(buf, run...)
		} else {
			buf = appendRunes(buf, run)
		}
		if s = s[len(run):]; len(s) > 0 {
			var n int
			buf, n = unescapeOne(buf, s)
			s = s[n:]
		}
	}
	return buf
}

// appendRunes appends s a rune at a time, invalid UTF-8 turning into
// U+FFFD, a byte at a time.
func appendRunes(buf, s []byte) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			buf = append(buf, c)
			i++
			continue
		}
		rr, size := utf8.DecodeRune(s[i:])
		buf = utf8.AppendRune(buf, rr) // RuneError for invalid UTF-8
		i += size
	}
	return buf
}

// unescapeOne appends what the escape at the start of s stands for and
// returns how many bytes it took. A surrogate is combined with the \u
// escape that follows when they pair; otherwise it is U+FFFD and the next
// escape stands on its own.
func unescapeOne(buf, s []byte) ([]byte, int) {
	switch s[1] {
	case 'b':
		return append(buf, '\b'), 2
	case 'f':
		return append(buf, '\f'), 2
	case 'n':
		return append(buf, '\n'), 2
	case 'r':
		return append(buf, '\r'), 2
	case 't':
		return append(buf, '\t'), 2
	case 'u':
		rr := hex4(s[2:6])
		if !utf16.IsSurrogate(rr) {
			return utf8.AppendRune(buf, rr), 6
		}
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if dec := utf16.DecodeRune(rr, hex4(s[8:12])); dec != utf8.RuneError {
				return utf8.AppendRune(buf, dec), 12
			}
		}
		return utf8.AppendRune(buf, utf8.RuneError), 6
	}
	return append(buf, s[1]), 2 // " \ /
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c <= '9':
			c -= '0'
		case c <= 'F':
			c -= 'A' - 10
		default:
			c -= 'a' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
