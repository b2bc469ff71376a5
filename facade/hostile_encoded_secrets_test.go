package facade

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
)

// encodedKey is a key whose base64 has both characters the URL alphabet
// replaces, so that each alphabet is its own spelling.
const encodedKey = "sk-live-~~~???-key-4"

// encodings are the spellings of a secret a server or a proxy produces by
// encoding it: base64 in both alphabets, padded or not, the Basic
// Authorization value of user:secret (also URL-escaped, as in a query),
// and hex in either case.
var encodings = map[string]func(secret string) string{
	"base64":                func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) },
	"base64 unpadded":       func(s string) string { return base64.RawStdEncoding.EncodeToString([]byte(s)) },
	"base64url":             func(s string) string { return base64.URLEncoding.EncodeToString([]byte(s)) },
	"base64url unpadded":    func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) },
	"Basic user:secret":     func(s string) string { return "Basic " + base64.StdEncoding.EncodeToString([]byte("scm:"+s)) },
	"user:secret escaped":   func(s string) string { return url.QueryEscape(base64.StdEncoding.EncodeToString([]byte("scm:" + s))) },
	"base64url user:secret": func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte("admin:" + s)) },
	"hex":                   func(s string) string { return hex.EncodeToString([]byte(s)) },
	"HEX":                   func(s string) string { return strings.ToUpper(hex.EncodeToString([]byte(s))) },
}

func TestEncodingsAreDistinct(t *testing.T) {
	seen := map[string]string{}
	for name, spell := range encodings {
		s := spell(encodedKey)
		assert.NotContains(t, seen, s, "%s spells the key as %s does", name, seen[s])
		seen[s] = name
	}
}

// errorTextObserver keeps the text of every error and state it is told.
type errorTextObserver struct {
	*obsRecorder
}

func (o errorTextObserver) CallEnd(ctx context.Context, c CallInfo, res CallResult) {
	o.obsRecorder.CallEnd(ctx, c, res)
	if res.Err != nil {
		o.add("call error %s request id %s", res.Err.Error(), res.RequestID)
	}
}

