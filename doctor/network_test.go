package doctor_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/doctor"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// tlsFake serves the fake over TLS with httptest's certificate (for
// example.com, 127.0.0.1 and ::1), and returns it with a pool that trusts
// it.
func tlsFake(t *testing.T) (*httptest.Server, *x509.CertPool) {
	t.Helper()
	srv := httptest.NewTLSServer(fake.NewHandler(fake.WithLicense()))
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return srv, pool
}

// Over TLS with the server's CA trusted, every network check passes and
// the TLS line names the version and the certificate's names.
func TestTLSWithTheCATrusted(t *testing.T) {
	srv, pool := tlsFake(t)
	c, err := facade.New(srv.URL+fake.BasePath, facade.WithAPIKey(fake.DefaultAPIKey), facade.WithTLSConfig(&tls.Config{RootCAs: pool}))
	require.NoError(t, err)
	rep := diagnose(t, c, doctor.Options{})
	assert.False(t, rep.Failed(), text(t, rep))
	tlsCheck, _ := rep.Check(doctor.CheckTLS)
	assert.Equal(t, doctor.OK, tlsCheck.Status)
	assert.Contains(t, tlsCheck.Seen, "a certificate for example.com, *.example.com, 127.0.0.1, ::1")
}

// The failures of the connection's settings each fail their own check and
// say what to change: an unknown CA names the setting that trusts one, a
// certificate for other names names them, a scheme that does not fit the
// port gives the URL with the other one, a host that does not exist and a
// port nobody listens on name the base URL.
func TestNetworkFailuresSayWhatToChange(t *testing.T) {
	tlsSrv, pool := tlsFake(t)
	plain := httptest.NewServer(fake.NewHandler())
	t.Cleanup(plain.Close)
	tlsURL, _ := url.Parse(tlsSrv.URL)
	plainURL, _ := url.Parse(plain.URL)
	closed := closedPort(t)
	names := doctor.Names{CACert: "--ca-cert FILE", BaseURL: "--base-url"}
	tests := map[string]struct {
		base  string
		opts  []facade.Option
		check string
		seen  string
		fix   string
	}{
		"unknown CA": {base: tlsSrv.URL, check: doctor.CheckTLS,
			seen: "the server's certificate issued by Acme Co is signed by an authority this machine does not trust",
			fix:  "trust the server's CA: give its certificate (PEM) with --ca-cert FILE; or, knowingly, turn verification off with facade.WithInsecureSkipVerify"},
		"other names": {base: "https://localhost:" + tlsURL.Port(), opts: []facade.Option{facade.WithTLSConfig(&tls.Config{RootCAs: pool})}, check: doctor.CheckTLS,
			seen: "the server's certificate is for example.com, *.example.com, 127.0.0.1, ::1, not localhost",
			fix:  "use one of those names as the host of the base URL (--base-url), or give the server a certificate for localhost"},
		"https to plain http": {base: "https://" + plainURL.Host, check: doctor.CheckTLS,
			seen: "the server speaks plain HTTP on " + plainURL.Host + ", not HTTPS", fix: "use http://" + plainURL.Host + "/api/v1 (--base-url)"},
		"http to https": {base: "http://" + tlsURL.Host, check: doctor.CheckTLS,
			seen: "the server speaks HTTPS on " + tlsURL.Host + ", and the base URL says http", fix: "use https://" + tlsURL.Host + "/api/v1 (--base-url)"},
		"no such host": {base: "https://doctor-test.invalid", check: doctor.CheckDNS,
			seen: "no host is named doctor-test.invalid", fix: "check the host of the base URL (--base-url) and this machine's DNS settings"},
		"nobody listens": {base: "http://" + closed, check: doctor.CheckConnect,
			seen: "connecting to " + closed + ": connection refused", fix: "check the host and port of the base URL (--base-url), that the server runs, and that no firewall is in between"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			opts := append([]facade.Option{facade.WithAPIKey(fake.DefaultAPIKey), facade.WithRetryPolicy(facade.RetryPolicy{MaxAttempts: 1})}, tc.opts...)
			c, err := facade.New(tc.base+fake.BasePath, opts...)
			require.NoError(t, err)
			rep := diagnose(t, c, doctor.Options{Names: names})
			require.Equal(t, tc.check, rep.StoppedAfter, text(t, rep))
			got, _ := rep.Check(tc.check)
			assert.Equal(t, doctor.Check{Name: tc.check, Status: doctor.Fail, Seen: tc.seen, Fix: tc.fix}, got)
		})
	}
}

