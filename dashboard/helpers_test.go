package dashboard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/ids"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testCtx is the context of a test that waits: it ends with the test, or
// after 10 s, so a regression fails in seconds instead of hanging.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// newFake starts a fake server on an instant clock, whose runs finish at
// once, and a client of it on the same clock.
func newFake(t testing.TB, opts ...fake.Option) (*fake.Server, *facade.Client) {
	t.Helper()
	srv, clk := faketest.NewInstantServer(t, append([]fake.Option{fake.WithRunDuration(0)}, opts...)...)
	return srv, newClient(t, srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clk))
}

// newStub serves handler under /api/v1 and returns a client of it on an
// instant clock, for answers the fake does not give.
func newStub(t testing.TB, handler http.HandlerFunc) *facade.Client {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", handler)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return newClient(t, srv.URL+"/api/v1", facade.WithAPIKey("k"), facade.WithClock(faketest.NewInstantClock()))
}

func newClient(t testing.TB, url string, opts ...facade.Option) *facade.Client {
	t.Helper()
	c, err := facade.New(url, opts...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// runSync runs rcID synchronously and returns its experimentResultId.
func runSync(t testing.TB, c *facade.Client, rcID ids.RcID) ids.ExperimentResultID {
	t.Helper()
	out, err := c.Experiments.RunSync(testCtx(t), rcID)
	require.NoError(t, err)
	return out.ExperimentResultId
}
