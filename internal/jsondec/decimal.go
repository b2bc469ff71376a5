package jsondec

import "math"

// maxInt64Digits is the number of decimal digits of the largest int64.
const maxInt64Digits = 19

// exactInt returns the integer that a JSON number written with a fraction
// or an exponent denotes (5002.0, 5.002e3, -0.0), decided from its decimal
// text, never through float64: 9007199254740993.0 is 9007199254740993,
// not the 9007199254740992 a float64 rounds it to. It is false when the
// number is not an integer (1.5, 1e-3) or is out of int64's range (1e19,
// 9223372036854775808.0). b is a valid JSON number.
func exactInt(b []byte) (int64, bool) {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	whole, frac, scale := significand(splitNumber(b))
	digits := int64(len(whole) + len(frac))
	if digits == 0 {
		return 0, true // 0.0, -0e5
	}
	if scale < 0 || digits+scale > maxInt64Digits {
		return 0, false // a fraction is left, or 10^19 or more
	}
	u := digitsValue(whole, frac)
	for ; scale > 0; scale-- {
		u *= 10 // below 10^19: no overflow of uint64
	}
	switch {
	case !neg && u <= math.MaxInt64:
		return int64(u), true
	case neg && u <= 1<<63:
		return -int64(u), true // -(1<<63) wraps to itself: math.MinInt64
	}
	return 0, false
}

// splitNumber splits an unsigned JSON number into the digits before the
// point, those after it, and the exponent. An exponent too long for an
// int64 saturates at ±2^40, beyond any digits a document holds, which
// decides the same way as the exponent written.
func splitNumber(b []byte) (whole, frac []byte, exp int64) {
	i := 0
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	whole = b[:i]
	if i < len(b) && b[i] == '.' {
		start := i + 1
		for i = start; i < len(b) && isDigit(b[i]); i++ {
		}
		frac = b[start:i]
	}
	if i == len(b) { // no exponent
		return whole, frac, 0
	}
	i++ // e or E
	neg := b[i] == '-'
	if b[i] == '-' || b[i] == '+' {
		i++
	}
	const saturated = 1 << 40
	for ; i < len(b) && exp < saturated; i++ {
		exp = exp*10 + int64(b[i]-'0')
	}
	if neg {
		exp = -exp
	}
	return whole, frac, exp
}

// significand trims the leading and trailing zeros of the digits of whole
// and frac, read as one run with the point between them, and returns what
// is left of each and the power of ten the run is scaled by: the number is
// those digits × 10^scale.
func significand(whole, frac []byte, exp int64) (_, _ []byte, scale int64) {
	scale = exp - int64(len(frac))
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
		scale++
	}
	if len(frac) == 0 {
		for len(whole) > 0 && whole[len(whole)-1] == '0' {
			whole = whole[:len(whole)-1]
			scale++
		}
	}
	for len(whole) > 0 && whole[0] == '0' {
		whole = whole[1:]
	}
	if len(whole) == 0 {
		for len(frac) > 0 && frac[0] == '0' {
			frac = frac[1:]
		}
	}
	return whole, frac, scale
}

// digitsValue is the value of the digits of whole followed by those of
// frac, at most 19 of them.
func digitsValue(whole, frac []byte) uint64 {
	var u uint64
	for _, c := range whole {
		u = u*10 + uint64(c-'0')
	}
	for _, c := range frac {
		u = u*10 + uint64(c-'0')
	}
	return u
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
