package fake_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/api"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/spec"
)

// specHost is the host the spec's server is rewritten to, so one router
// serves every test server.
const specHost = "fake.test"

var (
	specOnce   sync.Once
	specRouter routers.Router
	specErr    error
	epoch      = time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)
)

const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

func loadSpec() (routers.Router, error) {
	specOnce.Do(func() {
		openapi3filter.RegisterBodyDecoder(xlsxType, openapi3filter.FileBodyDecoder)
		// The spec as a validator that does not read discriminators sees
		// it (Prism, ajv): a oneOf takes exactly one variant.
		doc, err := spec.LoadStrict(api.Spec)
		if err != nil {
			specErr = err
			return
		}
		doc.Servers = openapi3.Servers{{URL: "http://" + specHost + fake.BasePath}}
		specRouter, specErr = legacy.NewRouter(doc)
	})
	return specRouter, specErr
}

// specTransport validates every request against the spec, unless
// answersOnly is set, and every answer with checkAnswer: the spec's response
// schema, no field the spec does not declare, and error bodies that are
// exactly {message, details}.
type specTransport struct {
	t           testing.TB
	router      routers.Router
	base        http.RoundTripper
	answersOnly bool // for requests that are wrong on purpose
	// echoed are member names the spec does not declare that a test sent
	// itself and the fake keeps and answers back (stored models keep every
	// field); any other undeclared member fails the test.
	echoed map[string]bool
}

func (s *specTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	probe := req.Clone(req.Context())
	probe.URL.Scheme, probe.URL.Host = "http", specHost
	route, params, err := s.router.FindRoute(probe)
	if err != nil {
		if !s.answersOnly {
			s.t.Errorf("%s %s: no route in the spec: %v", req.Method, req.URL.Path, err)
		}
		return s.base.RoundTrip(req)
	}
	in := &openapi3filter.RequestValidationInput{Request: probe, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	if !s.answersOnly {
		if err := s.validateRequest(req, probe, in); err != nil {
			s.t.Errorf("%s: request does not match the spec: %v", route.Operation.OperationID, err)
		}
	}
	resp, err := s.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err := checkAnswer(req.Context(), in, resp.StatusCode, resp.Header, body, s.echoed); err != nil {
		s.t.Errorf("%s: answer %d does not match the spec: %v", route.Operation.OperationID, resp.StatusCode, err)
	}
	return resp, nil
}

// validateRequest checks JSON and parameter requests; multipart uploads are
// left to the server, which streams them.
func (s *specTransport) validateRequest(req, probe *http.Request, in *openapi3filter.RequestValidationInput) error {
	if strings.HasPrefix(req.Header.Get("Content-Type"), "multipart/") {
		in.Options.ExcludeRequestBody = true
		probe.Body, probe.ContentLength = http.NoBody, 0
		return openapi3filter.ValidateRequest(req.Context(), in)
	}
	if req.Body != nil && req.GetBody != nil {
		b, err := req.GetBody()
		if err != nil {
			return err
		}
		probe.Body = b
	}
	return openapi3filter.ValidateRequest(req.Context(), in)
}

// env is a fake server on a virtual clock with a spec-checking client.
type env struct {
	srv       *fake.Server
	h         *fake.Handler // the server's handler, for what a test reads of the state
	clock     *fake.VirtualClock
	c         *gen.ClientWithResponses
	ctx       context.Context
	rawClient *http.Client // checks answers only
	echoed    map[string]bool
}

func setup(t testing.TB, opts ...fake.Option) *env {
	t.Helper()
	router, err := loadSpec()
	require.NoError(t, err)
	clock := fake.NewVirtualClock(epoch)
	// A start shows in the status at once, unless a test sets the lag the
	// real server has (TestStatusLagShowsTheLastRunsEnd).
	srv := fake.NewServer(append([]fake.Option{fake.WithClock(clock), fake.WithStatusLag(0)}, opts...)...)
	t.Cleanup(srv.Close)
	echoed := map[string]bool{}
	hc := &http.Client{Transport: &specTransport{t: t, router: router, base: srv.Client().Transport, echoed: echoed}}
	c, err := gen.NewClientWithResponses(srv.URL, gen.WithHTTPClient(hc), gen.WithRequestEditorFn(bearer(srv.APIKey)))
	require.NoError(t, err)
	rawClient := &http.Client{Transport: &specTransport{t: t, router: router, base: srv.Client().Transport, answersOnly: true, echoed: echoed}}
	return &env{srv: srv, h: srv.Handler, clock: clock, c: c, ctx: t.Context(), rawClient: rawClient, echoed: echoed}
}

func bearer(key string) gen.RequestEditorFn {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+key)
		return nil
	}
}

