package facade

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// secretShapes are request bodies of the database operations with the
// password (x-sensitive) in every shape a caller may send it in, right or
// wrong; each maps to the texts of its secret as a message may quote them.
var secretShapes = map[string]struct {
	body    string
	secrets []string
}{
	"string":          {`{"host":"db","password":"pw-SECRET-string"}`, []string{"pw-SECRET-string"}},
	"number":          {`{"host":"db","password":987654321123}`, []string{"987654321123", "9.87654321123e+11"}},
	"array":           {`{"host":"db","password":["pw-SECRET-item",55512345]}`, []string{"pw-SECRET-item", "55512345"}},
	"object":          {`{"host":"db","password":{"value":"pw-SECRET-object"}}`, []string{"pw-SECRET-object"}},
	"nested":          {`{"host":{"name":"db","password":"pw-SECRET-nested"}}`, []string{"pw-SECRET-nested"}},
	"different case":  {`{"host":"db","Password":"pw-SECRET-case","PASSWORD":"pw-SECRET-upper"}`, []string{"pw-SECRET-case", "pw-SECRET-upper"}},
	"escaped in JSON": {`{"host":"db","password":["pw-SECRET-<tag>&\"q\""]}`, []string{`pw-SECRET-<tag>&"q"`, `pw-SECRET-\u003ctag\u003e`}},
}

// No error and no log line quotes the value of a sensitive field, in any
// shape, whether the facade logs the body or not, for a safe and a
// state-changing operation, even where the server's message quotes it (the
// fake's 400 does, as servers do for a wrongly typed value).
func TestSecretNeverQuoted(t *testing.T) {
	ops := []gen.OperationID{gen.OpGetScenariosFromImportedDatabase, gen.OpImportDatabase}
	for shape, tc := range secretShapes {
		for _, op := range ops {
			for _, logged := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/%s/logged body %v", shape, op, logged), func(t *testing.T) {
					srv, _ := newFake(t)
					guard := newGuard(t)
					guard.watch(tc.secrets...)
					c := newTestClient(t, srv.URL, WithLogger(slog.New(guard)))
					in := RawRequest{ContentType: "application/json",
						Body: func() (io.Reader, error) { return io.NopCloser(strings.NewReader(tc.body)), nil }}
					if logged {
						in.LogBody = json.RawMessage(tc.body)
					}
					resp, err := c.Call(testCtx(t), string(op), in)
					if err == nil {
						resp.Body.Close()
					}
					for _, text := range errorTexts(err) {
						for _, secret := range tc.secrets {
							assert.NotContains(t, text, secret)
						}
					}
					require.NotEmpty(t, guard.Lines(), "the attempt was logged")
				})
			}
		}
	}
}

// errorTexts is everything an error shows: its text in every verb, and the
// server's answer it holds.
func errorTexts(err error) []string {
	if err == nil {
		return nil
	}
	texts := []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		detail, _ := json.Marshal(apiErr.Detail)
		texts = append(texts, apiErr.Message, string(apiErr.Body), string(detail), fmt.Sprintf("%#v", *apiErr))
	}
	return texts
}

