package facade

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file finds a secret in a text however a server spelled it: in
// another letter case (a server that upper-cases a password, lower-cases a
// key), and with any of its characters escaped as JSON escapes them
// (\u0070, \", \/) or as URLs do (%70, + for a space), in any mix; and
// encoded, in hex or base64 (see encodedSpellings).

// replaceSecret replaces every spelling of v in text with the placeholder.
// With wordOnly, a spelling is replaced only where neither neighbour is a
// letter or a digit.
func replaceSecret(text, v string, wordOnly bool) string {
	return replaceSpellings(text, v, func(i, end int) (int, int, bool) {
		return i, end, !wordOnly || standsAlone(text, i, end)
	})
}

// replaceBase64 replaces every run of base64 text that holds core, a
// spelling of base64Cores, with the placeholder: the whole run, so that
// none of the secret's bits is left beside it.
func replaceBase64(text, core string) string {
	return replaceSpellings(text, core, func(i, end int) (int, int, bool) {
		for i > 0 && isBase64Byte(text[i-1]) {
			i--
		}
		for end < len(text) && (isBase64Byte(text[end]) || text[end] == '=') {
			end++
		}
		for strings.HasPrefix(text[end:], "%3D") || strings.HasPrefix(text[end:], "%3d") { // padding URL-escaped
			end += 3
		}
		return i, end, true
	})
}

func isBase64Byte(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '-' || c == '_'
}

// replaceSpellings replaces with the placeholder every spelling of v in
// text that span accepts; span may widen it, never before the end of the
// previous one.
func replaceSpellings(text, v string, span func(i, end int) (int, int, bool)) string {
	if v == "" {
		return text
	}
	starts := startTestOf(v)
	var b strings.Builder
	done := 0 // text[:done] is in b
	for i := 0; i < len(text); i++ {
		if !starts.may(text[i]) {
			continue
		}
		end := matchSecret(text, i, v)
		if end < 0 {
			continue
		}
		from, to, ok := span(i, end)
		if !ok {
			continue
		}
		b.WriteString(text[done:max(from, done)])
		b.WriteString(redacted)
		done = to
		i = to - 1
	}
	if done == 0 {
		return text
	}
	b.WriteString(text[done:])
	return b.String()
}

// encodedSpellings are what finds v in a text that encodes it, as a server
// or a proxy may quote it: its hex (matched in either case), and, for
// base64 in the standard and the URL alphabets, padded or not, the
// characters that encode v's bits alone at each of the three offsets v
// can have in what was encoded. So v is found whether it was encoded alone
// or inside a longer text, as a Basic Authorization value encodes
// "user:key".
func encodedSpellings(v string) []encoded {
	forms := []encoded{{text: hex.EncodeToString([]byte(v))}}
	for shift := range 3 {
		enc := base64.StdEncoding.EncodeToString(append(make([]byte, shift), v...))
		core := enc[(8*shift+5)/6 : 8*(shift+len(v))/6] // the characters of v's bits alone
		forms = append(forms, encoded{text: core, base64: true})
		if url := strings.NewReplacer("+", "-", "/", "_").Replace(core); url != core {
			forms = append(forms, encoded{text: url, base64: true})
		}
	}
	return forms
}

// encoded is a spelling of encodedSpellings.
type encoded struct {
	text   string
	base64 bool // a base64 core, replaced with the run that holds it
}

func (e encoded) replace(text string) string {
	if e.base64 {
		return replaceBase64(text, e.text)
	}
	return replaceSecret(text, e.text, false)
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

// startTest is mayStart for one first rune, cheap for an ASCII one: a
// spelling may start only at its two cases, an escape's first byte or a
// byte of a longer rune (one that folds to an ASCII letter, such as K,
// the Kelvin sign).
type startTest struct {
	first  rune
	lo, up byte
	ascii  bool
}

func startTestOf(v string) startTest {
	first, _ := utf8.DecodeRuneInString(v)
	t := startTest{first: first, ascii: first < utf8.RuneSelf}
	if t.ascii {
		t.lo, t.up = byte(unicode.ToLower(first)), byte(unicode.ToUpper(first))
	}
	return t
}

// may is mayStart(c, t.first).
func (t startTest) may(c byte) bool {
	if t.ascii {
		return c == t.lo || c == t.up || c == '\\' || c == '%' || c == '+' || c >= utf8.RuneSelf
	}
	return mayStart(c, t.first)
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
