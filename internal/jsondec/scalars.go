package jsondec

import (
	"encoding/json"
	"strconv"
	"unsafe"
)

// Str reads a string. A number is converted to its JSON text.
func Str[S ~string](r *Reader, v *S) Status {
	switch c := r.ws(); {
	case c == '"':
		s, ok := r.readString()
		if !ok {
			return Failed
		}
		*v = S(s)
		return OK
	case c == '-' || c >= '0' && c <= '9':
		num, ok := r.scanNumber()
		if !ok {
			return Failed
		}
		*v = S(r.arena.str(num, r.left()))
		r.converted = TypeOf(num)
		return Converted
	default:
		return r.other(c)
	}
}

// Bool reads true or false. The strings "true" and "false" are converted.
func Bool[B ~bool](r *Reader, v *B) Status {
	switch c := r.ws(); c {
	case 't':
		*v = true
		return r.literal("true")
	case 'f':
		return r.literal("false")
	case '"':
		start := r.pos
		content, ok := r.stringContent()
		switch {
		case !ok:
			return Failed
		case content == "true" || content == "false":
			*v = content == "true"
			r.converted = "string"
			return Converted
		}
		return r.keptFrom(start)
	default:
		return r.other(c)
	}
}

// stringContent reads a string and returns its decoded content, valid
// until the next read.
func (r *Reader) stringContent() (string, bool) {
	b, ok := r.name()
	return unsafe.String(unsafe.SliceData(b), len(b)), ok
}

func (r *Reader) keptFrom(start int) Status {
	r.keptStart, r.keptEnd = start, r.pos
	return Kept
}

// Int reads an integer. A number with a fraction or an exponent whose
// decimal text denotes an integer exactly (5002.0, 5.002e3, never rounded
// through float64), and a string holding an integer as Go formats it, are
// converted when in the range of I; any other value is Kept.
func Int[I ~int | ~int8 | ~int16 | ~int32 | ~int64](r *Reader, v *I) Status {
	c := r.ws()
	start := r.pos
	var n int64
	found := "" // the JSON type of a value converted
	switch {
	case c == '-' || c >= '0' && c <= '9':
		num, ok := r.scanNumber()
		if !ok {
			return Failed
		}
		var exact bool
		if n, exact = parseInt(num); !exact {
			if !isPlainInt(num) {
				n, exact = exactInt(num)
				found = "number"
			}
			if !exact {
				return r.keptFrom(start)
			}
		}
	case c == '"':
		content, ok := r.stringContent()
		if !ok {
			return Failed
		}
		var exact bool
		if n, exact = quotedInt(content); !exact {
			return r.keptFrom(start)
		}
		found = "string"
	default:
		return r.other(c)
	}
	if int64(I(n)) != n {
		return r.keptFrom(start) // out of the format's range
	}
	*v = I(n)
	if found != "" {
		r.converted = found
		return Converted
	}
	return OK
}

// quotedInt parses the content of a string holding an integer as Go
// formats it: an optional minus, no leading zero, no plus, not -0.
func quotedInt(s string) (int64, bool) {
	digits := s
	if len(s) > 0 && s[0] == '-' {
		digits = s[1:]
	}
	switch {
	// a sign other than one minus is refused here: strconv.ParseInt takes a plus
	case digits == "" || digits[0] < '0' || digits[0] > '9' || digits[0] == '0' && (len(digits) > 1 || len(digits) < len(s)):
		return 0, false
	case len(digits) > 18:
		n, err := strconv.ParseInt(s, 10, 64)
		return n, err == nil
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) < len(s) {
		n = -n
	}
	return n, true
}

func isPlainInt(b []byte) bool {
	for _, c := range b {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// parseInt parses a JSON number as an int64; false when it has a fraction
// or an exponent, or is out of range.
func parseInt(b []byte) (int64, bool) {
	digits := b
	if b[0] == '-' {
		digits = b[1:]
	}
	if len(digits) > 18 {
		n, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(b), len(b)), 10, 64)
		return n, err == nil
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) < len(b) {
		n = -n
	}
	return n, true
}

// Float64 reads a number. A string holding a JSON number is converted; a
// number out of the range of float64 is Kept.
func Float64[F ~float64](r *Reader, v *F) Status {
	f, st := r.float(64)
	*v = F(f)
	return st
}

// Float32 reads a number, as Float64 does, in the range of float32.
func Float32[F ~float32](r *Reader, v *F) Status {
	f, st := r.float(32)
	*v = F(f)
	return st
}

func (r *Reader) float(bitSize int) (float64, Status) {
	c := r.ws()
	start := r.pos
	switch {
	case c == '-' || c >= '0' && c <= '9':
		num, ok := r.scanNumber()
		if !ok {
			return 0, Failed
		}
		if f, ok := parseFloat(num, bitSize); ok {
			return f, OK
		}
	case c == '"':
		content, ok := r.stringContent()
		if !ok {
			return 0, Failed
		}
		if !validNumber(content) {
			break
		}
		if f, ok := parseFloat([]byte(content), bitSize); ok {
			r.converted = "string"
			return f, Converted
		}
	default:
		return 0, r.other(c)
	}
	return 0, r.keptFrom(start)
}

// validNumber reports whether s is a JSON number.
func validNumber(s string) bool {
	if s == "" {
		return false
	}
	r := Reader{data: []byte(s)}
	_, ok := r.scanNumber()
	return ok && r.pos == len(s)
}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat parses a JSON number. Numbers of at most 15 significant
// digits with a short exponent are exact in float64 arithmetic (both the
// mantissa and the power of ten are, and one division or multiplication
// rounds correctly); others go to strconv.
func parseFloat(b []byte, bitSize int) (float64, bool) {
	if bitSize == 64 {
		if f, ok := fastFloat(b); ok {
			return f, true
		}
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), bitSize)
	return f, err == nil
}

func fastFloat(b []byte) (float64, bool) {
	i, neg := 0, b[0] == '-'
	if neg {
		i++
	}
	var mant uint64
	nd, exp := 0, 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		mant = mant*10 + uint64(b[i]-'0')
		nd++
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			mant = mant*10 + uint64(b[i]-'0')
			nd++
			exp--
		}
	}
	if i < len(b) || nd > 15 { // an exponent, or too many digits
		return 0, false
	}
	f := float64(mant)
	if exp < 0 {
		if -exp >= len(pow10) {
			return 0, false
		}
		f /= pow10[-exp]
	}
	if neg {
		f = -f
	}
	return f, true
}

// Raw reads any value verbatim, as json.RawMessage does: null is kept as
// the text null.
func (r *Reader) Raw(v *json.RawMessage) Status {
	c := r.ws()
	start := r.pos
	if c == '{' || c == '[' {
		if r.skip() == Failed {
			return Failed
		}
	} else if r.scalar() == Failed {
		return Failed
	}
	*v = r.arena.bytes(r.data[start:r.pos], r.left())
	return OK
}

// Fallback reads a value with encoding/json into v, a field of a type the
// generated decoders do not read themselves. A value encoding/json refuses
// is Kept, and v keeps its zero value.
func Fallback[T any](r *Reader, v *T) Status {
	c := r.ws()
	start := r.pos
	if r.skip() == Failed {
		return Failed
	}
	if err := json.Unmarshal(r.data[start:r.pos], v); err != nil {
		var zero T
		*v = zero
		return r.keptFrom(start)
	}
	if c == 'n' {
		return Null
	}
	return OK
}

// Zero sets *p to its zero value: a field read again starts afresh.
func Zero[T any](p *T) {
	var zero T
	*p = zero
}
