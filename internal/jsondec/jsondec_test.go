package jsondec

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/go-faster/jx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decode reads data as one value of T with read.
func decode[T any](data string, read func(r *Reader, v *T) error) (T, error) {
	var v T
	err := Decode[T]([]byte(data), func(r *Reader) error { return read(r, &v) })
	return v, err
}

// sameAsEncodingJSON fails unless read and json.Unmarshal both fail on data
// or give the same value.
func sameAsEncodingJSON[T any](t *testing.T, data string, read func(r *Reader, v *T) error) {
	t.Helper()
	got, err := decode(data, read)
	var want T
	wantErr := json.Unmarshal([]byte(data), &want)
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%T from %q: we say %v, encoding/json says %v", want, data, err, wantErr)
	}
	if wantErr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%T from %q: we give %#v, encoding/json gives %#v", want, data, got, want)
	}
}

// readObject reads an object into a map of raw values, as the decoders keep
// unknown fields.
func readObject(r *Reader, m *map[string]json.RawMessage) error {
	if ok, err := Expect[map[string]json.RawMessage](r, jx.Object); !ok {
		return err
	}
	*m = map[string]json.RawMessage{}
	return r.D.ObjBytes(func(_ *jx.Decoder, key []byte) error { return r.Unknown(m, key) })
}

var stringCases = []string{
	`"plain"`, `""`, `"caf\u00e9"`, "\"caf\xc3\xa9\"", `"tab\tnew\nline \"quoted\" back\\slash \/"`,
	`"\ud83d\ude00"`, `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\udc00\ud800\udc00"`, `"\ud800\ud800\udc00"`, `"\ud800\n"`,
	"\"\xff\"", "\"a\xc3\"", "\"\xe2\x82\"", "\"\xe2\x82\\u0080\"", "\"\xed\xa0\x80\"", "\"ok\x7f\"",
	"\"ctl\x01\"", `"\x"`, `"\u12"`, `"\u12zz"`, `"open`, `x"`, `7`, `null`, `["s"]`,
}

func TestStringsDecodeAsEncodingJSON(t *testing.T) {
	for _, s := range stringCases {
		sameAsEncodingJSON(t, s, Str[string])
	}
}

func TestFieldNamesDecodeAsEncodingJSON(t *testing.T) {
	for _, s := range stringCases {
		sameAsEncodingJSON(t, "{"+s+":1}", readObject)
		sameAsEncodingJSON(t, `{"a" : [1, 2],`+"\n\t"+s+" :\n {\"b\":null} , \"a\":3}", readObject)
	}
	sameAsEncodingJSON(t, `{"a":1,"a":2,"b":{"c" : [ 1 ]}}`, readObject)
}

func TestNumbersDecodeAsEncodingJSON(t *testing.T) {
	for _, n := range []string{`0`, `-0`, `7`, `-7`, `123456789012345678`, `9223372036854775807`, `9223372036854775808`,
		`-9223372036854775808`, `-9223372036854775809`, `2147483647`, `2147483648`, `-2147483649`, `1.0`, `1e2`, `1E+2`, `-1.5e-3`,
		`1e308`, `1e309`, `-1e400`, `4.9e-324`, `1e-400`, `01`, `1.`, `.5`, `-`, `+1`, `1x`, `"1"`, `true`, `null`, `[1]`} {
		sameAsEncodingJSON(t, n, Int[int64])
		sameAsEncodingJSON(t, n, Int[int32])
		sameAsEncodingJSON(t, n, Int[int8])
		sameAsEncodingJSON(t, n, Float64[float64])
		sameAsEncodingJSON(t, n, Float32[float32])
	}
}

