package facade

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewRejectsBadInput(t *testing.T) {
	cases := map[string]struct {
		url  string
		opts []Option
		want string
	}{
		"empty url":           {"", nil, "scheme"},
		"ftp scheme":          {"ftp://x/api/v1", nil, "scheme"},
		"no host":             {"http:///api/v1", nil, "host"},
		"query":               {"https://x/api/v1?a=b", nil, "query"},
		"empty key":           {"https://x/api/v1", []Option{WithAPIKey("")}, "WithAPIKey"},
		"key with newline":    {"https://x/api/v1", []Option{WithAPIKey("a\nb")}, "WithAPIKey"},
		"two-word prefix":     {"https://x/api/v1", []Option{WithKeyPrefix("Bearer token")}, "WithKeyPrefix"},
		"nil http client":     {"https://x/api/v1", []Option{WithHTTPClient(nil)}, "WithHTTPClient"},
		"nil logger":          {"https://x/api/v1", []Option{WithLogger(nil)}, "WithLogger"},
		"nil clock":           {"https://x/api/v1", []Option{WithClock(nil)}, "WithClock"},
		"negative timeout":    {"https://x/api/v1", []Option{WithAttemptTimeout(-time.Second)}, "WithAttemptTimeout"},
		"negative attempts":   {"https://x/api/v1", []Option{WithRetryPolicy(RetryPolicy{MaxAttempts: -1})}, "MaxAttempts"},
		"base over cap":       {"https://x/api/v1", []Option{WithRetryPolicy(RetryPolicy{BaseDelay: time.Minute, MaxDelay: time.Second})}, "BaseDelay"},
		"poll floor > cap":    {"https://x/api/v1", []Option{WithPollPolicy(PollPolicy{MinInterval: time.Hour})}, "MinInterval"},
		"key over plain http": {"http://scm.example.com/api/v1", []Option{WithAPIKey(testKey)}, "plain http"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := New(tc.url, tc.opts...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), testKey)
			assert.Equal(t, name == "key over plain http", errors.Is(err, ErrValidation), "matches ErrValidation")
		})
	}
}

func TestNewAllowsPlainHTTPToLoopbackOrWhenAsked(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:1/api/v1", "http://localhost:1/api/v1", "http://[::1]:1/api/v1"} {
		_, err := New(u, WithAPIKey(testKey))
		assert.NoError(t, err, u)
	}
	_, err := New("http://scm.example.com/api/v1", WithAPIKey(testKey), WithInsecureHTTP())
	assert.NoError(t, err)
	_, err = New("http://scm.example.com/api/v1") // no key, nothing to leak
	assert.NoError(t, err)
}

func TestAuthorizationHeaderOnEveryRequest(t *testing.T) {
	for name, tc := range map[string]struct {
		opts []Option
		want string
	}{
		"bare key":    {nil, testKey},
		"with prefix": {[]Option{WithKeyPrefix("Bearer")}, "Bearer " + testKey},
	} {
		t.Run(name, func(t *testing.T) {
			var got, ua string
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				got, ua = r.Header.Get("Authorization"), r.Header.Get("User-Agent")
				fmt.Fprint(w, `{"username":"demo"}`)
			}, append(tc.opts, WithUserAgent("probe/1"))...)
			u, err := c.User.Current(testCtx(t))
			require.NoError(t, err)
			assert.Equal(t, "demo", u.Username)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, "probe/1 "+defaultUserAgent, ua, "the caller's product, then the SDK's")
			assert.Regexp(t, `^probe/1 scmgo-facade/\S+$`, ua)
		})
	}
}

func TestKeyNotSentToAnotherHostAfterRedirect(t *testing.T) {
	var leaked string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = r.Header.Get("Authorization")
		fmt.Fprint(w, `{"username":"elsewhere"}`)
	}))
	defer other.Close()
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/x", http.StatusFound)
	})
	_, err := c.User.Current(testCtx(t))
	require.NoError(t, err)
	assert.Empty(t, leaked)
}

func TestUserSuppliedHTTPClientIsWrapped(t *testing.T) {
	var seen int
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen++
		assert.Equal(t, testKey, r.Header.Get("Authorization"))
		return http.DefaultTransport.RoundTrip(r)
	})}
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `"hola"`) }, WithHTTPClient(hc))
	s, err := c.User.Translate(testCtx(t), "hello")
	require.NoError(t, err)
	assert.Equal(t, "hola", s)
	assert.Equal(t, 1, seen)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestKeyNeverPrinted(t *testing.T) {
	c, err := New("https://scm.example.com/api/v1", WithAPIKey(testKey), WithKeyPrefix("Bearer"))
	require.NoError(t, err)
	var sb strings.Builder
	logger := slog.New(slog.NewJSONHandler(&sb, nil))
	logger.Info("client", "c", c, "cfg", c.cfg, "key", c.cfg.key)
	values := []any{c, *c, c.cfg, c.cfg.key, c.hc.Transport, c.Projects, c.Run(1), c.Job(1)}
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			out := fmt.Sprintf(verb, v)
			assert.NotContains(t, out, testKey, "%s of %T", verb, v)
		}
	}
	assert.NotContains(t, sb.String(), testKey)
	assert.Contains(t, c.String(), redacted)
}

func TestNewFromEnv(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		fmt.Fprint(w, `[]`)
	}))
	defer srv.Close()
	t.Setenv("SCM_BASE_URL", srv.URL+"/api/v1")
	t.Setenv("SCM_API_KEY", testKey)
	t.Setenv("SCM_API_KEY_PREFIX", "Bearer")
	c, err := NewFromEnv()
	require.NoError(t, err)
	defer c.CloseIdleConnections()
	_, err = c.Projects.List(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, "Bearer "+testKey, got)

	t.Setenv("SCM_BASE_URL", "")
	_, err = NewFromEnv()
	assert.ErrorContains(t, err, "SCM_BASE_URL")
}

// An empty SCM_API_KEY is refused at construction, naming the variable,
// rather than by the server's 401 at the first call; a key given as an
// option is enough.
func TestNewFromEnvRefusesAnEmptyKey(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		fmt.Fprint(w, `[]`)
	}))
	defer srv.Close()
	t.Setenv("SCM_BASE_URL", srv.URL+"/api/v1")
	t.Setenv("SCM_API_KEY_PREFIX", "")
	for name, set := range map[string]func(){"empty": func() { t.Setenv("SCM_API_KEY", "") }, "unset": func() { unsetEnv(t, "SCM_API_KEY") }} {
		t.Run(name, func(t *testing.T) {
			set()
			c, err := NewFromEnv()
			require.Error(t, err)
			assert.Nil(t, c)
			assert.Contains(t, err.Error(), "SCM_API_KEY is not set or empty")
			c, err = NewFromEnv(WithAPIKey(testKey))
			require.NoError(t, err, "a key given as an option is enough")
			c.CloseIdleConnections()
		})
	}
	assert.Zero(t, calls, "nothing is sent")
}

// unsetEnv unsets name until the test ends.
func unsetEnv(t *testing.T, name string) {
	t.Helper()
	t.Setenv(name, "") // restores the value at the end
	require.NoError(t, os.Unsetenv(name))
}

func TestRawClientIsReachableAndAuthorized(t *testing.T) {
	_, c := newFake(t)
	resp, err := c.Raw().GetCurrentUser(testCtx(t)) // the fake answers 401 without the key
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}