// The server's message quoting a wrongly typed password is kept, without
// the password: the error still says what was wrong. (The fake quotes no
// sensitive value; a server that does is served here.)
func TestSecretScrubbedFromTheServersMessage(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"message":"request body field password: [\"pw-SECRET-item\",55512345] is not a string","details":{}}`)
	})
	_, err := c.Call(testCtx(t), "getScenariosFromImportedDatabase", RawRequest{ContentType: "application/json",
		Body: func() (io.Reader, error) { return strings.NewReader(secretShapes["array"].body), nil }})
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, "password")
	assert.Contains(t, apiErr.Message, redacted)
	for _, text := range errorTexts(err) {
		assert.NotContains(t, text, "pw-SECRET-item")
		assert.NotContains(t, text, "55512345")
	}
}

// Debug lines redact the sensitive fields ignoring case, inside nested
// objects and arrays, whatever the type of their value.
func TestLoggedBodyRedaction(t *testing.T) {
	srv, _ := newFake(t)
	guard := newGuard(t)
	secrets := []string{"pw-SECRET-top", "pw-SECRET-deep", "pw-SECRET-list", "4242424242"}
	guard.watch(secrets...)
	c := newTestClient(t, srv.URL, WithLogger(slog.New(guard)))
	body := `{"host":"db","Password":"pw-SECRET-top","extra":{"PASSWORD":{"v":"pw-SECRET-deep"}},` +
		`"more":[{"password":["pw-SECRET-list"]},{"passWord":4242424242}]}`
	resp, err := c.Call(testCtx(t), "getScenariosFromImportedDatabase", RawRequest{ContentType: "application/json",
		Body: func() (io.Reader, error) { return strings.NewReader(body), nil }, LogBody: json.RawMessage(body)})
	if err == nil {
		resp.Body.Close()
	}
	lines := guard.Lines()
	require.Len(t, lines, 1)
	assert.Equal(t, 4, strings.Count(lines[0], redacted), "every sensitive value: %s", lines[0])
	assert.Contains(t, lines[0], `host`, "the rest of the body is logged")
}

// Every value the facade quotes in an error or a log line is cut: the
// server's message at Limits.MaxReportedLen (256 bytes), other values at
// 200; the error's fields keep them whole.
func TestQuotedValuesAreCut(t *testing.T) {
	long := strings.Repeat("x", 5000)
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"message":%q}`, long)
	})
	_, err := c.Scenarios.List(testCtx(t), 1)
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, long, apiErr.Message)
	assert.Less(t, len(err.Error()), 400)
	assert.Contains(t, err.Error(), strings.Repeat("x", 256)+"…(+4744 bytes)")

	_, err = c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioType(long), nil)
	require.ErrorIs(t, err, ErrValidation)
	assert.Less(t, len(err.Error()), 400)

	_, err = New("https://scm.example.com/" + long + "?q=1")
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 400)

	guard := newGuard(t)
	c = newTestClient(t, c.BaseURL(), WithLogger(slog.New(guard)))
	_, _ = c.Scenarios.Copy(testCtx(t), 101, gen.ScenarioTypeGFA, &NewScenarioOptions{Name: long})
	for _, line := range guard.Lines() {
		assert.NotContains(t, line, strings.Repeat("x", 201), "the logged body is cut")
	}
}

// A base URL with a user name and password is refused, and no error shows
// the password, whether the URL parses or not.
func TestBaseURLPasswordNeverShown(t *testing.T) {
	const password = "url-SECRET-pw"
	for _, base := range []string{
		"https://scm:" + password + "@scm.example.com/api/v1",
		"https://scm:" + password + "@scm.example.com:badport/api/v1",
		"ftp://scm:" + password + "@scm.example.com/api/v1",
		"https://scm:" + password + "@scm.example.com/api/v1?x=1",
		"https://scm:" + password + "@/api/v1",
	} {
		_, err := New(base, WithAPIKey(testKey))
		require.Error(t, err, base)
		for _, text := range errorTexts(err) {
			assert.NotContains(t, text, password)
		}
	}
	_, err := New("https://scm:" + password + "@scm.example.com/api/v1")
	assert.ErrorContains(t, err, "must not hold a user name or password")
	assert.ErrorContains(t, err, "scm:xxxxx@scm.example.com")
}

// The URL a transport error quotes is cut too: its query may hold a long
// value.
func TestTransportErrorURLIsCut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	guard := newGuard(t)
	c := newTestClient(t, "http://"+addr+"/api/v1", WithClock(faketest.NewInstantClock()), WithLogger(slog.New(guard)))
	_, err = c.Projects.OpenByName(testCtx(t), strings.Repeat("n", 3000), nil)
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 1000)
	for _, line := range guard.Lines() {
		assert.Less(t, len(line), 1200)
	}
}

