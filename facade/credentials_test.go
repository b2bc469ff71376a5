package facade_test

import (
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/facade"
)

// Redact hides the key in every spelling a server may quote it in, and
// leaves other text as it is; HasAPIKey says whether a key is set.
func TestRedactAndHasAPIKey(t *testing.T) {
	const key = "Key-5ecret-7f3a9c2e41"
	c, err := facade.New("https://scm.example.com/api/v1", facade.WithAPIKey(key))
	require.NoError(t, err)
	assert.True(t, c.HasAPIKey())
	for _, spelling := range []string{key, strings.ToUpper(key), strings.ToLower(key), url.QueryEscape(key), base64.StdEncoding.EncodeToString([]byte(key))} {
		got := c.Redact("the key " + spelling + " is unknown")
		assert.NotContains(t, got, spelling)
		assert.True(t, strings.HasPrefix(got, "the key ") && strings.HasSuffix(got, " is unknown"), got)
	}
	assert.Equal(t, "nothing secret", c.Redact("nothing secret"))

	bare, err := facade.New("https://scm.example.com/api/v1")
	require.NoError(t, err)
	assert.False(t, bare.HasAPIKey())
	assert.Equal(t, "text "+key, bare.Redact("text "+key), "a client without a key has nothing to hide")
}
