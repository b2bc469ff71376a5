package jsondec

import (
	"encoding/json"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/extra"
)

// floatWrittenIntegers are numbers written with a fraction or an exponent
// where an integer belongs, and the int64 each denotes exactly.
var floatWrittenIntegers = map[string]int64{
	`5002.0`: 5002, `5.002e3`: 5002, `5002E0`: 5002, `500200e-2`: 5002, `-5002.000`: -5002, `0.5002e+4`: 5002,
	`0.0`: 0, `-0.0`: 0, `0e999999999999999999999`: 0, `0.000e-99999999999999999999`: 0, `1e18`: 1e18, `100e-2`: 1,
	`10000000000000000000.0e-1`: 1e18,
	// past 2^53, where float64 rounds: decided from the decimal text
	`9007199254740993.0`: 1<<53 + 1, `9.007199254740993e15`: 1<<53 + 1, `90071992547409930e-1`: 1<<53 + 1,
	`-9007199254740993.0`: -(1<<53 + 1), `123456789012345678.9e1`: 1234567890123456789,
	`9223372036854775807.0`: math.MaxInt64, `9.223372036854775807e18`: math.MaxInt64, `9.2233720368547758070e18`: math.MaxInt64,
	`-9223372036854775808.0`: math.MinInt64, `-9.223372036854775808e18`: math.MinInt64,
}

// floatWrittenNonIntegers are numbers written with a fraction or an
// exponent that are no integer, or none in int64's range.
var floatWrittenNonIntegers = []string{
	`1.5`, `9007199254740993.5`, `1e-3`, `1.0000000000000000001`, `123e-99999999999999999999`, `-0.5`,
	`1e19`, `2e19`, `18446744073709551617.0`, `9223372036854775808.0`, `-9223372036854775809.0`,
	`9.223372036854775808e18`, `1e99999999999999999999`, `1e1099511627776`, `-1e1099511627777`,
}

// A number written with a fraction or an exponent is converted to an
// integer only when its decimal text denotes exactly that integer, never
// rounded through float64: 2^53+1 stays 2^53+1. Any other is kept, never
// rounded or wrapped.
func TestFloatWrittenIntegersConvertExactly(t *testing.T) {
	for data, want := range floatWrittenIntegers {
		var n int64
		st := readOne(data, func(r *Reader) Status { return Int(r, &n) })
		assert.Equal(t, Converted, st, data)
		assert.Equal(t, want, n, data)
	}
	for _, data := range floatWrittenNonIntegers {
		var n int64
		st := readOne(data, func(r *Reader) Status { return Int(r, &n) })
		assert.Equal(t, Kept, st, data)
		assert.Zero(t, n, data)
	}
}

// Every number of the shared cases converts to an integer as math/big
// says its decimal text is one, within the integer's range.
func TestNumberCasesConvertAsMathBigSays(t *testing.T) {
	cases := slices.Concat(numberCases, floatWrittenNonIntegers, slices.Collect(maps.Keys(floatWrittenIntegers)))
	for _, data := range cases {
		checkIntAgainstBig[int64](t, data)
		checkIntAgainstBig[int32](t, data)
		checkIntAgainstBig[int8](t, data)
	}
}

// checkIntAgainstBig is the oracle of Int on a JSON number: math/big reads
// the number's decimal text exactly, and Int gives that integer when it is
// one in the range of I, and keeps the value (leaving 0) when it is not.
// Text that is not one JSON number is left to likeEncodingJSON.
func checkIntAgainstBig[I ~int8 | ~int16 | ~int32 | ~int64](t *testing.T, data string) {
	t.Helper()
	text := strings.Trim(data, " \t\r\n")
	if !json.Valid([]byte(text)) || text == "" || text[0] != '-' && (text[0] < '0' || text[0] > '9') {
		return
	}
	var n I
	st := readOne(data, func(r *Reader) Status { return Int(r, &n) })
	want, fits := exactInteger(t, text, int64(minOf[I]()), int64(maxOf[I]()))
	switch {
	case fits && (st != OK && st != Converted || int64(n) != want):
		t.Fatalf("%T from %s: math/big reads %d, we give %d (%v)", n, data, want, n, st)
	case !fits && (st != Kept || n != 0):
		t.Fatalf("%T from %s: math/big reads no integer in range, we give %d (%v)", n, data, n, st)
	}
}

// exactInteger is the integer the JSON number text denotes, read with
// math/big, and whether it is one within [lo, hi]. An exponent far beyond
// the digits written decides without computing its power: the number is
// then 0, far past any range, or a fraction.
func exactInteger(t *testing.T, text string, lo, hi int64) (int64, bool) {
	t.Helper()
	mant, expText, _ := strings.Cut(strings.ToLower(text), "e")
	m, ok := new(big.Rat).SetString(mant)
	require.True(t, ok, mant)
	exp, err := strconv.ParseInt(expText, 10, 64)
	if expText == "" {
		exp, err = 0, nil
	}
	if bound := int64(len(text) + 40); err != nil || exp > bound || exp < -bound {
		return 0, m.Sign() == 0 // |m| is between 10^-len and 10^len: 10^±(len+40) puts it out of reach
	}
	pow := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(max(exp, -exp)), nil))
	if exp < 0 {
		pow.Inv(pow)
	}
	v := m.Mul(m, pow)
	if !v.IsInt() || !v.Num().IsInt64() {
		return 0, false
	}
	i := v.Num().Int64()
	return i, i >= lo && i <= hi
}

func minOf[I ~int8 | ~int16 | ~int32 | ~int64]() I {
	var n I
	return -1 << (8*unsafe.Sizeof(n) - 1)
}

func maxOf[I ~int8 | ~int16 | ~int32 | ~int64]() I { return -(minOf[I]() + 1) }

// A number kept where an integer belongs is kept raw under the field's
// name, and its finding quotes it and says so: it cannot be taken for the
// finding of a number converted without loss.
func TestKeptNumberIsReportedAsKept(t *testing.T) {
	const converted = "M.id is integer/int64; the answer has number"
	keptRaw := func(v string) string {
		return "M.id is integer/int64; the answer has " + v + ", which is not an integer in its range: kept raw"
	}
	for data, detail := range map[string]string{
		`5002.0`: converted, `9007199254740993.0`: converted,
		`1e19`: keptRaw(`1e19`), `1.5`: keptRaw(`1.5`), `9223372036854775808.0`: keptRaw(`9223372036854775808.0`),
		`-9223372036854775809.0`: keptRaw(`-9223372036854775809.0`),
	} {
		site := Site{Name: "id", Path: "M.id", At: "M.id", Type: "integer/int64"}
		var found []drift.Finding
		var more extra.Properties
		var n int64
		r := Begin([]byte(data), &Options{Note: func(f drift.Finding) { found = append(found, f) }})
		require.True(t, r.Field(Int(r, &n), &site, &more), data)
		kept, _ := more.Get("id")
		kept = slices.Clone(kept)
		require.NoError(t, r.Finish(OK, &site), data)
		require.Len(t, found, 1, data)
		assert.Equal(t, detail, found[0].Detail, data)
		assert.Equal(t, "number", found[0].JSONType, data)
		if detail == converted {
			assert.Equal(t, floatWrittenIntegers[data], n, data)
			assert.Nil(t, kept, "%s is converted, not kept raw", data)
			continue
		}
		assert.Zero(t, n, data)
		assert.Equal(t, data, string(kept), "%s is kept raw under the field's name", data)
	}
}
