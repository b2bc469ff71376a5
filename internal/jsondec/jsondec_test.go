package jsondec

import (
	"encoding/json"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/drift"
)

var testSite = Site{Path: "T.f", At: "T.f", Type: "any"}

// decode reads data as one value of T with read, and the findings.
func decode[T any](data string, read func(r *Reader, v *T) Status) (T, []drift.Finding, error) {
	var v T
	var found []drift.Finding
	r := Begin([]byte(data), &Options{Note: func(f drift.Finding) { found = append(found, f) }})
	err := r.Finish(read(r, &v), &testSite)
	return v, found, err
}

// likeEncodingJSON fails unless read gives what json.Unmarshal gives where
// json.Unmarshal succeeds, and fails exactly where the document is not
// JSON.
func likeEncodingJSON[T any](t *testing.T, data string, read func(r *Reader, v *T) Status) {
	t.Helper()
	got, _, err := decode(data, read)
	if valid := json.Valid([]byte(data)); valid != (err == nil) {
		t.Fatalf("%T from %q: json.Valid says %v, we say %v", got, data, valid, err)
	}
	var want T
	if json.Unmarshal([]byte(data), &want) == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%T from %q: we give %#v, encoding/json gives %#v", want, data, got, want)
	}
}

// readObject reads an object into a map of raw values.
func readObject(r *Reader, m *map[string]json.RawMessage) Status {
	if st := r.Object(); st != OK {
		return st
	}
	*m = map[string]json.RawMessage{}
	for key, ok := r.FirstKey(); ok; key, ok = r.NextKey() {
		if r.Entry(*m, key) == Failed {
			return Failed
		}
	}
	if r.Failed() {
		return Failed
	}
	return OK
}

func raw(r *Reader, v *json.RawMessage) Status { return r.Raw(v) }

var stringCases = []string{
	`"plain"`, `""`, `"caf\u00e9"`, "\"caf\xc3\xa9\"", `"tab\tnew\nline \"quoted\" back\\slash \/"`, `"\b\f\r"`,
	`"\ud83d\ude00"`, `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\udc00\ud800\udc00"`, `"\ud800\ud800\udc00"`, `"\ud800\n"`,
	"\"\xff\"", "\"a\xc3\"", "\"\xe2\x82\"", "\"\xe2\x82\\u0080\"", "\"\xed\xa0\x80\"", "\"ok\x7f\"", `"0123456789abcdef\"x"`,
	"\"ctl\x01\"", `"\x"`, `"\u12"`, `"\u12zz"`, `"open`, `x"`, `7`, `null`, `["s"]`, `"\`, `"\u"`,
}

func TestStringsDecodeAsEncodingJSON(t *testing.T) {
	for _, s := range stringCases {
		likeEncodingJSON(t, s, Str[string])
		likeEncodingJSON(t, " "+s+"\n", Str[string])
	}
}

// Every escape, good or bad, and every byte that ends or breaks a string,
// at every offset of the eight bytes a string is scanned by and across two
// of them, after plain text and text beyond ASCII, decodes (as a value, as
// a raw value and skipped as a field name) as encoding/json decodes it.
func TestEscapesAtEveryOffset(t *testing.T) {
	pieces := []string{`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00e9`, `\ud83d\ude00`, `\\"`, `\"\"`,
		`\x`, `\u12`, "\\\x01", "\x01", "\x1f", `\`, "\xc3\xa9", "\xff", ` `}
	for _, lead := range []string{"", "\xc3\xa9"} {
		for pad := range 17 {
			for _, p := range pieces {
				for _, tail := range []string{`"`, `abcdefgh"`, p + `"`, `"x`} {
					s := `"` + lead + strings.Repeat("a", pad) + p + tail
					likeEncodingJSON(t, s, Str[string])
					likeEncodingJSON(t, s, raw)
					likeEncodingJSON(t, "{"+s+":1}", readObject)
				}
			}
		}
	}
}

func TestFieldNamesDecodeAsEncodingJSON(t *testing.T) {
	for _, s := range stringCases {
		likeEncodingJSON(t, "{"+s+":1}", readObject)
		likeEncodingJSON(t, `{"a" : [1, 2],`+"\n\t"+s+" :\n {\"b\":null} , \"a\":3}", readObject)
	}
	likeEncodingJSON(t, `{"a":1,"a":2,"b":{"c" : [ 1 ]}}`, readObject)
}

