package facade

import (
	"cmp"
	"io"
	"strings"
	"unicode/utf8"
)

// Redactor removes a client's secrets from text, in every spelling the
// SDK's errors and logs are scrubbed of: as written, in any letter case,
// with characters escaped as JSON or URLs escape them, in hex, and in
// base64 (both alphabets, padded or not, alone or inside a longer encoded
// text such as the Basic value of user:key). Each spelling becomes
// [REDACTED]. A nil Redactor removes nothing. Get one with
// [Client.Redactor].
type Redactor struct {
	set    *secretSet
	maxLen int // Limits.MaxReportedLen of the client; 0: the default
}

// Redactor returns what removes the client's secrets (its API key, the
// Authorization value it sends, the password of its proxy) from text, as
// its errors and logs have them removed: for a program that prints what
// the server sent. Nil when the client has none.
func (c *Client) Redactor() *Redactor {
	if c.creds == nil || c.creds() == nil {
		return nil
	}
	return &Redactor{set: c.creds(), maxLen: c.cfg.limits.MaxReportedLen}
}

// Quote returns text, a value the server sent (a run's state, a job's
// status, a message), as the SDK quotes such values in its errors and
// logs: without the secrets, in any spelling, and cut to the client's
// [Limits].MaxReportedLen bytes (a nil Redactor cuts to the default's).
// Print a state a wait yields through it.
// The states of a [Job] hold none of the secrets its start sent (a
// database password): they are removed when the status is read.
func (r *Redactor) Quote(text string) string {
	if r == nil {
		return (*secretSet)(nil).scrubCut(text, DefaultLimits().MaxReportedLen)
	}
	return r.set.scrubCut(text, cmp.Or(r.maxLen, DefaultLimits().MaxReportedLen))
}

// Redact returns text without the secrets.
func (r *Redactor) Redact(text string) string {
	if r == nil {
		return text
	}
	return r.set.scrub(text)
}

// NewWriter returns a writer that writes to w what it is given, without
// the secrets. A spelling split between two calls of Write is found: the
// writer holds back the end of what it was given while that may be the
// beginning of a spelling (or, when the secrets have base64 spellings,
// the run of base64 characters it ends with, which the run's removal
// takes whole), and writes it with what follows, or at Flush. Only that
// end waits: a line, or a progress bar's frame, goes out when it is
// written. The writer is not safe for concurrent use.
//
// It is for text: replacing bytes within a binary format (a workbook, a
// Parquet file) would corrupt it.
func (r *Redactor) NewWriter(w io.Writer) *RedactingWriter {
	rw := &RedactingWriter{w: w}
	if r != nil && r.set != nil {
		rw.set, rw.spellings, rw.longest = r.set, r.set.spellings(), r.set.longestSpelling()
		rw.base64 = len(r.set.encoded) > 0
		for c := range rw.mayBegin {
			for _, v := range rw.spellings {
				rw.mayBegin[c] = rw.mayBegin[c] || v.starts.may(byte(c))
			}
		}
	}
	return rw
}

// RedactingWriter is the writer of [Redactor.NewWriter].
type RedactingWriter struct {
	w         io.Writer
	set       *secretSet
	spellings []spelling // the set's, as heldBack looks for them
	longest   int        // the set's longestSpelling
	base64    bool       // the set has base64 spellings
	mayBegin  [256]bool  // the bytes a spelling may begin with
	pending   []byte     // the end of what was given, held back
}

