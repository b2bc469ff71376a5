package facade

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file finds a secret in a text however a server spelled it: in
// another letter case (a server that upper-cases a password, lower-cases a
// key), and with any of its characters escaped as JSON escapes them
// (\u0070, \", \/) or as URLs do (%70, + for a space), in any mix.

// replaceSecret replaces every spelling of v in text with the placeholder.
// With wordOnly, a spelling is replaced only where neither neighbour is a
// letter or a digit.
func replaceSecret(text, v string, wordOnly bool) string {
	if v == "" {
		return text
	}
	first, _ := utf8.DecodeRuneInString(v)
	var b strings.Builder
	done := 0 // text[:done] is in b
	for i := 0; i < len(text); i++ {
		if !mayStart(text[i], first) {
			continue
		}
		end := matchSecret(text, i, v)
		if end < 0 || wordOnly && !standsAlone(text, i, end) {
			continue
		}
		b.WriteString(text[done:i])
		b.WriteString(redacted)
		done = end
		i = end - 1
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}

// mayStart reports whether a spelling of a secret starting with rune first
// may start at byte c: cheap, so that most bytes are passed over.
func mayStart(c byte, first rune) bool {
	switch {
	case c == '\\' || c == '%' || c == '+' || c >= utf8.RuneSelf:
		return true
	case first >= utf8.RuneSelf:
		return unicode.SimpleFold(first) < utf8.RuneSelf // e.g. K (Kelvin) folds to k
	}
	return foldEqual(rune(c), first)
}

// standsAlone reports whether text[i:end] has no letter or digit beside it.
func standsAlone(text string, i, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:i])
	after, _ := utf8.DecodeRuneInString(text[end:])
	return !isWordRune(before) && !isWordRune(after)
}

// matchSecret returns the end of a spelling of v that starts at text[i],
// or -1: v as it is in any case, or rune by rune in any case and escaping.
func matchSecret(text string, i int, v string) int {
	if end := i + len(v); end <= len(text) && strings.EqualFold(text[i:end], v) {
		return end
	}
	for _, r := range v {
		n := matchRune(text[i:], r)
		if n == 0 {
			return -1
		}
		i += n
	}
	return i
}

// matchRune returns the length of a spelling of r at the start of s, or 0.
func matchRune(s string, r rune) int {
	if s == "" {
		return 0
	}
	var got rune
	n := 0
	switch s[0] {
	case '\\':
		got, n = jsonUnescape(s)
	case '%':
		got, n = percentUnescape(s)
	case '+':
		got, n = ' ', 1
	}
	if n > 0 && foldEqual(got, r) {
		return n
	}
	got, n = utf8.DecodeRuneInString(s)
	if got == utf8.RuneError && n <= 1 || !foldEqual(got, r) {
		return 0
	}
	return n
}

func foldEqual(a, b rune) bool {
	return a == b || unicode.ToLower(a) == unicode.ToLower(b) || unicode.ToUpper(a) == unicode.ToUpper(b)
}

// jsonUnescape decodes the JSON escape at the start of s: \uXXXX (a
// surrogate pair as one rune) or a one-letter escape.
func jsonUnescape(s string) (rune, int) {
	if len(s) < 2 {
		return 0, 0
	}
	if s[1] != 'u' {
		if i := strings.IndexByte(`"\/bfnrt`, s[1]); i >= 0 {
			return rune("\"\\/\b\f\n\r\t"[i]), 2
		}
		return 0, 0
	}
	hi, ok := hexValue(s, 2, 4)
	if !ok {
		return 0, 0
	}
	if utf16IsHigh(hi) && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if lo, ok := hexValue(s, 8, 4); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return 0x10000 + (hi-0xD800)<<10 + (lo - 0xDC00), 12
		}
	}
	return hi, 6
}

func utf16IsHigh(r rune) bool { return r >= 0xD800 && r <= 0xDBFF }

// percentUnescape decodes the %XX escapes of one UTF-8 encoded rune at the
// start of s.
func percentUnescape(s string) (rune, int) {
	var buf [utf8.UTFMax]byte
	n := 0
	for k := 0; k < utf8.UTFMax && len(s) >= 3*(k+1) && s[3*k] == '%'; k++ {
		v, ok := hexValue(s, 3*k+1, 2)
		if !ok {
			break
		}
		buf[k] = byte(v)
		n = k + 1
		if utf8.FullRune(buf[:n]) {
			break
		}
	}
	if n == 0 {
		return 0, 0
	}
	r, size := utf8.DecodeRune(buf[:n])
	if r == utf8.RuneError && size <= 1 && buf[0] >= utf8.RuneSelf {
		return 0, 0
	}
	return r, 3 * size
}

// hexValue reads n hex digits of s from i.
func hexValue(s string, i, n int) (rune, bool) {
	if len(s) < i+n {
		return 0, false
	}
	var v rune
	for _, c := range []byte(s[i : i+n]) {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | rune(d)
	}
	return v, true
}
