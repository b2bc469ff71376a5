package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// seen records the paths a stand-in server was asked for.
type seen struct {
	mu    sync.Mutex
	paths []string
}

func (s *seen) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

func (s *seen) server(t *testing.T, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.Method+" "+r.URL.Path)
		s.mu.Unlock()
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// The front sends a JSON call through Prism only, a multipart upload
// around it only, and a workbook download through Prism and then around it,
// answering the fake's bytes.
func TestFrontRoutesBinaryBodiesAroundPrism(t *testing.T) {
	var viaPrism, direct seen
	prismSrv, fakeSrv := viaPrism.server(t, "from prism"), direct.server(t, "from the fake")
	r := &result{}
	front, err := startFront(prismSrv.URL, fakeSrv.URL+fake.BasePath, r)
	require.NoError(t, err)
	t.Cleanup(func() { front.Close() })
	base := "http://" + front.Addr().String() + fake.BasePath
	call := func(method, path, contentType string) string {
		req, err := http.NewRequestWithContext(t.Context(), method, base+path, strings.NewReader("x"))
		require.NoError(t, err)
		req.Header.Set("Content-Type", contentType)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	assert.Equal(t, "from prism", call("GET", "/open/user", "application/json"))
	assert.Equal(t, "from the fake", call("POST", "/open/scenario/import/excel", "multipart/form-data; boundary=b"))
	assert.Equal(t, "from the fake", call("GET", "/open/experiments/export-page", ""))
	assert.Equal(t, []string{"GET /open/user", "GET /open/experiments/export-page"}, viaPrism.list())
	assert.Equal(t, []string{"POST /api/v1/open/scenario/import/excel", "GET /api/v1/open/experiments/export-page"}, direct.list())
	assert.Equal(t, int64(2), r.validated.Load())
	assert.Equal(t, int64(1), r.bypassed.Load())
}

func TestViolationLines(t *testing.T) {
	out := "info Request received\nwarning Violation: response.body must match exactly one schema in oneOf\nerror Request terminated with error: https://stoplight.io/prism/errors#VIOLATIONS\n"
	assert.Len(t, violationLines([]byte(out)), 2)
}