func TestOtherValuesDecodeAsEncodingJSON(t *testing.T) {
	type enum string
	for _, v := range []string{`true`, `false`, `null`, `tru`, `nul`, `"true"`, `1`, `{}`, `[]`, `[1, {"a" : "b"} ]`, `{"a":[]}`, ` "s" `, `"e"`} {
		sameAsEncodingJSON(t, v, Bool[bool])
		sameAsEncodingJSON(t, v, Str[enum])
		sameAsEncodingJSON(t, v, (*Reader).Raw)
		sameAsEncodingJSON(t, v, func(r *Reader, p *[]int) error { return r.Fallback(p) })
	}
}

func TestOnlyWhiteSpaceMayFollowTheValue(t *testing.T) {
	for _, data := range []string{`1 2`, `1,`, `1]`, `{} {}`, `"a"x`} {
		_, err := decode(data, Int[int64])
		var e *Error
		require.ErrorAs(t, err, &e, data)
		assert.True(t, e.Malformed(), data)
	}
	v, err := decode(" \t\r\n7 \t\r\n", Int[int64])
	require.NoError(t, err)
	assert.EqualValues(t, 7, v)
}

// record reads {"n": int, "s": string} as a generated decoder does.
type record struct {
	N     int64
	S     string
	Other map[string]json.RawMessage
}

func readRecord(r *Reader, a *record) error {
	if ok, err := Expect[record](r, jx.Object); !ok {
		return err
	}
	fields := Fields{Model: "record"}
	if err := r.D.ObjBytes(func(_ *jx.Decoder, key []byte) error {
		switch string(key) {
		case "n":
			Zero(&a.N)
			return fields.Note(0, "n", Int(r, &a.N))
		case "s":
			Zero(&a.S)
			return fields.Note(1, "s", Str(r, &a.S))
		default:
			return r.Unknown(&a.Other, key)
		}
	}); err != nil {
		return err
	}
	return fields.Err()
}

func readRecords(r *Reader, v *[]record) error {
	if ok, err := Expect[[]record](r, jx.Array); !ok {
		return err
	}
	var elems Elements
	*v = []record{}
	if err := r.D.Arr(func(*jx.Decoder) error {
		*v = append(*v, record{})
		return elems.Note(len(*v)-1, readRecord(r, &(*v)[len(*v)-1]))
	}); err != nil {
		return err
	}
	return elems.Err()
}

// The last of repeated keys wins, its type error included.
func TestRepeatedFieldsKeepTheLast(t *testing.T) {
	v, err := decode(`[{"n":"x","n":1,"s":"a","s":null,"z":1,"z":2}]`, readRecords)
	require.NoError(t, err)
	assert.Equal(t, []record{{N: 1, Other: map[string]json.RawMessage{"z": json.RawMessage("2")}}}, v)

	_, err = decode(`[{"n":1},{"n":1,"s":"a","n":"x","s":2,"s":"b"}]`, readRecords)
	var te *json.UnmarshalTypeError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "1.n", te.Field)
	assert.Equal(t, "record", te.Struct)
	assert.Equal(t, reflect.TypeFor[int64](), te.Type)
	assert.Equal(t, "string", te.Value)
	assert.Equal(t, `json: cannot unmarshal string into Go struct field record.1.n of type int64`, err.Error())
}

// A type error does not stop decoding: malformed JSON after it is still
// found; malformed JSON stops at once and says where.
func TestMalformedJSONAfterATypeError(t *testing.T) {
	_, err := decode(`[{"n":"x"},{"n":1,}]`, readRecords)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.True(t, e.Malformed())
	assert.Equal(t, "1", e.Path)
	assert.True(t, strings.HasPrefix(err.Error(), "json: malformed at 1: "), err.Error())

	_, err = decode(`[{"n":1,"s":"a\x"}]`, readRecords)
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "0.s", e.Path)
	var te *json.UnmarshalTypeError
	assert.False(t, errors.As(err, &te))
}

func FuzzStringsAndNames(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameAsEncodingJSON(t, s, Str[string])
		sameAsEncodingJSON(t, "{"+s+":"+s+"}", readObject)
	})
}
