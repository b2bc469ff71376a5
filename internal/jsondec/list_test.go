package jsondec

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wholeCheck is what reading doc whole gives: nil, or the *Error.
func wholeCheck(doc []byte) error {
	r := newReader(doc, nil)
	defer r.release()
	if r.skip() != Failed {
		r.end()
	}
	if r.err != nil {
		return r.err
	}
	return nil
}

// batches reads doc with EachBatch through src, checking each batch as a
// document, and returns the elements handed out (each batch's JSON
// decoded) or the error.
func batches(src io.Reader, size int) ([]json.RawMessage, bool, error) {
	var elems []json.RawMessage
	isList := true
	err := EachBatch(src, size, func(batch []byte, at int64) error {
		if err := wholeCheck(batch); err != nil {
			return err
		}
		var part []json.RawMessage
		if err := json.Unmarshal(batch, &part); err != nil {
			return err
		}
		elems = append(elems, part...)
		return nil
	}, func(doc []byte) error {
		isList = false
		return wholeCheck(doc)
	})
	return elems, isList, err
}

var listCases = []string{
	`[]`, ` [ ] `, `[1]`, `[1,2,3]`, "\n[ 1 ,\t\"two\" , {\"three\":[3,[3]]}, null, true, false, -1.5e3 ]\n", `[12345678901234567890]`,
	`[1,]`, `[,1]`, `[1 2]`, `[1`, `[1,`, `[`, `["open`, `[tru]`, `[1] x`, `[1]]`, `[{"a":1,}]`, `[01]`, `[1.]`, `[-]`,
	`null`, ` {"a":[1]} `, `"s"`, ``, `   `, `x`, `[[[[[[[[[[]]]]]]]]]]`, `["\u00e9\"]\\", "a\nb"]`, "[\"\x01\"]",
}

// EachBatch hands out the elements of every list, whatever the size of the
// reads and of the batches, and fails exactly where reading the document
// whole fails, at the same offset.
func TestEachBatchAgreesWithTheWholeDocument(t *testing.T) {
	for _, doc := range listCases {
		want := wholeCheck([]byte(doc))
		var elems []json.RawMessage
		if want == nil && strings.HasPrefix(strings.TrimSpace(doc), "[") {
			require.NoError(t, json.Unmarshal([]byte(doc), &elems), doc)
		}
		for _, size := range []int{1, 7, 1 << 20} {
			for name, src := range map[string]func() io.Reader{
				"whole":    func() io.Reader { return strings.NewReader(doc) },
				"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(doc)) },
				"halves":   func() io.Reader { return iotest.HalfReader(strings.NewReader(doc)) },
			} {
				got, isList, err := batches(src(), size)
				if want == nil {
					require.NoError(t, err, "%q %s %d", doc, name, size)
					if isList {
						assert.Equal(t, compact(elems), compact(got), "%q %s %d", doc, name, size)
					}
					continue
				}
				var e, w *Error
				require.ErrorAs(t, err, &e, "%q %s %d", doc, name, size)
				require.ErrorAs(t, want, &w)
				assert.Equal(t, w.Offset, e.Offset, "%q %s %d: %v", doc, name, size, err)
			}
		}
	}
}

func compact(elems []json.RawMessage) []string {
	var out []string
	for _, e := range elems {
		var b bytes.Buffer
		_ = json.Compact(&b, e)
		out = append(out, b.String())
	}
	return out
}

// An error reading the document is returned as it is, and an error of
// each ends the reading.
func TestEachBatchErrors(t *testing.T) {
	broken := errors.New("connection reset")
	err := EachBatch(io.MultiReader(strings.NewReader(`[1,2,`), iotest.ErrReader(broken)), 1, func([]byte, int64) error { return nil }, nil)
	assert.ErrorIs(t, err, broken)
	stop := errors.New("stop")
	calls := 0
	err = EachBatch(strings.NewReader(`[1,2,3]`), 1, func([]byte, int64) error { calls++; return stop }, nil)
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, 1, calls)
}

// A long list is held a batch at a time: the buffer stays near the batch
// size however long the list.
func TestEachBatchHoldsOneBatch(t *testing.T) {
	elem := `{"name":"` + strings.Repeat("x", 100) + `"}`
	doc := "[" + strings.Repeat(elem+",", 100000) + elem + "]"
	n, maxBatch := 0, 0
	err := EachBatch(strings.NewReader(doc), 64<<10, func(b []byte, _ int64) error {
		n++
		maxBatch = max(maxBatch, len(b))
		return nil
	}, nil)
	require.NoError(t, err)
	assert.Greater(t, n, 100)
	assert.Less(t, maxBatch, 64<<10+len(elem)+2)
}

// FuzzEachBatch: whatever the document and the size of the reads and of
// the batches, EachBatch hands out what reading the document whole gives,
// and fails exactly where that fails, at the same offset.
func FuzzEachBatch(f *testing.F) {
	for _, doc := range listCases {
		f.Add(doc, uint8(3))
	}
	f.Fuzz(func(t *testing.T, doc string, size uint8) {
		want := wholeCheck([]byte(doc))
		got, isList, err := batches(iotest.HalfReader(strings.NewReader(doc)), int(size))
		if want == nil {
			if err != nil {
				t.Fatalf("%q: %v", doc, err)
			}
			var elems []json.RawMessage
			if isList && json.Unmarshal([]byte(doc), &elems) == nil && !assert.ObjectsAreEqual(compact(elems), compact(got)) {
				t.Fatalf("%q: got %q, want %q", doc, compact(got), compact(elems))
			}
			return
		}
		var e, w *Error
		if !errors.As(err, &e) || !errors.As(want, &w) || e.Offset != w.Offset {
			t.Fatalf("%q: got %v, want %v", doc, err, want)
		}
	})
}