var numberCases = []string{`0`, `-0`, `7`, `-7`, `123456789012345678`, `9223372036854775807`, `9223372036854775808`,
	`-9223372036854775808`, `-9223372036854775809`, `2147483647`, `2147483648`, `-2147483649`, `1.0`, `1e2`, `1E+2`, `-1.5e-3`,
	`0.1`, `0.25`, `123456.789`, `999999999999999`, `9999999999999999`, `0.000000000000000000001`, `1.7976931348623157e308`,
	`1e308`, `1e309`, `-1e400`, `4.9e-324`, `1e-400`, `01`, `1.`, `.5`, `-`, `+1`, `1x`, `"1"`, `true`, `null`, `[1]`, `1e`, `1e+`,
	// 16 to 19 significant digits: beyond what one float64 operation rounds exactly
	`0.3041066484680849`, `8.948660402211254`, `-1234567.890123456`, `0.12345678901234567`, `98765.43210987654`, `1.000000000000000111`,
	`9007199254740993.0`, `0.1000000000000000055511`, `4611686018427387904.5`, `1234567890123456789`, `123456789.0123456789`}

func TestNumbersDecodeAsEncodingJSON(t *testing.T) {
	for _, n := range numberCases {
		likeEncodingJSON(t, n, Int[int64])
		likeEncodingJSON(t, n, Int[int32])
		likeEncodingJSON(t, n, Int[int8])
		likeEncodingJSON(t, n, Float64[float64])
		likeEncodingJSON(t, n, Float32[float32])
	}
}

