package fake

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/api"
)

// BenchmarkValidatedGet serves a simple GET (getExperimentStatus) three ways
// in the same run and reports their cost per call and the ratios against the
// unvalidated call: the handler alone, the whole server path (key, faults,
// kin-openapi validation with the cached route, handler), and validation with
// the route searched by a kin-openapi router on every call instead.
func BenchmarkValidatedGet(b *testing.B) {
	h := newHandler([]Option{WithClock(NewVirtualClock(time.Unix(0, 0)))})
	op := h.ops["GET "+BasePath+"/open/experiments/status"]
	doc, err := api.Load()
	require.NoError(b, err)
	doc.Servers = openapi3.Servers{{URL: BasePath}}
	router, err := legacy.NewRouter(doc)
	require.NoError(b, err)
	newRequest := func() *http.Request {
		r := httptest.NewRequest(http.MethodGet, BasePath+"/open/experiments/status?rcId=10101", nil)
		r.Header.Set("Authorization", DefaultAPIKey)
		return r
	}
	unvalidated := func() {
		r := newRequest()
		ctx := context.WithValue(r.Context(), callKey{}, &call{op: op, user: "demo"})
		h.inner.ServeHTTP(httptest.NewRecorder(), r.WithContext(ctx))
	}
	validated := func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, newRequest())
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
	routed := func() {
		r := newRequest()
		route, params, err := router.FindRoute(r)
		require.NoError(b, err)
		in := &openapi3filter.RequestValidationInput{Request: r, Route: route, PathParams: params,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true}}
		require.NoError(b, openapi3filter.ValidateRequest(r.Context(), in))
		unvalidated()
	}
	var tUnvalidated, tValidated, tRouted time.Duration
	for b.Loop() {
		tUnvalidated += timed(unvalidated)
		tValidated += timed(validated)
		tRouted += timed(routed)
	}
	n := float64(b.N)
	b.ReportMetric(float64(tUnvalidated.Nanoseconds())/n, "unvalidated-ns/call")
	b.ReportMetric(float64(tValidated.Nanoseconds())/n, "validated-ns/call")
	b.ReportMetric(float64(tRouted.Nanoseconds())/n, "routed-each-call-ns/call")
	b.ReportMetric(float64(tValidated)/float64(tUnvalidated), "validated/unvalidated")
	b.ReportMetric(float64(tRouted)/float64(tUnvalidated), "routed-each-call/unvalidated")
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
