package fake

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/scmodel/scmgo/fake/internal/genserver"
)

// An operation the fake has no handler for answers 501 with the usual
// {message, details} body naming it, after the key and the request are
// checked as for any other. The server here runs the generated fallback
// alone, as it would for an operation the spec gained since.
func TestAnOperationWithoutAHandlerAnswers501NamingIt(t *testing.T) {
	h := newHandler(nil)
	strict := genserver.NewStrictHandlerWithOptions(genserver.StrictUnimplemented{}, nil, genserver.StrictHTTPServerOptions{
		RequestErrorHandlerFunc:  h.requestError,
		ResponseErrorHandlerFunc: h.responseFailed,
	})
	h.inner = genserver.HandlerWithOptions(strict, genserver.StdHTTPServerOptions{BaseURL: BasePath, ErrorHandlerFunc: h.requestError})
	for _, tc := range []struct {
		path   string
		status int
		body   string
	}{
		{"/open/project/list", http.StatusNotImplemented, `{"message":"getProjects: not implemented by the fake server","details":{}}`},
		{"/open/scenario/list?projectId=1", http.StatusNotImplemented, `{"message":"getScenarios: not implemented by the fake server","details":{}}`},
		{"/open/scenario/list", http.StatusBadRequest, `{"message":"getScenarios: parameter projectId is required","details":{}}`}, // checked first
	} {
		req := httptest.NewRequest(http.MethodGet, BasePath+tc.path, nil)
		req.Header.Set("Authorization", DefaultAPIKey)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, tc.status, rec.Code, tc.path)
		assert.JSONEq(t, tc.body, rec.Body.String(), tc.path)
		assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
	}
}
