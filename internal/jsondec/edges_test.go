package jsondec

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failsLikeEncodingJSON is likeEncodingJSON, and where the document is not
// JSON, the offset is encoding/json's: the byte that breaks it (one before
// encoding/json's count of the bytes it read), or the length of the
// document when it ends too soon.
func failsLikeEncodingJSON[T any](t *testing.T, data string, read func(r *Reader, v *T) Status) {
	t.Helper()
	likeEncodingJSON(t, data, read)
	_, _, err := decode(data, read)
	if err == nil {
		return
	}
	var v any
	var syntax *json.SyntaxError
	require.ErrorAs(t, json.Unmarshal([]byte(data), &v), &syntax, data)
	var e *Error
	require.ErrorAs(t, err, &e, data)
	want := syntax.Offset - 1
	if e.Msg == "unexpected end of JSON input" {
		want = syntax.Offset
	}
	if e.Offset != want {
		t.Fatalf("%q: we fail at byte %d (%s), encoding/json at %d (%v)", data, e.Offset, e.Msg, want, syntax)
	}
}

// A string scanned eight bytes at a time is reported plain (its bytes are
// its content, with nothing to unescape or check as UTF-8) exactly when it
// has no backslash and no byte past ASCII, wherever in the eight its
// escapes and other bytes fall, and whether the document ends at its
// closing quote or goes on with bytes that would end or break it.
func TestPlainOnlyWithoutEscapesOrBytesPastASCII(t *testing.T) {
	pieces := []string{``, `\"`, `\\`, `\/`, `\n`, `\u0041`, `\\\"`, "\xc3\xa9", "\x7f", "\x80", "\xff", `~`, `\b\f`}
	for pad := range 17 {
		for _, p := range pieces {
			for _, after := range []string{"", `abcdefg`, `\\\\\\\\`, "\xff\xff\xff\xff\xff\xff\xff\xff"} {
				for _, end := range []string{"", `"\`, "\"\x01\x80\\\"\\\"\\\""} {
					content := strings.Repeat("a", pad) + p + after
					doc := `"` + content + `"` + end
					r := Begin([]byte(doc), nil)
					plain, ok := r.scanString()
					require.True(t, ok, doc)
					require.Equal(t, len(content)+2, r.pos, doc)
					want := !strings.ContainsFunc(content, func(c rune) bool { return c == '\\' || c >= 0x80 })
					require.Equal(t, want, plain, doc)
					r.release()
				}
			}
		}
	}
}

// A document that ends inside a string (after its opening quote, after a
// backslash, after \u and fewer than four hex digits), at every offset of
// the eight bytes a string is scanned by, fails where encoding/json fails:
// no read past the end, no string taken as closed.
func TestStringsEndingTooSoon(t *testing.T) {
	for pad := range 18 {
		a := strings.Repeat("a", pad)
		for _, lead := range []string{"", "\xc3\xa9", `\n`} {
			for _, tail := range []string{``, `\`, `\u`, `\u1`, `\u12`, `\u123`, `\\`, `\"`, "\xc3", `\u12x4"`, `\uD83D\`} {
				s := `"` + lead + a + tail
				failsLikeEncodingJSON(t, s, Str[string])
				failsLikeEncodingJSON(t, s, raw)
				failsLikeEncodingJSON(t, "["+s, raw)
				failsLikeEncodingJSON(t, "{"+s, readObject)
				failsLikeEncodingJSON(t, `{"k":`+s, readObject)
			}
		}
	}
}

// KeyIs matches a field's name and colon only where they come at once
// (after the comma, and one space after it, unless first), SpacedKeyIs
// only past JSON's four whitespace bytes around the comma, where KeyIs has
// not looked; neither reads anything when the name is not there, so that
// FirstKey and NextKey read it from where it starts.
func TestKeyIsReadsTheNameOrNothing(t *testing.T) {
	const key = `"index":`
	type want struct{ keyIs, spaced bool }
	for _, c := range []struct {
		doc   string
		first bool
		want
	}{
		{`"index":1`, true, want{true, false}},
		{` "index":1`, true, want{false, true}},
		{"\t\r\n \"index\":1", true, want{false, true}},
		{`,"index":1`, false, want{true, false}},
		{` ,"index":1`, false, want{false, true}},
		{`, "index":1`, false, want{true, false}},  // one space after the comma: KeyIs's own, SpacedKeyIs's not
		{`,  "index":1`, false, want{false, true}}, // two
		{",\t\"index\":1", false, want{false, true}},
		{"\n\t,\r\n  \"index\":1", false, want{false, true}},
		{`"index":1`, false, want{false, false}},    // no comma
		{` "index":1`, false, want{false, false}},   // no comma
		{`,,"index":1`, false, want{false, false}},  // two commas
		{`, ,"index":1`, false, want{false, false}}, // two commas
		{`,"index" :1`, false, want{false, false}},  // space before the colon
		{`, "index" :1`, false, want{false, false}}, // space before the colon
		{`,"indexes":1`, false, want{false, false}},
		{`, "indexes":1`, false, want{false, false}},
		{`,"inde":1`, false, want{false, false}},
		{`,"ind\u0065x":1`, false, want{false, false}}, // read and unescaped by NextKey
		{`,"Index":1`, false, want{false, false}},
		{"\f,\"index\":1", false, want{false, false}}, // not JSON whitespace
		{",\v\"index\":1", false, want{false, false}},
		{",\x00\"index\":1", false, want{false, false}},
		{"\x00\"index\":1", true, want{false, false}},
		{`,"index"`, false, want{false, false}}, // the document ends
		{`, "index`, false, want{false, false}},
		{`,   `, false, want{false, false}},
		{` , `, false, want{false, false}},
		{`,`, false, want{false, false}},
		{``, false, want{false, false}},
		{``, true, want{false, false}},
		{`  `, true, want{false, false}},
		{`}`, false, want{false, false}},
		{` }`, false, want{false, false}},
		{`}`, true, want{false, false}},
		{` }`, true, want{false, false}},
	} {
		for _, at := range []int{0, 3} { // the name at the start of the data or after other bytes
			data := []byte(strings.Repeat("x", at) + c.doc)
			for _, spaced := range []bool{false, true} {
				r := Begin(data, nil)
				r.pos = at
				var got bool
				if spaced {
					got = r.SpacedKeyIs(c.first, key)
				} else {
					got = r.KeyIs(c.first, key)
				}
				wantMatch, wantPos := c.keyIs, at
				if spaced {
					wantMatch = c.spaced
				}
				if wantMatch {
					wantPos = strings.Index(string(data), key) + len(key)
				}
				assert.Equal(t, wantMatch, got, "%q (first %v, spaced %v)", c.doc, c.first, spaced)
				assert.Equal(t, wantPos, r.pos, "%q (first %v, spaced %v): where the reader is after", c.doc, c.first, spaced)
				r.release()
			}
		}
	}
}

// Skipping follows arrays and objects whose depth goes back and forth
// across the 64 levels kept in a word many times, each level holding an
// object on one visit and an array on the next: the kind of container
// open at each level is the one opened last there, whether it is kept in
// the word or past it, and a closing bracket of the wrong kind fails
// where encoding/json fails.
func TestNestingAcrossTheWordBackAndForth(t *testing.T) {
	var b strings.Builder
	var open []byte // the closing brackets expected
	needValue := true
	visits := map[int]int{} // how many times each level has opened
	value := func() {
		if needValue {
			b.WriteString(`0`)
			needValue = false
		}
	}
	to := func(depth int) {
		for len(open) > depth {
			value()
			b.WriteByte(open[len(open)-1])
			open = open[:len(open)-1]
		}
		for len(open) < depth {
			if !needValue { // after a value of the container open here
				b.WriteString(",")
				if open[len(open)-1] == '}' {
					b.WriteString(`"n":`)
				}
			}
			// levels alternate in kind, and each flips every time it opens
			visits[len(open)]++
			if (len(open)+visits[len(open)])%2 == 0 {
				b.WriteString(`{"k":`)
				open = append(open, '}')
			} else {
				b.WriteString(`[`)
				open = append(open, ']')
			}
			needValue = true
		}
		value()
	}
	for _, depth := range []int{70, 60, 64, 63, 65, 62, 130, 1, 66, 64, 65, 63, 129, 127, 200, 60, 64} {
		to(depth)
	}
	to(0)
	doc := b.String()
	require.True(t, json.Valid([]byte(doc)))
	wrong := []string{doc}
	for _, at := range []int{64, 65, 66, 100, 128, 129, 130} {
		// the closing brackets that end level at (counted from 1), the
		// first and the last time
		var closes []int
		depth := 0
		for i := 0; i < len(doc); i++ {
			switch doc[i] {
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == at-1 {
					closes = append(closes, i)
				}
			case '"':
				i += strings.IndexByte(doc[i+1:], '"') + 1
			}
		}
		require.NotEmpty(t, closes, "level %d closes", at)
		for _, i := range []int{closes[0], closes[len(closes)-1]} {
			swapped := map[byte]byte{'}': ']', ']': '}'}[doc[i]]
			w := doc[:i] + string(swapped) + doc[i+1:]
			require.False(t, json.Valid([]byte(w)), "level %d closed by the wrong bracket", at)
			wrong = append(wrong, w)
		}
	}
	for _, d := range wrong {
		failsLikeEncodingJSON(t, d, raw)
		failsLikeEncodingJSON(t, d, readObject)
		failsLikeEncodingJSON(t, "[1,"+d+"]", raw)
	}
}