func TestOtherValuesDecodeAsEncodingJSON(t *testing.T) {
	type enum string
	for _, v := range []string{`true`, `false`, `null`, `tru`, `nul`, `fals`, `"true"`, `1`, `{}`, `[]`, `[1, {"a" : "b"} ]`, `{"a":[]}`,
		` "s" `, `"e"`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{1:1}`, `[}`, `{]`, `[[[]]`, `]`, ``, ` `, `{"a":1}}`} {
		likeEncodingJSON(t, v, Bool[bool])
		likeEncodingJSON(t, v, Str[enum])
		likeEncodingJSON(t, v, raw)
		likeEncodingJSON(t, v, Fallback[[]int])
		likeEncodingJSON(t, v, readObject)
	}
}

// Values of another JSON type are converted when nothing is lost, and
// reported either way.
func TestConversions(t *testing.T) {
	type conv struct {
		data string
		want any
		st   Status
	}
	check := func(t *testing.T, c conv, got any, st Status) {
		t.Helper()
		assert.Equal(t, c.st, st, c.data)
		assert.Equal(t, c.want, got, c.data)
	}
	for _, c := range []conv{
		{`7`, "7", Converted}, {`-1.5e3`, "-1.5e3", Converted}, {`true`, "", Kept}, {`{}`, "", Kept}, {`"s"`, "s", OK},
	} {
		var s string
		st := readOne(c.data, func(r *Reader) Status { return Str(r, &s) })
		check(t, c, s, st)
	}
	for _, c := range []conv{
		{`"42"`, int32(42), Converted}, {`"-42"`, int32(-42), Converted}, {`"042"`, int32(0), Kept}, {`"4.2"`, int32(0), Kept},
		{`"2147483648"`, int32(0), Kept}, {`2147483648`, int32(0), Kept}, {`2.0`, int32(2), Converted}, {`1e3`, int32(1000), Converted},
		{`2.5`, int32(0), Kept}, {`" 1"`, int32(0), Kept}, {`true`, int32(0), Kept}, {`[1]`, int32(0), Kept}, {`7`, int32(7), OK},
	} {
		var n int32
		st := readOne(c.data, func(r *Reader) Status { return Int(r, &n) })
		check(t, c, n, st)
	}
	for _, c := range []conv{
		{`"0.25"`, 0.25, Converted}, {`"-1e3"`, -1000.0, Converted}, {`"1e400"`, 0.0, Kept}, {`"0x10"`, 0.0, Kept}, {`" 1"`, 0.0, Kept},
		{`"NaN"`, 0.0, Kept}, {`""`, 0.0, Kept}, {`1e400`, 0.0, Kept}, {`false`, 0.0, Kept},
	} {
		var f float64
		st := readOne(c.data, func(r *Reader) Status { return Float64(r, &f) })
		check(t, c, f, st)
	}
	for _, c := range []conv{
		{`"true"`, true, Converted}, {`"false"`, false, Converted}, {`"TRUE"`, false, Kept}, {`1`, false, Kept}, {`"yes"`, false, Kept},
	} {
		var b bool
		st := readOne(c.data, func(r *Reader) Status { return Bool(r, &b) })
		check(t, c, b, st)
	}
}

// An integer out of int64's range is kept, never wrapped: 19 digits may
// overflow, so the fast path leaves them to strconv. The edges of the
// range convert exactly, from a number and from a string.
func TestIntegersOutOfRangeAreKept(t *testing.T) {
	for data, want := range map[string]int64{
		`9223372036854775807`: math.MaxInt64, `-9223372036854775808`: math.MinInt64, `999999999999999999`: 999999999999999999,
		`"9223372036854775807"`: math.MaxInt64, `"-9223372036854775808"`: math.MinInt64,
		`9223372036854775808`: 0, `-9223372036854775809`: 0, `9999999999999999999`: 0, `-9999999999999999999`: 0,
		`18446744073709551616`: 0, `"9223372036854775808"`: 0, `"-9999999999999999999"`: 0,
	} {
		var n int64
		st := readOne(data, func(r *Reader) Status { return Int(r, &n) })
		wantSt := OK
		switch {
		case want == 0:
			wantSt = Kept
		case data[0] == '"':
			wantSt = Converted
		}
		assert.Equal(t, wantSt, st, data)
		assert.Equal(t, want, n, data)
	}
}

func readOne(data string, read func(r *Reader) Status) Status {
	r := Begin([]byte(data), nil)
	defer r.release()
	return read(r)
}

// A kept value is reported once per site with the JSON type found, or
// with the value when its type is right and its format or range is not,
// or when it is a number kept where an integer belongs (one converted
// without loss gives its type); KeptRaw says which were kept ("42" is
// converted, "x" kept, with the same detail).
func TestTypeFindings(t *testing.T) {
	site := Site{Path: "M.n", At: "M.n", Type: "integer/int32"}
	for data, want := range map[string]struct {
		detail, jsonType string
		keptRaw          bool
	}{
		`"x"`:        {"M.n is integer/int32; the answer has string", "string", true},
		`"42"`:       {"M.n is integer/int32; the answer has string", "string", false},
		`2.5`:        {"M.n is integer/int32; the answer has 2.5, which is not an integer in its range: kept raw", "number", true},
		`2.0`:        {"M.n is integer/int32; the answer has number", "number", false},
		`4294967296`: {"M.n is integer/int32; the answer has 4294967296", "integer", true},
		`[1]`:        {"M.n is integer/int32; the answer has array", "array", true},
	} {
		var n int32
		var found []drift.Finding
		r := Begin([]byte(data), &Options{Note: func(f drift.Finding) { found = append(found, f) }})
		st := Int(r, &n)
		require.NoError(t, r.Finish(st, &site))
		assert.Equal(t, []drift.Finding{{Kind: drift.KindType, Path: "M.n", Detail: want.detail, Drift: true,
			Model: "M", Property: "n", JSONType: want.jsonType, SpecType: "integer", KeptRaw: want.keptRaw}}, found, data)
	}
}

// On the rows of one document, a value kept raw at a place is noted even
// where a value converted without loss was noted before, and the other
// way round; each of the two is still noted once however many rows repeat
// it.
func TestKeptAndConvertedAreNotedApart(t *testing.T) {
	site := Site{Path: "M.id", At: "M.id", Type: "integer/int64"}
	read := func(r *Reader, v *[]int64) Status {
		if st := r.Array(); st != OK {
			return st
		}
		for ok := r.FirstElem(); ok; ok = r.NextElem() {
			var n int64
			if r.Elem(Int(r, &n), &site) == Failed {
				return Failed
			}
			*v = append(*v, n)
		}
		if r.Failed() {
			return Failed
		}
		return OK
	}
	converted := "M.id is integer/int64; the answer has number"
	kept := func(v string) string {
		return "M.id is integer/int64; the answer has " + v + ", which is not an integer in its range: kept raw"
	}
	for data, want := range map[string][]string{
		`[5002.0, 5003.0, 1e19, 1e19, 5004.0]`: {converted, kept("1e19")},
		`[1e19, 1.5, 5002.0, 1e19, 5003.0]`:    {kept("1e19"), converted},
		`[5002.0, 5003.0]`:                     {converted},
		`[1e19, 1.5]`:                          {kept("1e19")},
	} {
		_, found, err := decode(data, read)
		require.NoError(t, err, data)
		var details []string
		for _, f := range found {
			details = append(details, f.Detail)
			assert.Equal(t, f.Detail != converted, f.KeptRaw, "%s: %s", data, f.Detail)
		}
		assert.Equal(t, want, details, data)
	}
}

// Malformed JSON fails at once, with the byte offset where it stops being
// JSON; a value of another type does not.
func TestMalformedJSONSaysWhere(t *testing.T) {
	for data, offset := range map[string]int64{`{"a":1,}`: 7, `[1,2 3]`: 5, `{"a" 1}`: 5, `"ab`: 3, `[1] x`: 4, `{"a":tru}`: 8, `01`: 1, "\"a\x01\"": 2} {
		_, _, err := decode(data, readObject)
		var e *Error
		require.ErrorAs(t, err, &e, data)
		assert.Equal(t, offset, e.Offset, data)
		assert.Contains(t, err.Error(), "malformed JSON at byte ", data)
	}
	_, _, err := decode(`[{"a":1},"x",3]`, readObject)
	assert.NoError(t, err, "another type is not malformed")
}

