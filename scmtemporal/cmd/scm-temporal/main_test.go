package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.temporal.io/sdk/client"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/scmtemporal"
)

// env is an environment of the test's own.
type env map[string]string

func (e env) Environ() []string {
	var out []string
	for k, v := range e {
		out = append(out, k+"="+v)
	}
	return out
}

func (e env) LookupEnv(k string) (string, bool) { v, ok := e[k]; return v, ok }

var errNotDialled = errors.New("the test does not dial")

// testApp is the command on the test's environment; dials records the
// options of every dial, which fails.
func testApp(t *testing.T, e env) (*app, *strings.Builder, *strings.Builder, *[]client.Options) {
	t.Helper()
	if _, ok := e["TEMPORAL_CONFIG_FILE"]; !ok {
		e["TEMPORAL_CONFIG_FILE"] = filepath.Join(t.TempDir(), "none.toml") // not the user's
	}
	var stdout, stderr strings.Builder
	var dials []client.Options
	a := &app{stdout: &stdout, stderr: &stderr, env: e,
		dial: func(o client.Options) (client.Client, error) { dials = append(dials, o); return nil, errNotDialled },
		scm: func(...facade.Option) (*facade.Client, error) {
			if e["SCM_BASE_URL"] == "" {
				return nil, errors.New("SCM_BASE_URL is not set")
			}
			return facade.New(e["SCM_BASE_URL"], facade.WithAPIKey("k"))
		},
		interrupt: func() (context.Context, context.CancelFunc) { return context.WithCancel(t.Context()) }}
	return a, &stdout, &stderr, &dials
}

// A plan of one item, in a directory of its own.
func writePlan(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.yaml")
	require.NoError(t, os.WriteFile(path, []byte("project: 1\nitems:\n  - name: sim\n    scenario: 103\n    experiment: SIMULATION\n"), 0o644))
	return path
}

// -h, help, and every mistake of the command line or its input are
// answered without dialling Temporal: the usage or the mistake, and exit
// 0 for help, 2 for a mistake.
func TestUsageIsAnsweredWithoutDialling(t *testing.T) {
	plan := writePlan(t)
	for name, c := range map[string]struct {
		args []string
		env  env
		code int
		want string
	}{
		"no command":                  {nil, env{}, 2, "usage: scm-temporal COMMAND"},
		"-h":                          {[]string{"-h"}, env{}, 0, "usage: scm-temporal COMMAND"},
		"help":                        {[]string{"help"}, env{}, 0, "worker [flags]"},
		"an unknown command":          {[]string{"serve"}, env{}, 2, `unknown command "serve"`},
		"start -h":                    {[]string{"start", "-h"}, env{}, 0, "-stop-on-cancel"},
		"worker -h":                   {[]string{"worker", "-h"}, env{}, 0, "-tls-cert-path"},
		"start without plan":          {[]string{"start"}, env{}, 2, "start: want one plan file, got 0 arguments"},
		"an unknown flag":             {[]string{"start", "-tls-cert", "x", plan}, env{}, 2, "flag provided but not defined: -tls-cert"},
		"a missing plan":              {[]string{"start", "nowhere.yaml"}, env{}, 2, "start: "},
		"a dataset of no kind":        {[]string{"start", "-data", "rows.txt", plan}, env{}, 2, "-data rows.txt: want a .csv, .jsonl, .ndjson or .parquet file"},
		"a worker with args":          {[]string{"worker", "x"}, env{"SCM_BASE_URL": "http://127.0.0.1:1/api/v1"}, 2, "worker: takes no arguments"},
		"a worker without its server": {[]string{"worker"}, env{}, 2, "SCM_BASE_URL"},
	} {
		t.Run(name, func(t *testing.T) {
			a, stdout, stderr, dials := testApp(t, c.env)
			code := a.run(c.args)
			assert.Equal(t, c.code, code, "stderr: %s", stderr)
			assert.Contains(t, stdout.String()+stderr.String(), c.want)
			assert.Empty(t, *dials, "dialled Temporal")
		})
	}
}

