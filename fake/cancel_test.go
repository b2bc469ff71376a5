package fake_test

import (
	"context"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// Clients that give up halfway through long answers leave no log line:
// the server writes each answer's header once, and drops the connection
// when writing the rest fails, rather than answering the failure with a
// second header (which net/http logs as superfluous).
func TestCancelledAnswersWriteOneHeader(t *testing.T) {
	clock := fake.NewVirtualClock(epoch)
	srv, logs := loggedServer(t, fake.WithClock(clock), fake.WithLicense(), fake.WithResultSize(200_000, 2, fake.MaxTake))
	status, body := send(t, srv, http.MethodGet, "/open/experiments/run", map[string][]string{"rcId": {"10101"}}, "", "")
	require.Equal(t, http.StatusOK, status, body)
	clock.Advance(fake.DefaultRunDuration)
	paths := []string{
		"/open/experiments/dashboard-pages?experimentResultId=5002",                   // a streamed list, 200,000 pages
		"/open/experiments/pages?rcId=10101",                                          // a streamed list
		"/open/experiments/chart-table-data?rcId=10101&chartId=101&take=10000&skip=0", // a table page
	}
	for i := range 20 {
		giveUpHalfway(t, srv, paths[i%len(paths)])
	}
	srv.Close() // waits for every handler to end
	assert.NotContains(t, logs.String(), "superfluous")
	assert.Empty(t, logs.String())
}

// giveUpHalfway reads the start of an answer, then cancels the call.
func giveUpHalfway(t *testing.T, srv *fake.Server, path string) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", srv.APIKey)
	resp, err := srv.Client().Do(req)
	require.NoError(t, err, path)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, path)
	_, err = io.ReadFull(resp.Body, make([]byte, 1024))
	require.NoError(t, err, path)
	cancel()
}