// Nesting as deep as encoding/json allows decodes, one level more fails.
func TestNestingDepth(t *testing.T) {
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		arrays := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		objects := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
		for _, doc := range []string{arrays, objects} {
			likeEncodingJSON(t, doc, raw)
			likeEncodingJSON(t, doc, readObject)
		}
	}
}

// Arrays and objects nested in turn, past the 64 levels a skip keeps in a
// word, are followed level by level: a value after an inner one closes,
// a container of the other kind follows at the same level, and a closing
// bracket of the wrong kind fails where encoding/json fails.
func TestMixedNesting(t *testing.T) {
	for _, depth := range []int{63, 64, 65, 130, maxDepth / 2} {
		var open strings.Builder
		closing := make([]string, depth)
		for i := range depth {
			if i%2 == 0 {
				open.WriteString(`[1,{"a":`)
				closing[depth-1-i] = `},[5],2]` // an array where an object was
			} else {
				open.WriteString(`{"b":[`)
				closing[depth-1-i] = `,3],"c":{"d":5}}` // an object where an array was
			}
		}
		doc := open.String() + "0" + strings.Join(closing, "")
		wrong := []string{doc, strings.Replace(doc, "]", "}", 1), strings.Replace(doc, "[5]", "[5}", 1)}
		for _, d := range wrong {
			likeEncodingJSON(t, d, raw)
			likeEncodingJSON(t, d, readObject)
		}
	}
}

// Strings and raw values share blocks, and none is written where another
// lies: appending to a raw value copies it.
func TestArenaValuesAreIndependent(t *testing.T) {
	var m map[string]json.RawMessage
	_, _, err := decode(`{"a":[1],"b":"s","c":2}`, func(r *Reader, _ *int) Status { return readObject(r, &m) })
	require.NoError(t, err)
	a := append(m["a"], 'x')
	assert.Equal(t, `[1]x`, string(a))
	assert.Equal(t, `"s"`, string(m["b"]))
	assert.Equal(t, `2`, string(m["c"]))
	assert.Equal(t, 3, cap(m["a"]))
}

func FuzzStringsAndNames(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		likeEncodingJSON(t, s, Str[string])
		likeEncodingJSON(t, "{"+s+":"+s+"}", readObject)
	})
}

// FuzzNumbers compares numbers with encoding/json where it decodes them,
// and every number read as an integer with math/big, which reads its
// decimal text exactly: encoding/json refuses 5002.0 for an integer, so
// only math/big can say a conversion was right.
func FuzzNumbers(f *testing.F) {
	for _, n := range slices.Concat(numberCases, floatWrittenNonIntegers, slices.Sorted(maps.Keys(floatWrittenIntegers))) {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n string) {
		likeEncodingJSON(t, n, Int[int64])
		likeEncodingJSON(t, n, Int[int16])
		checkIntAgainstBig[int64](t, n)
		checkIntAgainstBig[int16](t, n)
		likeEncodingJSON(t, n, Float64[float64])
		likeEncodingJSON(t, n, Float32[float32])
		likeEncodingJSON(t, n, raw)
	})
}