// Write writes p without the secrets, but for the end that must wait; it
// returns len(p) unless w failed.
func (rw *RedactingWriter) Write(p []byte) (int, error) {
	if rw.set == nil {
		return rw.w.Write(p)
	}
	out, wait := rw.split(string(append(rw.pending, p...)))
	rw.pending = append(rw.pending[:0], wait...)
	if _, err := io.WriteString(rw.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back, scrubbed: call it when the output ends,
// or before writing to the underlying writer past this one.
func (rw *RedactingWriter) Flush() error {
	if len(rw.pending) == 0 {
		return nil
	}
	text := rw.set.scrub(string(rw.pending))
	rw.pending = rw.pending[:0]
	_, err := io.WriteString(rw.w, text)
	return err
}

// split divides text into what can be written now, scrubbed, and the end
// that must wait. The end waits as it is, when cutting there changes
// nothing scrub finds; else (a spelling crosses the cut) all of text is
// scrubbed and the end of the result that may begin a spelling waits.
func (rw *RedactingWriter) split(text string) (out, wait string) {
	cut := rw.cut(text)
	if cut == len(text) {
		return rw.set.scrub(text), ""
	}
	if rw.cleanCut(text, cut) {
		return rw.set.scrub(text[:cut]), text[cut:]
	}
	all := rw.set.scrub(text)
	cut = len(all) - rw.heldBack(all)
	return all[:cut], all[cut:]
}

// cut is where the end of text that must wait begins: the longest end
// that may begin a spelling and, when the secrets have base64 spellings,
// the run of base64 characters before it (or that text ends with), within
// the longest spelling's length, which scrub replaces with the spelling.
func (rw *RedactingWriter) cut(text string) int {
	cut := len(text) - rw.heldBack(text)
	for n := 0; rw.base64 && cut > 0 && n < rw.longest && isBase64Byte(text[cut-1]); n++ {
		cut--
	}
	return cut
}

// cleanCut reports whether scrubbing text in two pieces, cut at cut, finds
// what scrubbing it whole finds: no spelling crosses the cut. Only the
// longest spelling's length before the cut is compared.
func (rw *RedactingWriter) cleanCut(text string, cut int) bool {
	from := max(0, cut-rw.longest)
	return rw.set.scrub(text[from:]) == rw.set.scrub(text[from:cut])+rw.set.scrub(text[cut:])
}

// heldBack is the length of the longest end of text that may be the
// beginning of a spelling of a secret.
func (rw *RedactingWriter) heldBack(text string) int {
	for i := max(0, len(text)-rw.longest); i < len(text); i++ {
		if !rw.mayBegin[text[i]] {
			continue
		}
		for _, v := range rw.spellings {
			if v.starts.may(text[i]) && beginsSpelling(text[i:], v.text) {
				return len(text) - i
			}
		}
	}
	return 0
}

// spelling is a value of a secretSet, or one of its encoded spellings,
// with where it may start.
type spelling struct {
	text   string
	starts startTest
}

// spellings are the set's values and their encoded spellings, as scrub
// looks for them.
func (s *secretSet) spellings() []spelling {
	var out []spelling
	add := func(text string) { out = append(out, spelling{text, startTestOf(text)}) }
	for _, v := range s.values {
		add(v)
	}
	for _, e := range s.encoded {
		add(e.text)
	}
	return out
}

// beginsSpelling reports whether rest, the end of a text, is the
// beginning of a spelling of v that the text breaks off: each of its
// runes matches v's (matchRune), up to a last one that may be cut short.
func beginsSpelling(rest, v string) bool {
	for _, r := range v {
		if rest == "" {
			return true
		}
		n := matchRune(rest, r)
		if n == 0 {
			return cutShort(rest)
		}
		rest = rest[n:]
	}
	return false // a whole spelling, which scrub replaced or let stand
}

// cutShort reports whether rest may be the beginning of one rune's
// spelling that the text breaks off: a JSON or URL escape, or a UTF-8
// sequence, incomplete.
func cutShort(rest string) bool {
	switch rest[0] {
	case '\\':
		return jsonEscapeCut(rest)
	case '%':
		return percentEscapeCut(rest)
	}
	return !utf8.FullRuneInString(rest)
}

// jsonEscapeCut reports whether rest is \, \u and fewer than four hex
// digits, or a high surrogate's escape and the beginning of its low one.
func jsonEscapeCut(rest string) bool {
	switch {
	case len(rest) < 2:
		return true
	case rest[1] != 'u':
		return false
	case len(rest) < 6:
		return allHex(rest[2:])
	}
	hi, ok := hexValue(rest, 2, 4)
	if !ok || !utf16IsHigh(hi) {
		return false
	}
	low := rest[6:]
	return low == "" || low == "\\" || strings.HasPrefix(low, "\\u") && len(low) < 6 && allHex(low[2:])
}

// percentEscapeCut reports whether rest is %XX escapes of the beginning of
// a UTF-8 sequence, the last escape perhaps incomplete.
func percentEscapeCut(rest string) bool {
	var seq []byte
	for rest != "" {
		if rest[0] != '%' {
			return false
		}
		if len(rest) < 3 {
			return allHex(rest[1:])
		}
		v, ok := hexValue(rest, 1, 2)
		if seq = append(seq, byte(v)); !ok || utf8.FullRune(seq) {
			return false
		}
		rest = rest[3:]
	}
	return true
}

func allHex(s string) bool {
	_, ok := hexValue(s, 0, len(s))
	return ok
}
