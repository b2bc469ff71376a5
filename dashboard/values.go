package dashboard

import (
	"unicode/utf8"
)

// textUnits counts the characters of a cell's text as Excel counts them,
// in UTF-16 code units, an escape _xHHHH_ (how a workbook writes a
// character XML cannot carry) counting as the one character it stands
// for. ok is false when text is not UTF-8 or holds a character XML cannot
// carry.
func textUnits(text []byte) (units int, ok bool) {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
				return units, false
			}
			if c == '_' && isEscape(text[i:]) {
				i += len("_x0000_")
			} else {
				i++
			}
			units++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && n == 1 || !isXMLChar(r) {
			return units, false
		}
		i += n
		units += 1 + boolInt(r >= 0x10000)
	}
	return units, true
}

// isEscape reports whether b begins with _xHHHH_.
func isEscape(b []byte) bool {
	if len(b) < 7 || b[1] != 'x' || b[6] != '_' {
		return false
	}
	for _, c := range b[2:6] {
		if !isHex(c) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// trimSpace drops the XML white space around b.
func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isNumber reports whether b is a number as a workbook writes one in a
// number cell: an optional sign, digits with an optional fraction, and an
// optional exponent (xsd:double without INF and NaN, which a cell cannot
// hold).
func isNumber(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(b) && isDigit(b[i]); i++ {
		digits++
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && isDigit(b[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		exp := i
		for ; i < len(b) && isDigit(b[i]); i++ {
		}
		if i == exp {
			return false
		}
	}
	return i == len(b)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// errorValues are the error values a cell of type e holds.
var errorValues = map[string]bool{
	"#NULL!": true, "#DIV/0!": true, "#VALUE!": true, "#REF!": true, "#NAME?": true,
	"#NUM!": true, "#N/A": true, "#GETTING_DATA": true,
}

// boolValue reads the value of a cell of type b: 1 or 0 (true or false
// are read too).
func boolValue(v []byte) (byte, bool) {
	switch string(v) {
	case "1", "true":
		return '1', true
	case "0", "false":
		return '0', true
	}
	return 0, false
}

// parseIndex reads a non-negative decimal integer of at most 9 digits.
func parseIndex(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// cellRef reads a cell reference such as B7 into its column and row
// numbers, both from 1; ok is false when ref is not one.
func cellRef(ref []byte) (col, row int, ok bool) {
	i := 0
	for ; i < len(ref) && i < 4; i++ {
		c := ref[i] | 0x20 // lower case
		if c < 'a' || c > 'z' {
			break
		}
		col = col*26 + int(c-'a'+1)
	}
	if i == 0 || i == 4 {
		return 0, 0, false
	}
	row, ok = parseIndex(ref[i:])
	return col, row, ok && row > 0
}

// appendColumn appends the letters of column col (from 1).
func appendColumn(dst []byte, col int) []byte {
	var b [4]byte
	i := len(b)
	for col > 0 {
		col--
		i--
		b[i] = byte('A' + col%26)
		col /= 26
	}
	return append(dst, b[i:]...)
}