// A value outside an enumeration is reported once per value: a second
// value the spec does not know at the same place is a finding of its own,
// and a value repeated on every row is one.
func TestEnumFindingsPerValue(t *testing.T) {
	site := Site{Path: "M.status", At: "M.status", Named: "Status", Type: "string"}
	known := map[string]bool{"DONE": true}
	read := func(r *Reader, v *[]string) Status {
		if st := r.Array(); st != OK {
			return st
		}
		for ok := r.FirstElem(); ok; ok = r.NextElem() {
			var s string
			if st := Str(r, &s); st != OK {
				return st
			}
			if !known[s] {
				r.Enum(&site, s)
			}
			*v = append(*v, s)
		}
		if r.Failed() {
			return Failed
		}
		return OK
	}
	got, found, err := decode(`["DONE","PAUSED","PAUSED","ARCHIVED","DONE","PAUSED"]`, read)
	require.NoError(t, err)
	assert.Equal(t, []string{"DONE", "PAUSED", "PAUSED", "ARCHIVED", "DONE", "PAUSED"}, got)
	want := func(value string) drift.Finding {
		return drift.Finding{Kind: drift.KindEnum, Path: "M.status", Detail: "M.status (Status): the answer has \"" + value + "\", which the spec does not allow",
			Drift: true, Model: "M", Property: "status", JSONType: "string", Value: json.RawMessage(`"` + value + `"`)}
	}
	assert.Equal(t, []drift.Finding{want("PAUSED"), want("ARCHIVED")}, found)
}

func TestKeys(t *testing.T) {
	keys, value, ok := Keys([]byte(` {"b":1,"items":{"x":[1]},"a":null,"b":2} `), "items")
	assert.True(t, ok)
	assert.Equal(t, []string{"a", "b", "items"}, keys)
	assert.Equal(t, `{"x":[1]}`, string(value))
	_, value, ok = Keys([]byte(`{"a":1}`), "items")
	assert.True(t, ok)
	assert.Nil(t, value)
	for _, doc := range []string{`[1]`, `null`, `{"a":1`, `{"a":1} x`, `{"a":tru}`} {
		_, _, ok := Keys([]byte(doc), "a")
		assert.False(t, ok, doc)
	}
}

// Decimals of 16 to 19 significant digits, which the fast path must leave
// to strconv (one float64 division of a mantissa that large is not always
// correctly rounded), parse to the nearest float64, as strconv does.
func TestLongDecimalsParseExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 19))
	wrong := 0
	for i := range 4000 {
		digits := 16 + i%4
		mant := strconv.FormatUint(rng.Uint64N(9e18)+1e18, 10)[:digits]
		point := 1 + rng.IntN(digits-1)
		text := mant[:point] + "." + mant[point:]
		want, err := strconv.ParseFloat(text, 64)
		require.NoError(t, err)
		var got float64
		if st := readOne(text, func(r *Reader) Status { return Float64(r, &got) }); st != OK || got != want {
			wrong++
			if wrong <= 3 {
				t.Errorf("%s: got %v (%v), want %v", text, got, st, want)
			}
		}
	}
	assert.Zero(t, wrong, "of 4000 decimals of 16 to 19 digits")
}

// A string holding an integer converts exactly when it is the integer as
// Go formats it.
func TestQuotedIntegersAsGoFormatsThem(t *testing.T) {
	for _, s := range []string{"0", "-0", "00", "01", "-01", "7", "-7", "+7", "", "-", "1e3", "12a", " 1", "9223372036854775807",
		"-9223372036854775808", "9223372036854775808", "123456789012345678", "-123456789012345678", "1234567890123456789", "0x1", "+1234567890123456789", "-+123456789012345678"} {
		n, err := strconv.ParseInt(s, 10, 64)
		want := err == nil && strconv.FormatInt(n, 10) == s
		got, ok := quotedInt(s)
		assert.Equal(t, want, ok, s)
		if want {
			assert.Equal(t, n, got, s)
		}
	}
}

// TypeOf names each JSON type as drift findings do; a number is an
// integer only when its text has no fraction and no exponent.
func TestTypeOfNamesJSONTypes(t *testing.T) {
	for raw, want := range map[string]string{
		`"x"`: "string", `""`: "string", `true`: "boolean", `false`: "boolean", `null`: "null",
		`{"a":1}`: "object", `[1]`: "array", `0`: "integer", `-12`: "integer",
		`12345678901234567890123`: "integer", `2.5`: "number", `1e3`: "number", `1E-3`: "number", `-0.0`: "number", ``: "",
	} {
		assert.Equal(t, want, TypeOf([]byte(raw)), raw)
	}
}