// closedPort is an address on this machine where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// secretKey is a key whose spellings a hostile server quotes.
const secretKey = "Key-5ecret-7f3a9c2e41"

// spellings are the key as a server may quote it: as sent, in other
// letter cases, escaped as URLs escape it, in base64.
func spellings() []string {
	return []string{secretKey, strings.ToUpper(secretKey), strings.ToLower(secretKey), url.QueryEscape(secretKey),
		base64.StdEncoding.EncodeToString([]byte(secretKey))}
}

// quotingBody is a JSON object whose field holds text and then every
// spelling of the key, one of them JSON-escaped in the body itself.
func quotingBody(field, text string, more string) string {
	escaped := `\u004b` + strings.TrimPrefix(secretKey, "K")
	return `{"` + field + `":"` + text + " " + strings.Join(append(spellings(), escaped), " | ") + `"` + more + `}`
}

// A server that refuses the key fails the key check, and one that
// quotes it, in any spelling, in an error or in the user it answers, has
// it quoted in no text of the report.
func TestTheKeyIsInNoSpellingOfTheReport(t *testing.T) {
	for name, answer := range map[string]func(w http.ResponseWriter){
		"refused": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(quotingBody("message", "unknown key", `,"details":{}`)))
		},
		"denied as a real server denies": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(quotingBody("message", "Access is denied for", `,"details":{}`)))
		},
		"accepted and quoted": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(quotingBody("username", "user", `,"id":1,"firstName":"","lastName":"","email":"e"`)))
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv, clk := fakeBehind(t, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
				if r.URL.Path == "/api/v1/open/user" {
					answer(w)
					return
				}
				next.ServeHTTP(w, r)
			})
			c, err := facade.New(srv, facade.WithAPIKey(secretKey), facade.WithClock(clk))
			require.NoError(t, err)
			rep := diagnose(t, c, doctor.Options{})
			var all strings.Builder
			for _, f := range doctor.Formats() {
				require.NoError(t, rep.Write(&all, f))
			}
			require.NotEmpty(t, rep.Checks)
			for _, s := range spellings() {
				assert.NotContains(t, all.String(), s, "the report quotes the key")
			}
			if name != "accepted and quoted" {
				key, _ := rep.Check(doctor.CheckKey)
				assert.Equal(t, doctor.Fail, key.Status)
				assert.True(t, strings.HasPrefix(key.Seen, "the server refused the key: getCurrentUser: "), key.Seen)
				assert.Equal(t, doctor.CheckKey, rep.StoppedAfter)
			}
		})
	}
}

// A client used before the doctor still has its connection checked: the
// lines see a lookup-free address, a new connection and its handshake.
func TestNetworkChecksAFreshConnection(t *testing.T) {
	srv, pool := tlsFake(t)
	c, err := facade.New(srv.URL+fake.BasePath, facade.WithAPIKey(fake.DefaultAPIKey), facade.WithTLSConfig(&tls.Config{RootCAs: pool}))
	require.NoError(t, err)
	_, err = c.Projects.List(t.Context())
	require.NoError(t, err)
	rep := diagnose(t, c, doctor.Options{})
	connect, _ := rep.Check(doctor.CheckConnect)
	assert.Equal(t, "connected to "+strings.TrimPrefix(srv.URL, "https://"), connect.Seen)
	tlsCheck, _ := rep.Check(doctor.CheckTLS)
	assert.True(t, strings.HasPrefix(tlsCheck.Seen, "TLS 1.3, a certificate for"), tlsCheck.Seen)
}