// No error and no log line quotes the API key, or the Authorization value
// that carries it, even where the server's message quotes it, as servers
// do when they refuse a key.
func TestAPIKeyScrubbedFromTheServersMessage(t *testing.T) {
	const oddKey = `sk-<odd>&"KEY"-789`
	cases := map[string]struct {
		key    string
		prefix string
		status int
	}{
		"key refused":               {testKey, "", http.StatusUnauthorized},
		"Bearer value refused":      {testKey, "Bearer", http.StatusUnauthorized},
		"server error quoting it":   {testKey, "Token", http.StatusInternalServerError},
		"key escaped in the answer": {oddKey, "", http.StatusForbidden},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			header := strings.TrimSpace(tc.prefix + " " + tc.key)
			guard := newGuard(t)
			guard.watch(tc.key, header, jsonEscaped(tc.key, true), jsonEscaped(tc.key, false))
			opts := []Option{WithAPIKey(tc.key), WithLogger(slog.New(guard))}
			if tc.prefix != "" {
				opts = append(opts, WithKeyPrefix(tc.prefix))
			}
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				msg, _ := json.Marshal(map[string]string{"message": "the token " + r.Header.Get("Authorization") + " is not valid"})
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				w.Write(msg)
			}, opts...)
			for op, call := range map[string]func() error{
				"safe":           func() error { _, err := c.User.Current(testCtx(t)); return err },
				"state-changing": func() error { _, err := c.User.RequestLicense(testCtx(t)); return err },
			} {
				err := call()
				var apiErr *APIError
				require.ErrorAs(t, err, &apiErr, op)
				for _, text := range errorTexts(err) {
					for _, secret := range []string{tc.key, header, jsonEscaped(tc.key, true)} {
						assert.NotContains(t, text, secret, "%s: %s", op, text)
					}
				}
				assert.Contains(t, err.Error(), "the token "+redacted+" is not valid", op)
			}
			assert.NotEmpty(t, guard.Lines(), "the attempts are logged")
		})
	}
}

// A short key is scrubbed where the server quotes it, not from every word
// that holds its letters.
func TestShortAPIKeyScrubbedOnlyAsAWord(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"message":"Cannot invoke check: key %s is not valid, key=%s."}`, r.Header.Get("Authorization"), r.Header.Get("Authorization"))
	}, WithAPIKey("k"))
	_, err := c.User.Current(testCtx(t))
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	want := "Cannot invoke check: key " + redacted + " is not valid, key=" + redacted + "."
	assert.Equal(t, want, apiErr.Message)
	assert.Contains(t, err.Error(), want)
}

// jsonEscaped is s as a JSON string's content, with or without the HTML
// escapes encoding/json adds by default.
func jsonEscaped(s string, html bool) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if enc.Encode(s) != nil {
		return ""
	}
	out := strings.TrimSuffix(buf.String(), "\n")
	return strings.TrimSuffix(strings.TrimPrefix(out, `"`), `"`)
}

// scrub finds a secret in every spelling a server may give it, and
// nothing that only looks like it.
func TestScrubSpellings(t *testing.T) {
	set := &secretSet{}
	set.addForms([]string{"Pw-Sécret-😀 <1>", "k"})
	for text, want := range map[string]string{
		"as sent: Pw-Sécret-😀 <1>.":                                         "as sent: [REDACTED].",
		"upper: PW-SÉCRET-😀 <1>":                                            "upper: [REDACTED]",
		`json: pw\u002dS\u00e9cret-\ud83d\ude00 \u003c1\u003e!`:             "json: [REDACTED]!",
		"url: pw%2Ds%C3%A9cret-%F0%9F%98%80+%3C1%3E&x":                      "url: [REDACTED]&x",
		"cut short: Pw-Sécret-😀 <":                                          "cut short: Pw-Sécret-😀 <",
		"another: Pw-Secret-😀 <1>":                                          "another: Pw-Secret-😀 <1>",
		"short key K as a word, in kilo and Kelvin (\u212a) not: key=K, k.": "short key [REDACTED] as a word, in kilo and Kelvin ([REDACTED]) not: key=[REDACTED], [REDACTED].",
		`broken escapes \u12 %G1 %`:                                         `broken escapes \u12 %G1 %`,
	} {
		assert.Equal(t, want, set.scrub(text), text)
	}
}
