package facade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/internal/redacturl"
)

// maxQuoted is the most bytes of one value the facade quotes in an error or
// a log line; the rest is cut and counted.
const maxQuoted = 200

// cut returns s cut at maxQuoted bytes (textcut.Cut).
func cut(s string) string { return textcut.Cut(s, maxQuoted) }

// redactURL is a URL as errors may quote it: without the password of its
// user information, and cut. A URL that does not parse has everything
// before an @ in its authority replaced.
func redactURL(raw string) string { return cut(redacturl.String(raw)) }

// cutURL cuts the URL an *url.Error quotes (its query may hold long
// values) at maxQuoted bytes; net/http has already removed its password.
func cutURL(err error) error {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		urlErr.URL = cut(urlErr.URL)
	}
	return err
}

// secretSet holds the values of a call's sensitive fields (x-sensitive in
// the spec, gen.Body.Sensitive), found in the JSON body it sent: no error
// or log line quotes them. It prints as a placeholder, so a %#v of an error
// that holds it shows none of them.
type secretSet struct {
	values  []string
	encoded []encoded // the values' encodedSpellings, for those of minWordless bytes or more
	// lower are the values and encoded spellings in lower case, when every
	// one is ASCII (ascii), for mayHold; spaced: a value holds a space,
	// which a URL's query may write as +.
	lower         []string
	ascii, spaced bool
}

func (s *secretSet) String() string               { return redacted }
func (s *secretSet) GoString() string             { return redacted }
func (s *secretSet) Format(f fmt.State, _ rune)   { fmt.Fprint(f, redacted) }
func (s *secretSet) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (s *secretSet) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// scrub replaces every secret value in text, in any letter case and with
// any of its characters escaped as JSON or URLs escape them (see
// replaceSecret). A value shorter than minWordless bytes is replaced only
// where it stands as a word of its own: a one-letter key must not turn
// every word holding that letter into a placeholder.
func (s *secretSet) scrub(text string) string {
	if s == nil || !s.mayHold(text) {
		return text
	}
	return s.scrubAll(text)
}

// scrubAll is scrub without mayHold's shortcut.
func (s *secretSet) scrubAll(text string) string {
	for _, v := range s.values {
		text = replaceSecret(text, v, len(v) < minWordless)
	}
	for _, e := range s.encoded {
		text = e.replace(text)
	}
	return text
}

// mayHold reports whether text may hold a spelling of a secret: true
// unless every spelling is ASCII, text has none of the bytes an escape
// begins with (a backslash, %, and + when a value has a space) nor a rune
// that folds to an ASCII letter (foldsToASCII), and no spelling is in
// text in any case. It costs a few passes of the standard library's
// searches: most text a program prints holds none.
func (s *secretSet) mayHold(text string) bool {
	if !s.ascii {
		return true
	}
	nonASCII := false
	for i := range len(text) {
		switch c := text[i]; {
		case c == '\\' || c == '%' || c == '+' && s.spaced:
			return true
		case c >= utf8.RuneSelf:
			nonASCII = true
		}
	}
	if nonASCII && strings.ContainsAny(text, foldsToASCII) {
		return true
	}
	lower := strings.ToLower(text)
	for _, v := range s.lower {
		if strings.Contains(lower, v) {
			return true
		}
	}
	return false
}

// foldsToASCII are the runes beyond ASCII that matchSecret takes for an
// ASCII letter (foldEqual, strings.EqualFold) and strings.ToLower does not
// turn into one: the dotless i and the long s. (Of the only two others, it
// turns the dotted I into i and the Kelvin sign into k.)
const foldsToASCII = "\u0131\u017f"