// Temporal is reached as the Temporal CLI reaches it: the environment's
// address, namespace and API key (which turns TLS on), the older
// TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY and TEMPORAL_TLS_CA for mTLS, and
// the flags over them; -tls=false turns TLS off.
func TestConnectionAsTheTemporalCLIReadsIt(t *testing.T) {
	cert, key := writeCert(t)
	for name, c := range map[string]struct {
		args  []string
		env   env
		check func(*testing.T, client.Options)
	}{
		"defaults": {nil, env{}, func(t *testing.T, o client.Options) {
			assert.Equal(t, "localhost:7233", o.HostPort)
			assert.Equal(t, "default", o.Namespace)
			assert.Nil(t, o.Credentials)
			assert.Nil(t, o.ConnectionOptions.TLS)
		}},
		"the environment": {nil, env{"TEMPORAL_ADDRESS": "temporal.example:7233", "TEMPORAL_NAMESPACE": "plans", "TEMPORAL_API_KEY": "secret"},
			func(t *testing.T, o client.Options) {
				assert.Equal(t, "temporal.example:7233", o.HostPort)
				assert.Equal(t, "plans", o.Namespace)
				assert.NotNil(t, o.Credentials)
				assert.NotNil(t, o.ConnectionOptions.TLS, "an API key turns TLS on")
			}},
		"flags over the environment": {[]string{"-address", "other:7233", "-namespace", "mine", "-tls=false"},
			env{"TEMPORAL_ADDRESS": "temporal.example:7233", "TEMPORAL_API_KEY": "secret"}, func(t *testing.T, o client.Options) {
				assert.Equal(t, "other:7233", o.HostPort)
				assert.Equal(t, "mine", o.Namespace)
				assert.Nil(t, o.ConnectionOptions.TLS)
			}},
		"mTLS from the older variables": {nil, env{"TEMPORAL_TLS_CERT": cert, "TEMPORAL_TLS_KEY": key, "TEMPORAL_TLS_CA": cert},
			func(t *testing.T, o client.Options) {
				require.NotNil(t, o.ConnectionOptions.TLS)
				assert.Len(t, o.ConnectionOptions.TLS.Certificates, 1)
				assert.NotNil(t, o.ConnectionOptions.TLS.RootCAs)
			}},
		"mTLS from flags": {[]string{"-tls-cert-path", cert, "-tls-key-path", key, "-tls-server-name", "temporal.internal"}, env{},
			func(t *testing.T, o client.Options) {
				require.NotNil(t, o.ConnectionOptions.TLS)
				assert.Len(t, o.ConnectionOptions.TLS.Certificates, 1)
				assert.Equal(t, "temporal.internal", o.ConnectionOptions.TLS.ServerName)
			}},
	} {
		t.Run(name, func(t *testing.T) {
			c.env["SCM_BASE_URL"] = "http://127.0.0.1:1/api/v1"
			a, _, stderr, dials := testApp(t, c.env)
			assert.Equal(t, 1, a.run(append([]string{"worker"}, c.args...)))
			assert.Contains(t, stderr.String(), "reaching Temporal at ")
			require.Len(t, *dials, 1)
			c.check(t, (*dials)[0])
		})
	}
}

// writeCert writes a self-signed certificate and its key, PEM, and returns
// their paths.
func writeCert(t *testing.T) (cert, key string) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "scm-temporal test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
	require.NoError(t, err)
	kder, err := x509.MarshalECPrivateKey(k)
	require.NoError(t, err)
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	require.NoError(t, os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644))
	require.NoError(t, os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600))
	return cert, key
}

// On a terminal, progress rewrites one line as items end; elsewhere there
// is none.
func TestProgressOnATerminal(t *testing.T) {
	var w strings.Builder
	assert.Nil(t, progress(&w, false))
	show := progress(&w, true)
	show(&scmtemporal.Summary{Items: []scmtemporal.ItemOutcome{{Status: scmtemporal.ItemDone}, {Status: scmtemporal.ItemFailed}, {Status: scmtemporal.ItemNotEnded}}})
	assert.Equal(t, "\r1 of 3 done, 1 failed, 0 unknown, 0 cancelled, 1 running  ", w.String())
}