// encodedSecretServer quotes spelled (the key and the password, encoded)
// on every channel: an error's message, body and request id, a property
// name the drift findings quote, a job's state while it waits, and a
// failed job's error.
func encodedSecretServer(spelledKey, spelledPassword string) http.HandlerFunc {
	quoted := "login as scm with " + spelledPassword + " and key " + spelledKey
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/scenarios-available-for-import"):
			w.Header().Set("X-Request-Id", spelledKey)
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"message":%q,"error":%q}`, quoted, spelledPassword)
		case strings.HasSuffix(r.URL.Path, "/import-database"):
			fmt.Fprintf(w, `[{"jobId":5,%q:1},{"jobId":6}]`, spelledKey)
		case r.URL.Query().Get("jobId") == "5":
			fmt.Fprintf(w, `{"jobId":5,"status":%q}`, quoted)
		default:
			fmt.Fprintf(w, `{"jobId":6,"status":"ERROR","error":%q}`, quoted)
		}
	}
}

// The key and the password, encoded in each way a server or a proxy
// produces, reach no error, log line, observer (span) or drift finding.
func TestHostileSecretsEncoded(t *testing.T) {
	for name, spell := range encodings {
		t.Run(name, func(t *testing.T) {
			key, password := spell(encodedKey), spell(testDBPassword)
			guard := newGuard(t)
			guard.watch(key, password)
			_, c := newStub(t, encodedSecretServer(key, password), WithAPIKey(encodedKey),
				WithClock(faketest.NewInstantClock()), WithLogger(slog.New(guard)))
			rec := &obsRecorder{t: t}
			c.cfg.observer = errorTextObserver{rec}
			ctx := testCtx(t)
			var texts []string
			_, err := c.Imports.DatabaseScenarios(ctx, testDB())
			require.ErrorIs(t, err, ErrValidation)
			texts = append(texts, errorTexts(err)...)
			jobs, err := c.Imports.Database(ctx, 1, "x", []string{"a", "b"}, testDB(), nil)
			require.NoError(t, err)
			require.Len(t, jobs, 2)
			_, err = jobs[0].Wait(ctx, &WaitOptions{MaxWait: time.Hour})
			require.ErrorIs(t, err, ErrTimeout)
			texts = append(texts, errorTexts(err)...)
			_, err = jobs[1].Wait(ctx, nil)
			require.ErrorIs(t, err, ErrFailed)
			texts = append(texts, errorTexts(err)...)
			for _, f := range c.Drift() {
				texts = append(texts, fmt.Sprintf("%+v", f), string(f.Value))
			}
			require.NotEmpty(t, c.Drift(), "the control: the property is a finding")
			texts = append(append(texts, guard.Lines()...), rec.Lines()...)
			all := strings.Join(texts, "\n")
			assert.Contains(t, all, "login as scm with ", "the rest is kept")
			assert.Contains(t, all, redacted)
			for _, text := range texts {
				assert.NotContains(t, text, key, "the key as the server spelled it")
				assert.NotContains(t, text, password, "the password as the server spelled it")
			}
		})
	}
}

// A resumed download whose 206 carries the key, encoded, as its ETag fails
// with a *RequestError whose Broken.Reason does not quote it.
func TestHostileDownloadValidatorQuotesTheKey(t *testing.T) {
	for name, spell := range encodings {
		spelled := spell(testKey)
		l := &liar{rest: partial(strconv.Quote(spelled), rangeOf(half, liarSize-1), versions[1][half:], false)}
		_, _, _, err := l.read(t, "WriteTo")
		var dlErr *RequestError
		require.ErrorAs(t, err, &dlErr, name)
		assert.Contains(t, dlErr.Broken.Reason, "another version", "the control: %s", name)
		assert.NotContains(t, err.Error(), spelled, name)
		assert.NotContains(t, dlErr.Broken.Reason, spelled, name)
	}
}

// A proxy whose URL holds a user and password, and which quotes them back
// in each spelling (the password, the Basic value of user:password it
// received, hex): no error or log line shows them.
func TestHostileProxyQuotesItsUserinfo(t *testing.T) {
	const user, password = "proxyuser", "proxy-pass-~~~???-9"
	for name, spell := range encodings {
		t.Run(name, func(t *testing.T) {
			spelled := spell(password)
			guard := newGuard(t)
			guard.watch(spelled, password)
			proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadGateway)
				fmt.Fprintf(w, `{"message":"upstream refused %s (sent %s)"}`, spelled, r.Header.Get("Proxy-Authorization"))
			}))
			t.Cleanup(proxy.Close)
			proxyURL, err := url.Parse(proxy.URL)
			require.NoError(t, err)
			proxyURL.User = url.UserPassword(user, password)
			hc := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}
			c := newTestClient(t, "http://scm.invalid/api/v1", WithHTTPClient(hc), WithInsecureHTTP(),
				WithLogger(slog.New(guard)), WithRetryPolicy(RetryPolicy{MaxAttempts: 1}))
			_, err = c.User.Current(testCtx(t))
			require.ErrorIs(t, err, ErrServer)
			assert.Contains(t, err.Error(), "upstream refused", "the control: the proxy's message")
			for _, text := range append(errorTexts(err), guard.Lines()...) {
				assert.NotContains(t, text, spelled)
				assert.NotContains(t, text, password)
				assert.NotContains(t, text, base64.StdEncoding.EncodeToString([]byte(user+":"+password)))
			}
		})
	}
}

// assertRedacted checks a Redacted method of a run or a job: a text quoting
// the key in base64 and 1 KB long comes out without the key, cut to
// Limits.MaxReportedLen.
func assertRedacted(t *testing.T, redact func(string) string) {
	t.Helper()
	spelled := base64.StdEncoding.EncodeToString([]byte(testKey))
	got := redact("key " + spelled + " refused " + strings.Repeat("x", 1000))
	assert.True(t, strings.HasPrefix(got, "key "+redacted+" refused xxx"), got)
	assert.NotContains(t, got, spelled)
	assert.Less(t, len(got), DefaultLimits().MaxReportedLen+32, "cut")
}
