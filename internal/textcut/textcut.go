// Package textcut cuts text that the SDK quotes from a server or a user
// (a message, a state, a name, a URL) to a bound in bytes, on a character
// boundary, and marks the cut with how many bytes were left out: one
// spelling of a cut for every error, log line and attribute.
package textcut

import (
	"strconv"
	"unicode/utf8"
)

// Cut returns s when it has at most limit bytes, else its first bytes (up
// to limit, at a character boundary) followed by …(+N bytes), N the bytes cut.
func Cut(s string, limit int) string {
	head := Prefix(s, limit)
	if len(head) == len(s) {
		return s
	}
	return head + mark(len(s)-len(head))
}

// Quote is [strconv.Quote] of s cut as [Cut] cuts it, the mark after the
// closing quote.
func Quote(s string, limit int) string {
	head := Prefix(s, limit)
	if len(head) == len(s) {
		return strconv.Quote(s)
	}
	return strconv.Quote(head) + mark(len(s)-len(head))
}

// Prefix is the longest prefix of s of at most limit bytes that ends at a
// character boundary.
func Prefix(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	n := max(limit, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func mark(n int) string { return "…(+" + strconv.Itoa(n) + " bytes)" }