// raw sends a request without any check of the request (answers are
// checked) and decodes an error body when there is one.
func (e *env) raw(t testing.TB, method, path string, query url.Values, body io.Reader, header http.Header) (*http.Response, gen.ApiError) {
	t.Helper()
	u := e.srv.URL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequest(method, u, body)
	require.NoError(t, err)
	req.Header.Set("Authorization", e.srv.APIKey)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := e.rawClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var apiErr gen.ApiError
	if resp.StatusCode >= 400 {
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&apiErr))
	}
	return resp, apiErr
}

// workbook builds an .xlsx with the given sheets, each with a header row and
// n data rows.
func workbook(t testing.TB, sheets map[string]int) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	first := true
	for name, n := range sheets {
		if first {
			require.NoError(t, f.SetSheetName("Sheet1", name))
			first = false
		} else {
			_, err := f.NewSheet(name)
			require.NoError(t, err)
		}
		require.NoError(t, f.SetSheetRow(name, "A1", &[]any{"id", "value"}))
		for i := range n {
			cellName, _ := excelize.CoordinatesToCellName(1, i+2)
			require.NoError(t, f.SetSheetRow(name, cellName, &[]any{i + 1, i * 10}))
		}
	}
	var buf bytes.Buffer
	_, err := f.WriteTo(&buf)
	require.NoError(t, err)
	return buf.Bytes()
}

// form builds a multipart body with fields (in order) and an optional file.
func form(t testing.TB, fields [][2]string, fileName string, file []byte) (string, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, f := range fields {
		require.NoError(t, mw.WriteField(f[0], f[1]))
	}
	if fileName != "" {
		fw, err := mw.CreateFormFile("file", fileName)
		require.NoError(t, err)
		_, err = fw.Write(file)
		require.NoError(t, err)
	}
	require.NoError(t, mw.Close())
	return mw.FormDataContentType(), &buf
}

// openWorkbook opens an exported workbook.
func openWorkbook(t testing.TB, b []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(b))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// run starts an experiment and advances the clock until it has ended; it
// answers the run's state and the experimentResultId of its result.
func (e *env) run(t testing.TB, rcID ids.RcID) (gen.ExecutionState, ids.ExperimentResultID) {
	t.Helper()
	resp, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: rcID})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode(), string(resp.Body))
	e.clock.Advance(fake.DefaultRunDuration)
	st, err := e.c.GetExperimentStatusWithResponse(e.ctx, &gen.GetExperimentStatusParams{RcId: rcID})
	require.NoError(t, err)
	_, resultID := e.lastRun(t, rcID)
	return *st.JSON200, resultID
}

// lastRun is the ids of the experiment's latest run: its own, and its
// result's.
func (e *env) lastRun(t testing.TB, rcID ids.RcID) (runID ids.RunID, resultID ids.ExperimentResultID) {
	t.Helper()
	runID, resultID, ok := e.h.LastRun(rcID)
	require.True(t, ok, "rcId %d has a run", rcID)
	return runID, resultID
}

func ptr[T any](v T) *T { return &v }
