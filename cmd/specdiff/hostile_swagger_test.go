package main

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
)

// A server that answers a Swagger 2.0 listing with a null where a value
// belongs (a path item, an operation, a response, a parameter) gets an
// error naming the line and the null, exit 2, never a panic; and reading
// it holds little memory.
func TestHostileSwaggerWithNulls(t *testing.T) {
	for _, doc := range swaggerSeeds[:5] {
		t.Run(strings.SplitN(doc, "\n", 2)[1], func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/yaml")
				w.Write([]byte(doc))
			}))
			t.Cleanup(srv.Close)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			code, out, errs := runSpecdiff(t, nil, "-spec", specPath, srv.URL+"/swagger.yaml")
			runtime.ReadMemStats(&after)
			if code != exitError {
				t.Errorf("exit %d, want %d; stdout %s; stderr %s", code, exitError, out, errs)
			}
			if !strings.Contains(errs, "swagger.yaml:2: ") || !strings.Contains(errs, "is null: want a value") {
				t.Errorf("stderr does not name the line and the null: %s", errs)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("reading a %d-byte listing allocated %d bytes", len(doc), alloc)
			}
		})
	}
}
