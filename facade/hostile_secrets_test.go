package facade

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
)

// A hostile server's spellings of a secret. The checks here do not use the
// facade's matcher: each looks for the exact text the server sent, and for
// the secret in any case.

// unicodeEscaped spells every character of s as a JSON \u escape.
func unicodeEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// percentEscaped spells every byte of s as a URL %XX escape.
func percentEscaped(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// assertNotShown fails when a text shows the secret: as the server spelled
// it, or in any letter case.
func assertNotShown(t *testing.T, texts []string, secret string, spellings ...string) {
	t.Helper()
	for _, text := range texts {
		assert.NotContains(t, strings.ToLower(text), strings.ToLower(secret), "the secret in some case")
		for _, s := range spellings {
			assert.NotContains(t, text, s, "the secret as the server spelled it")
		}
	}
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A server that quotes the password or the key in another case, or
// escaped, in its error message and in the body the error keeps raw.
func TestHostileSecretsInAnotherCaseOrEscaped(t *testing.T) {
	upper, lowerKey := strings.ToUpper(testDBPassword), strings.ToLower(testKey)
	for name, quoted := range map[string]string{
		"password upper-cased":       upper,
		"key lower-cased":            lowerKey,
		"password \\u-escaped":       unicodeEscaped(testDBPassword),
		"password mixed escapes":     `DB\u002dPASS-s\u0045cret-456`,
		"password percent-escaped":   percentEscaped(testDBPassword),
		"key partly percent-escaped": strings.ReplaceAll(testKey, "-", "%2d"),
	} {
		t.Run(name, func(t *testing.T) {
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				fmt.Fprintf(w, `{"message":"cannot log in as scm with %s","error":"x=%s","path":"/%s"}`, quoted, quoted, quoted)
			})
			var err error
			alloc := allocated(func() { _, err = c.Imports.DatabaseScenarios(testCtx(t), testDB()) })
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr)
			assert.ErrorIs(t, err, ErrValidation)
			texts := append(errorTexts(err), string(apiErr.Body))
			assertNotShown(t, texts, testDBPassword, quoted)
			assertNotShown(t, texts, testKey, quoted)
			assert.Contains(t, apiErr.Message, "cannot log in as scm with "+redacted, "the rest of the message is kept")
			assert.Contains(t, string(apiErr.Body), `"message":"cannot log in as scm with `+redacted+`"`, "the body is kept, still JSON")
			assert.Less(t, alloc, uint64(2<<20), "bytes allocated")
		})
	}
}

// A failed import job's message quotes the database password the import
// sent, as it was sent and upper-cased: neither the job's status, nor its
// StateError, nor a log line shows it.
func TestHostileJobMessageQuotesThePassword(t *testing.T) {
	guard := newGuard(t)
	guard.watch(strings.ToUpper(testDBPassword))
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/import-database"):
			fmt.Fprint(w, `[{"jobId":7,"error":null}]`)
		case strings.HasSuffix(r.URL.Path, "/import-status"):
			fmt.Fprintf(w, `{"jobId":7,"status":"FAILED","error":"connect failed: password %s (%s) refused"}`,
				testDBPassword, strings.ToUpper(testDBPassword))
		default:
			http.NotFound(w, r)
		}
	}, WithClock(faketest.NewInstantClock()), WithLogger(slog.New(guard)))
	jobs, err := c.Imports.Database(testCtx(t), 1, "new", []string{"A"}, testDB(), nil)
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	status, err := jobs[0].Wait(testCtx(t), nil)
	var stateErr *StateError
	require.ErrorAs(t, err, &stateErr)
	assert.ErrorIs(t, err, ErrFailed)
	texts := append(errorTexts(err), stateErr.Message, deref(status.Error), deref(jobs[0].State().Error))
	assertNotShown(t, texts, testDBPassword)
	assert.Equal(t, "connect failed: password "+redacted+" ("+redacted+") refused", stateErr.Message)
}

// A job resumed by id alone does not know the password, but its messages
// never quote the client's API key, in any case.
func TestHostileJobMessageQuotesTheKey(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"jobId":7,"status":"FAILED","error":"key %s is not licensed"}`, strings.ToUpper(testKey))
	}, WithClock(faketest.NewInstantClock()))
	_, err := c.Job(7).Wait(testCtx(t), nil)
	require.ErrorIs(t, err, ErrFailed)
	assertNotShown(t, errorTexts(err), testKey)
	assert.Contains(t, err.Error(), "key "+redacted+" is not licensed")
}

// An answer with a property named after the password (or holding it, in
// an enumeration's place) gives drift findings and Warn lines that do not
// show it.
func TestHostileDriftFindingNamesThePassword(t *testing.T) {
	guard := newGuard(t)
	guard.watch(strings.ToUpper(testDBPassword))
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"list":[{"id":1,"name":"A"}],%q:1,"x":{%q:true}}`, testDBPassword, strings.ToUpper(testDBPassword))
	}, WithLogger(slog.New(guard)))
	list, err := c.Imports.DatabaseScenarios(testCtx(t), testDB())
	require.NoError(t, err)
	require.Len(t, list.List, 1, "the answer is read")
	findings := c.Drift()
	require.NotEmpty(t, findings, "the unknown properties are findings")
	var texts []string
	for _, f := range findings {
		texts = append(texts, fmt.Sprintf("%+v", f), string(f.Value))
	}
	texts = append(texts, guard.Lines()...)
	assertNotShown(t, texts, testDBPassword)
	assert.Contains(t, fmt.Sprint(findings), redacted, "the finding is kept, the name replaced")
}

// A run's failure text never quotes the API key, in any spelling the
// server chose.
func TestRunMessagesNeverQuoteTheKey(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"failed":true,"finished":false,"terminal":true,"text":"license check failed for key %s"}`, strings.ToUpper(testKey))
	}, WithClock(faketest.NewInstantClock()))
	st, err := c.Run(1).Wait(testCtx(t), nil)
	require.ErrorIs(t, err, ErrFailed)
	assert.NotContains(t, strings.ToLower(err.Error()), strings.ToLower(testKey))
	assert.NotContains(t, strings.ToLower(*st.Text), strings.ToLower(testKey))
}