// index sets lower, ascii and spaced from the values and their encoded
// spellings.
func (s *secretSet) index() {
	s.lower, s.ascii, s.spaced = s.lower[:0], true, false
	for _, v := range s.values {
		s.spaced = s.spaced || strings.Contains(v, " ")
		s.lower = append(s.lower, strings.ToLower(v))
	}
	for _, e := range s.encoded {
		s.lower = append(s.lower, strings.ToLower(e.text))
	}
	for _, v := range s.lower {
		s.ascii = s.ascii && isASCII(v)
	}
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// minWordless is the length from which a secret is replaced wherever it
// occurs.
const minWordless = 8

// scrubCut is text scrubbed and cut to max bytes (jsondec.Cut). Only the
// part that can be shown is searched, with room past the cut for the
// longest spelling of a secret that would cross it, so a huge text costs
// no more than a short one; the count of bytes cut is then that of text.
func (s *secretSet) scrubCut(text string, max int) string {
	window := max + s.longestSpelling()
	if len(text) <= window {
		return textcut.Cut(s.scrub(text), max)
	}
	head := s.scrub(text[:window])
	n := max
	for n > 0 && n < len(head) && !utf8.RuneStart(head[n]) {
		n--
	}
	return head[:min(n, len(head))] + "…(+" + strconv.Itoa(len(text)-window+len(head)-min(n, len(head))) + " bytes)"
}

// longestSpelling bounds the bytes of a spelling of a secret: each byte
// of it escaped (\u0070 is six bytes), and its base64 run.
func (s *secretSet) longestSpelling() int {
	longest := 0
	if s != nil {
		for _, v := range s.values {
			longest = max(longest, len(v))
		}
	}
	return 12*longest + 16
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func (s *secretSet) scrubBytes(b []byte) []byte {
	if s == nil || len(b) == 0 {
		return b
	}
	return []byte(s.scrub(string(b)))
}

// credentials returns the set of the client's API key and Authorization
// value (and a proxy's password), nil when there is none.
func credentials(values ...secret) func() *secretSet {
	set := &secretSet{}
	for _, v := range values {
		if !v.empty() {
			set.add(v.reveal())
		}
	}
	if len(set.values) == 0 {
		set = nil
	} else {
		set.values = slices.Clip(set.values) // shared by every call: merging copies
		set.encoded = slices.Clip(set.encoded)
		set.lower = slices.Clip(set.lower)
	}
	return func() *secretSet { return set }
}

// proxySecrets are the password of the URL of the proxy that rt (nil: the
// default transport) sends requests for base through, and its
// user:password, which the transport sends in a Basic Proxy-Authorization
// value: a proxy that refuses it may quote either, in any spelling.
func proxySecrets(rt http.RoundTripper, base *url.URL) []secret {
	if rt == nil {
		rt = http.DefaultTransport
	}
	t, ok := rt.(*http.Transport)
	if !ok || t.Proxy == nil {
		return nil
	}
	proxy, err := t.Proxy(&http.Request{URL: base, Header: http.Header{}})
	if err != nil || proxy == nil || proxy.User == nil {
		return nil
	}
	password, ok := proxy.User.Password()
	if !ok || password == "" {
		return nil
	}
	return []secret{newSecret(password), newSecret(proxy.User.Username() + ":" + password)}
}

// secretsOf is the package's secretsOf with the client's credentials: a
// server may quote the key, or the Authorization value, in its message.
func (c *Client) secretsOf(cl call, req *http.Request) *secretSet {
	set := secretsOf(cl, req)
	var creds *secretSet
	if c.creds != nil {
		creds = c.creds()
	}
	switch {
	case creds == nil:
		return set
	case set == nil:
		return creds
	}
	set.addForms(creds.values)
	return set
}

// union is the secrets of s and of o: s or o when the other holds none, else
// a new set (a set may be shared).
func (s *secretSet) union(o *secretSet) *secretSet {
	switch {
	case o == nil || o == s:
		return s
	case s == nil:
		return o
	}
	u := &secretSet{}
	u.addForms(s.values)
	u.addForms(o.values)
	return u
}

// callSecrets is secretsOf for a call whose request is gone (a job's
// start): the request is built again to find them, only when the operation
// has sensitive fields.
func (c *Client) callSecrets(cl call) *secretSet {
	if len(sensitiveFields(cl)) == 0 {
		return c.secretsOf(cl, nil)
	}
	req, err := cl.build(c.baseURL)
	if err != nil {
		return c.secretsOf(cl, nil)
	}
	if req.Body != nil {
		defer req.Body.Close()
	}
	return c.secretsOf(cl, req)
}

// secretsKey is the context key of a request's secrets, for what reads
// its answer.
type secretsKey struct{}

// withSecretsContext returns ctx carrying the secrets of the request it is
// the context of, or of the wait that polls with it: an attempt adds those
// its context carries to its call's own (a job's poll does not send the
// password its start sent, and the job's status may quote it).
func withSecretsContext(ctx context.Context, s *secretSet) context.Context {
	if s == nil {
		return ctx
	}
	return context.WithValue(ctx, secretsKey{}, s)
}

// contextSecrets are the secrets ctx carries, nil when none.
func contextSecrets(ctx context.Context) *secretSet {
	s, _ := ctx.Value(secretsKey{}).(*secretSet)
	return s
}

// scrubFinding removes the secrets of the request whose answer f is about
// (its context is ctx) from what f quotes of the answer: a property whose
// name or value is the password, or the API key.
func scrubFinding(ctx context.Context, f drift.Finding) drift.Finding {
	s := contextSecrets(ctx)
	if s == nil {
		return f
	}
	for _, p := range []*string{&f.Detail, &f.Path, &f.Model, &f.Property, &f.RenamedTo} {
		*p = s.scrub(*p)
	}
	if v := s.scrub(string(f.Value)); v != string(f.Value) {
		f.Value = json.RawMessage(v)
		if !json.Valid(f.Value) { // a number that was the secret
			f.Value, _ = json.Marshal(v)
		}
	}
	return f
}

// maxSecretScan bounds how much of a request body is searched for
// sensitive values.
const maxSecretScan = 1 << 20

// secretsOf finds the sensitive values of a call: in its logged body and in
// the request's body, read through GetBody so the request is untouched. It
// returns nil when the operation has no sensitive field or none holds a
// value.
func secretsOf(cl call, req *http.Request) *secretSet {
	names := sensitiveFields(cl)
	if len(names) == 0 {
		return nil
	}
	set := &secretSet{}
	if cl.logBody != nil {
		if raw, err := json.Marshal(cl.logBody); err == nil {
			set.addFrom(raw, names)
		}
	}
	if req != nil && req.GetBody != nil {
		if body, err := req.GetBody(); err == nil {
			raw, _ := io.ReadAll(io.LimitReader(body, maxSecretScan))
			body.Close()
			set.addFrom(raw, names)
		}
	}
	if len(set.values) == 0 {
		return nil
	}
	return set
}

// addFrom adds the values found under the sensitive names in a JSON
// document: at any depth, names compared ignoring case, every string and
// number within such a value (an array or an object of them included), in
// each spelling a message may quote it.
func (s *secretSet) addFrom(doc []byte, names []string) {
	d := json.NewDecoder(bytes.NewReader(doc))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return
	}
	walkSensitive(v, names, false, s.add)
}

func walkSensitive(v any, names []string, inside bool, add func(any)) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			walkSensitive(child, names, inside || isSensitive(k, names), add)
		}
	case []any:
		for _, child := range x {
			walkSensitive(child, names, inside, add)
		}
	default:
		if inside {
			add(x)
		}
	}
}

