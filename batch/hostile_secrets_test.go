package batch_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
)

// echoKey answers getExperiments with a 500 whose message quotes the API
// key in every spelling a server or a proxy produces: as sent, in base64
// (both alphabets, padded or not), as the base64 of user:key, in hex.
type echoKey struct {
	next http.RoundTripper
	key  string
}

func (e echoKey) spellings() []string {
	k := []byte(e.key)
	return []string{e.key, base64.StdEncoding.EncodeToString(k), base64.RawURLEncoding.EncodeToString(k),
		base64.StdEncoding.EncodeToString([]byte("demo:" + e.key)), hex.EncodeToString(k), strings.ToUpper(hex.EncodeToString(k))}
}

func (e echoKey) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.URL.Path, "/open/experiments/list") {
		return e.next.RoundTrip(req)
	}
	body := `{"message": "denied for ` + strings.Join(e.spellings(), " ") + `", "details": {}}`
	return &http.Response{StatusCode: http.StatusInternalServerError, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
}

// A server that quotes the key, in any spelling, in an item's error: the
// state file and the summary the batch writes hold none of them.
func TestHostileEncodedKeyNeverInTheStateFile(t *testing.T) {
	e := newEnv(t)
	p := e.plan(t, "project: 1\noutput: out\nitems:\n  - {name: baseline, scenario: 101, experiment: GFA}\n")
	echo := echoKey{key: e.srv.APIKey}
	c := e.client(t, func(next http.RoundTripper) http.RoundTripper { echo.next = next; return echo })
	sum, err := e.runner(t, c, p, batch.Options{Parallel: 1}).Run(deadline(t))
	require.NoError(t, err)
	require.Equal(t, batch.Failed, sum.Items[0].Status, "getExperiments failed: %s", sum.Items[0].Error)
	assert.Contains(t, sum.Items[0].Error, "denied for", "the server's message is kept, scrubbed")
	state, err := os.ReadFile(p.StatePath())
	require.NoError(t, err)
	require.Contains(t, string(state), "denied for", "the state file records the item's error")
	for _, spelling := range echo.spellings() {
		assert.False(t, bytes.Contains(state, []byte(spelling)), "the state file holds the key as %q", spelling)
		assert.NotContains(t, sum.Items[0].Error, spelling)
	}
}
