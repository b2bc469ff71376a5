package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// doctorDoc is the guide whose reports the golden files keep true.
const doctorDoc = "../../docs/doctor.md"

// The reports docs/doctor.md shows are real output of scm doctor against
// the fake as scm-fake serves it, its address shown as scm-fake's
// default: each is a golden file, and the guide's block after
// "<!-- golden NAME -->" is that file. -update rewrites both.
func TestDoctorDocs(t *testing.T) {
	noProxy(t)
	reports := map[string]string{}
	plain, _ := devServer(t, false)
	r := scm(t, "", "doctor", "--base-url", plain, "--api-key", testKey)
	require.Equal(t, exitOK, r.code, r.stderr)
	reports["doctor.txt"] = shownAt(r.stdout, plain, "127.0.0.1:8080")
	r = scm(t, "", "doctor", "--base-url", plain, "--api-key", testKey, "--format", "json")
	require.Equal(t, exitOK, r.code, r.stderr)
	reports["doctor.json"] = shownAt(r.stdout, plain, "127.0.0.1:8080")

	secure, _ := devServer(t, true)
	r = scm(t, "", "doctor", "--base-url", secure, "--api-key", testKey)
	require.Equal(t, exitAPI, r.code, r.stderr)
	reports["doctor-tls.txt"] = shownAt(r.stdout, secure, "127.0.0.1:8443")

	runBase := runDocServer(t)
	r = scm(t, "", "doctor", "--base-url", runBase, "--api-key", testKey, "--run", "10303", "--yes")
	require.Equal(t, exitOK, r.code, r.stderr)
	reports["doctor-run.txt"] = shownAt(r.stdout, runBase, "127.0.0.1:8080")

	doc, err := os.ReadFile(doctorDoc)
	require.NoError(t, err)
	for name, got := range reports {
		golden(t, name, got)
		doc = docBlock(t, doc, name, got)
	}
	if *update {
		require.NoError(t, os.WriteFile(doctorDoc, doc, 0o644))
	}
}

// shownAt is out with the server's address replaced by the one the guide
// shows, and the spec's count of operations by N, so that an operation
// added to the spec leaves the guide true.
func shownAt(out, base, shown string) string {
	u, _ := url.Parse(base)
	out = strings.ReplaceAll(out, u.Host, shown)
	return strings.ReplaceAll(out, fmt.Sprintf("spec: %d operations", len(gen.Operations())), "spec: N operations")
}

var goldenBlock = regexp.MustCompile("(?s)(<!-- golden ([a-z.-]+) -->\n```[a-z]*\n)(.*?)(```)")

// docBlock checks that the guide's block for the golden file name holds
// want, and returns the guide with the block rewritten to it.
func docBlock(t *testing.T, doc []byte, name, want string) []byte {
	t.Helper()
	found := false
	doc = goldenBlock.ReplaceAllFunc(doc, func(block []byte) []byte {
		m := goldenBlock.FindSubmatch(block)
		if string(m[2]) != name {
			return block
		}
		found = true
		if !*update {
			assert.Equal(t, want, string(m[3]), "%s's block %s is not what scm doctor writes; %s rewrites it", doctorDoc, name, updateCommand(t))
		}
		return []byte(string(m[1]) + want + string(m[4]))
	})
	assert.True(t, found, "%s has no block <!-- golden %s -->", doctorDoc, name)
	return doc
}

// runDocServer serves the fake on an instant clock, whose configuration
// 10303 has run once, with the OpenAPI document at /v3/api-docs as
// scm-fake serves it, and sets the doctor's clock to it until the test
// ends.
func runDocServer(t *testing.T) string {
	t.Helper()
	clk := faketest.NewInstantClock()
	doctorClock = clk
	t.Cleanup(func() { doctorClock = nil })
	h := fake.NewHandler(fake.WithAPIKeys(testKey), fake.WithLicense(), fake.WithClock(clk),
		fake.WithStatusLag(fake.DefaultStatusLag), fake.WithRunDuration(40*time.Second))
	dev := fake.DefaultDevServer()
	mux := http.NewServeMux()
	mux.Handle("/v3/", dev.Handler())
	mux.Handle("/", h)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ranBefore(t, srv.URL+fake.BasePath, clk)
	return srv.URL + fake.BasePath
}
