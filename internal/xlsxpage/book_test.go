package xlsxpage

import (
	"bytes"
	"testing"
)

// The directory signatures are counted as bytes.Count counts them, a
// signature that straddles two chunks of the read included, whatever the
// size of the page.
func TestCountSignaturesAcrossChunks(t *testing.T) {
	const chunk = 256 << 10
	for _, size := range []int{0, 1, 3, 4, 5, chunk - 1, chunk, chunk + 1, 2*chunk + 7} {
		for _, at := range []int{0, 1, chunk - 4, chunk - 3, chunk - 2, chunk - 1, chunk, 2*chunk - 2, size - 4} {
			data := bytes.Repeat([]byte{'P'}, size)
			if at >= 0 && at+4 <= size {
				copy(data[at:], centralHeader)
			}
			if size >= 8 {
				copy(data[size-4:], centralHeader)
			}
			n, err := countSignatures(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatalf("size %d, at %d: %v", size, at, err)
			}
			if want := int64(bytes.Count(data, centralHeader)); n != want {
				t.Errorf("size %d, at %d: counted %d, want %d", size, at, n, want)
			}
		}
	}
}
