package itemflow_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
	"go.temporal.io/sdk/activity"

	"github.com/scmodel/scmgo/examples/temporal/itemflow"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// instantClock is a virtual clock whose waits advance it at once: the
// activities' polls happen at once, on virtual time.
type instantClock struct{ *fake.VirtualClock }

func (c instantClock) After(d time.Duration) <-chan time.Time {
	c.Advance(max(d, 0))
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

// newFake starts the fake server on a virtual clock that the activities'
// waits advance.
func newFake(t *testing.T, opts ...fake.Option) (*fake.Server, instantClock) {
	t.Helper()
	clock := instantClock{fake.NewVirtualClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))}
	srv := fake.NewServer(append([]fake.Option{fake.WithClock(clock), fake.WithLicense()}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, clock
}

// activities returns the activities on a client of srv, on clock (nil: the
// real clock); wrap, when set, wraps its transport.
func activities(t *testing.T, srv *fake.Server, wrap func(http.RoundTripper) http.RoundTripper, clock facade.Clock) *itemflow.Activities {
	t.Helper()
	opts := []facade.Option{facade.WithAPIKey(srv.APIKey)}
	if clock != nil {
		opts = append(opts, facade.WithClock(clock))
	}
	if wrap != nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		t.Cleanup(tr.CloseIdleConnections)
		opts = append(opts, facade.WithHTTPClient(&http.Client{Transport: wrap(tr)}))
	}
	c, err := facade.New(srv.URL, opts...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return &itemflow.Activities{Client: c, Clock: clock}
}

// writeWorkbook writes a one-sheet workbook and returns its path.
func writeWorkbook(t *testing.T) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetSheetName("Sheet1", "Customers"))
	require.NoError(t, f.SetSheetRow("Customers", "A1", &[]any{"Id", "Name"}))
	require.NoError(t, f.SetSheetRow("Customers", "A2", &[]any{1, "Acme"}))
	path := filepath.Join(t.TempDir(), "variant.xlsx")
	require.NoError(t, f.SaveAs(path))
	return path
}

// crashOnce is a transport that makes one attempt of one activity die: in
// attempt 1 of the activity, the first request to path after a request to
// after was sent panics, as if the worker's process died there, with the
// work it had started going on at the server. Nothing the activity would
// do next (no cleanup, no further heartbeat) happens.
type crashOnce struct {
	next          http.RoundTripper
	activity      string
	after, path   string
	mu            sync.Mutex
	armed, killed bool
}

func (c *crashOnce) RoundTrip(req *http.Request) (*http.Response, error) {
	if c.dies(req) {
		panic("the worker died")
	}
	return c.next.RoundTrip(req)
}

func (c *crashOnce) dies(req *http.Request) bool {
	if !firstAttemptOf(req, c.activity) {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.killed:
		return false
	case c.armed && strings.HasSuffix(req.URL.Path, c.path):
		c.killed = true
		return true
	case strings.HasSuffix(req.URL.Path, c.after):
		c.armed = true
	}
	return false
}

// firstAttemptOf reports whether req is sent by attempt 1 of the activity.
func firstAttemptOf(req *http.Request, name string) bool {
	ctx := req.Context()
	if !activity.IsActivity(ctx) {
		return false
	}
	info := activity.GetInfo(ctx)
	return info.ActivityType.Name == name && info.Attempt == 1
}

// crashOnAnswer is a transport that makes attempt 1 of one activity die
// once the server has answered its first request to path: the server did
// the work, and the activity neither reads the answer nor heartbeats.
type crashOnAnswer struct {
	next     http.RoundTripper
	activity string
	path     string
	once     sync.Once
}

func (c *crashOnAnswer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := c.next.RoundTrip(req)
	if err != nil || !firstAttemptOf(req, c.activity) || !strings.HasSuffix(req.URL.Path, c.path) {
		return resp, err
	}
	dies := false
	c.once.Do(func() { dies = true })
	if dies {
		resp.Body.Close()
		panic("the worker died")
	}
	return resp, nil
}

func fileExists(t *testing.T, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	return err == nil
}
