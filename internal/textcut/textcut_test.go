package textcut

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// A cut keeps at most max bytes, never splits a character, and says how
// many bytes it left out; text within the bound is whole.
func TestCut(t *testing.T) {
	assert.Equal(t, "short", Cut("short", 10))
	assert.Equal(t, "abc…(+3 bytes)", Cut("abcdef", 3))
	assert.Equal(t, "a…(+4 bytes)", Cut("aéé", 2), "é is two bytes: not split")
	assert.Equal(t, "…(+3 bytes)", Cut("abc", 0))
	for _, s := range []string{strings.Repeat("é", 100), strings.Repeat("日本", 50), strings.Repeat("x", 300)} {
		for max := range 40 {
			got := Cut(s, max)
			head, _, _ := strings.Cut(got, "…(+")
			assert.LessOrEqual(t, len(head), max)
			assert.True(t, utf8.ValidString(head), "%q cut at %d", s, max)
			assert.True(t, strings.HasPrefix(s, head))
		}
	}
	assert.Equal(t, `"ab"…(+2 bytes)`, Quote("abcd", 2))
	assert.Equal(t, `"a\"b"`, Quote(`a"b`, 10))
}