func isSensitive(name string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(name, n) {
			return true
		}
	}
	return false
}

// add records a leaf value: a string as it is (scrub finds its escaped
// spellings), a number as written and as Go and Java print it.
func (s *secretSet) add(v any) {
	var forms []string
	switch x := v.(type) {
	case string:
		forms = append(forms, x)
	case json.Number:
		forms = append(forms, x.String())
		if f, err := x.Float64(); err == nil {
			e := strconv.FormatFloat(f, 'E', -1, 64)
			forms = append(forms, strconv.FormatFloat(f, 'g', -1, 64), fmt.Sprint(f), e,
				strings.Replace(e, "E+", "E", 1)) // as Java prints a double
		}
	}
	s.addForms(forms)
}

// addForms adds spellings of secret values as they are.
func (s *secretSet) addForms(forms []string) {
	for _, f := range forms {
		if f != "" && !slices.Contains(s.values, f) {
			s.values = append(s.values, f)
			if len(f) >= minWordless {
				s.encoded = append(s.encoded, encodedSpellings(f)...)
			}
		}
	}
	// Longer spellings first, so a value inside another is not replaced
	// before the one that holds it.
	slices.SortStableFunc(s.values, func(a, b string) int { return len(b) - len(a) })
	s.index()
}

// redactedJSON renders v as JSON for a log line: every property whose name
// is one of the sensitive names, ignoring case, at any depth (inside
// objects and arrays), has its value replaced by a placeholder, whatever
// its type. The result is cut at maxQuoted bytes.
func redactedJSON(v any, sensitive []string) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return "(unencodable)"
	}
	if len(sensitive) == 0 {
		return cut(string(raw))
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var doc any
	if d.Decode(&doc) != nil {
		return "(not JSON)"
	}
	out, err := json.Marshal(redactTree(doc, sensitive))
	if err != nil {
		return "(unencodable)"
	}
	return cut(string(out))
}

func redactTree(v any, names []string) any {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if isSensitive(k, names) {
				x[k] = redacted
			} else {
				x[k] = redactTree(child, names)
			}
		}
	case []any:
		for i, child := range x {
			x[i] = redactTree(child, names)
		}
	}
	return v
}
