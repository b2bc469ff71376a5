package facade

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamSpellings are the key as a server may quote it: as it is, in
// another case, JSON- and URL-escaped, and each encoding of encodings.
func streamSpellings(key string) map[string]string {
	var jsonEsc, pct strings.Builder
	for _, r := range key {
		fmt.Fprintf(&jsonEsc, `\u%04x`, r)
	}
	for _, b := range []byte(key) {
		fmt.Fprintf(&pct, "%%%02X", b)
	}
	out := map[string]string{
		"as it is":     key,
		"upper case":   strings.ToUpper(key),
		"JSON escaped": jsonEsc.String(),
		"URL escaped":  url.QueryEscape(key),
		"percent all":  pct.String(),
	}
	for name, spell := range encodings {
		out[name] = spell(key)
	}
	return out
}

func redactorOf(t *testing.T) *Redactor {
	t.Helper()
	c, err := New("http://127.0.0.1:1/api/v1", WithAPIKey(encodedKey))
	require.NoError(t, err)
	r := c.Redactor()
	require.NotNil(t, r)
	return r
}

// Client.Redactor removes every spelling of the key its logs have
// removed, and keeps the rest of the text.
func TestRedactorRedactsEverySpelling(t *testing.T) {
	r := redactorOf(t)
	for name, spelled := range streamSpellings(encodedKey) {
		got := r.Redact("key " + spelled + " seen")
		assert.NotContains(t, got, spelled, name)
		assert.Regexp(t, `^key (Basic )?\[REDACTED\] seen$`, got, name)
	}
	var none *Redactor
	assert.Equal(t, "text", none.Redact("text"), "a nil Redactor removes nothing")
}

// A spelling written in two pieces, split at any byte, or a byte at a
// time, is removed all the same; what surrounds it is written whole.
func TestRedactingWriterFindsASpellingSplitBetweenWrites(t *testing.T) {
	r := redactorOf(t)
	for name, spelled := range streamSpellings(encodedKey) {
		text := "{\"name\":\"key " + spelled + " seen\"}\n"
		for cut := range len(text) + 1 {
			var out bytes.Buffer
			w := r.NewWriter(&out)
			for _, piece := range []string{text[:cut], text[cut:]} {
				n, err := w.Write([]byte(piece))
				require.NoError(t, err)
				require.Equal(t, len(piece), n)
			}
			require.NoError(t, w.Flush())
			assert.Equal(t, r.Redact(text), out.String(), "%s, cut at %d", name, cut)
		}
		var out bytes.Buffer
		w := r.NewWriter(&out)
		for i := range len(text) {
			_, err := w.Write([]byte{text[i]})
			require.NoError(t, err)
		}
		require.NoError(t, w.Flush())
		assert.Equal(t, r.Redact(text), out.String(), "%s, a byte at a time", name)
	}
}

// Only an end that may begin a spelling waits: a progress line goes out
// as it is written, and the beginning of the key goes out at Flush.
func TestRedactingWriterHoldsBackOnlyWhatMayBeginTheKey(t *testing.T) {
	r := redactorOf(t)
	var out bytes.Buffer
	w := r.NewWriter(&out)
	_, err := w.Write([]byte("page 1/3 Overview: 74 rows 100%\r"))
	require.NoError(t, err)
	assert.Equal(t, "page 1/3 Overview: 74 rows 100%\r", out.String(), "written at once")
	_, err = w.Write([]byte("token sk-liv"))
	require.NoError(t, err)
	assert.Equal(t, "page 1/3 Overview: 74 rows 100%\rtoken ", out.String(), "the beginning of the key waits")
	require.NoError(t, w.Flush())
	assert.True(t, strings.HasSuffix(out.String(), "token sk-liv"), "Flush writes it: %q", out.String())
}

// A key whose end is its beginning: written whole, the key is removed
// whole, though its end may begin another spelling of it.
func TestRedactingWriterKeyEndingAsItBegins(t *testing.T) {
	const key = "abc1234~abc" // ~ stops the base64 run before its end
	c, err := New("http://127.0.0.1:1/api/v1", WithAPIKey(key))
	require.NoError(t, err)
	var out bytes.Buffer
	w := c.Redactor().NewWriter(&out)
	_, err = w.Write([]byte("key: " + key))
	require.NoError(t, err)
	assert.NotContains(t, out.String(), "abc1234", "nothing of the key before Flush")
	require.NoError(t, w.Flush())
	assert.Equal(t, "key: "+redacted, out.String())
}

// BenchmarkRedactingWriter writes CSV-like text through a client's
// Redactor: in 64 KiB writes (a buffered writer's) and a line at a time
// (a table's); it reports bytes per second.
func BenchmarkRedactingWriter(b *testing.B) {
	c, err := New("http://127.0.0.1:1/api/v1", WithAPIKey(encodedKey), WithKeyPrefix("Bearer"))
	require.NoError(b, err)
	line := "5001,5004,Überblick,Sheet1,TABLE,,Overview table 1,12,17,Amount,number,-3935.87,,,\r\n"
	text := strings.Repeat(line, (64<<10)/len(line))
	for name, size := range map[string]int{"64KiB": len(text), "line": len(line)} {
		b.Run(name, func(b *testing.B) {
			w := c.Redactor().NewWriter(io.Discard)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				for i := 0; i < len(text); i += size {
					_, _ = w.Write([]byte(text[i:min(i+size, len(text))]))
				}
			}
		})
	}
}

// scrub's shortcut (mayHold) changes nothing scrub finds: for each
// spelling of a key with a prefix or a space (which a query writes as +),
// and of a key with a letter that folds to ASCII (the Kelvin sign, the
// long s), in a text with and without escapes or other runes beyond
// ASCII, and with a letter of the key spelled as a rune that folds to it,
// scrub gives what scrubbing without the shortcut gives.
func TestScrubShortcutChangesNothing(t *testing.T) {
	password := &secretSet{} // a database password may hold a space; a key may not
	password.addForms([]string{"two words pass"})
	sets := []*secretSet{password}
	for _, opts := range [][]Option{
		{WithAPIKey(encodedKey), WithKeyPrefix("Bearer")},
		{WithAPIKey("key-\u212a-long-enough")},
		{WithAPIKey("key-\u017f-long-enough")},
		{WithAPIKey("short")},
	} {
		c, err := New("http://127.0.0.1:1/api/v1", opts...)
		require.NoError(t, err)
		sets = append(sets, c.creds())
	}
	for _, set := range sets {
		var texts []string
		for _, v := range set.values {
			for _, spelled := range streamSpellings(v) {
				texts = append(texts, "a "+spelled+" b", "plain "+spelled, `\"`+spelled+`\"`, "100% "+spelled, "Bearer+"+url.QueryEscape(spelled),
					"Grüße "+spelled)
			}
			for twin, letter := range map[string]string{"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"} { // each folds to the letter
				texts = append(texts, "Grüße "+strings.ReplaceAll(strings.ToLower(v), letter, twin))
			}
		}
		texts = append(texts, "nothing here", "k kelvin K", "Bearer+sk-live-~~~???-key-4", "SHORT", "shorter", "key-k-long-enough", "key-s-long-enough",
			"two+words+pass")
		for _, text := range texts {
			assert.Equal(t, set.scrubAll(text), set.scrub(text), "%q", text)
		}
	}
}
