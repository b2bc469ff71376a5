package jsondec

import (
	"reflect"
	"strconv"

	"github.com/go-faster/jx"
)

// Str reads a string.
func Str[S ~string](r *Reader, v *S) error {
	if ok, err := Expect[S](r, jx.String); !ok {
		return err
	}
	raw, err := r.raw()
	if err != nil {
		return err
	}
	s, err := unquote(raw)
	*v = S(s)
	return err
}

// Bool reads true or false.
func Bool[B ~bool](r *Reader, v *B) error {
	if ok, err := Expect[B](r, jx.Bool); !ok {
		return err
	}
	b, err := r.D.Bool()
	*v = B(b)
	return err
}

// Int reads an integer. A number with a fraction or an exponent, or one out
// of the range of I, is a type error, as in encoding/json.
func Int[I ~int | ~int8 | ~int16 | ~int32 | ~int64](r *Reader, v *I) error {
	if ok, err := Expect[I](r, jx.Number); !ok {
		return err
	}
	raw, err := r.raw()
	if err != nil {
		return err
	}
	n, ok := parseInt(raw)
	if !ok || int64(I(n)) != n {
		return typeError("number "+string(raw), reflect.TypeFor[I](), r.end(raw))
	}
	*v = I(n)
	return nil
}

// parseInt parses a well-formed JSON number as an int64.
func parseInt(b []byte) (int64, bool) {
	digits := b
	if len(b) > 0 && b[0] == '-' {
		digits = b[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return parseIntSlow(b)
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return parseIntSlow(b)
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) < len(b) {
		n = -n
	}
	return n, true
}

func parseIntSlow(b []byte) (int64, bool) {
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}

// Float64 reads a number. One out of the range of float64 is a type error.
func Float64[F ~float64](r *Reader, v *F) error {
	return float(r, v, 64)
}

// Float32 reads a number. One out of the range of float32 is a type error.
func Float32[F ~float32](r *Reader, v *F) error {
	return float(r, v, 32)
}

func float[F ~float32 | ~float64](r *Reader, v *F, bits int) error {
	if ok, err := Expect[F](r, jx.Number); !ok {
		return err
	}
	raw, err := r.raw()
	if err != nil {
		return err
	}
	f, err := strconv.ParseFloat(string(raw), bits)
	if err != nil {
		return typeError("number "+string(raw), reflect.TypeFor[F](), r.end(raw))
	}
	*v = F(f)
	return nil
}
