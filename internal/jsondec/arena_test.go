package jsondec

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The blocks of a document hold little more than its values: a page
// whose values need a little more than one large block does not take
// two (it took 128 KiB for 65 KiB of values).
func TestArenaBlocksFitTheDocument(t *testing.T) {
	for _, c := range []struct {
		name         string
		doc, every   int // the document's size; a value every this many bytes
		value, slack int // each value's size; the bytes allowed beyond them
	}{
		{"a page of rows, 40% values", 177_000, 18, 7, 8 << 10},
		{"a page just over one block of values", 170_000, 10, 4, 8 << 10},
		{"a short answer", 300, 30, 10, minBlock},
		{"long strings, 95% values", 1_600_000, 120, 114, 64 << 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			var a arena
			got, values := 0, 0
			for pos := 0; pos+c.every <= c.doc; pos += c.every {
				fits := len(a.block) >= c.value
				a.alloc(c.value, c.doc-pos-c.every)
				if !fits { // a new block: this value and what is left of it
					got += c.value + cap(a.block)
				}
				values += c.value
			}
			assert.LessOrEqual(t, got, values+c.slack, "%d bytes of blocks for %d bytes of values", got, values)
		})
	}
}
