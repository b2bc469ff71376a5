package fake_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/spec"
)

// checkAnswer checks one answer of the fake against the spec: the response
// schema of its status (kin-openapi), no object member the schema does not
// declare (the spec allows additionalProperties everywhere, so kin-openapi
// alone would let any field through) but those a test sent itself and the
// fake answers back (echoed), and, for an error, a body that is exactly
// {"message": "...", "details": {}} as the real server writes it.
func checkAnswer(ctx context.Context, in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte, echoed map[string]bool) error {
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: status, Header: header,
		Body: io.NopCloser(bytes.NewReader(body)), Options: &openapi3filter.Options{IncludeResponseStatus: true}}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		return err
	}
	if status >= 400 {
		return checkErrorBody(header, body)
	}
	media, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	if media != "application/json" {
		return nil
	}
	schema := in.Route.Operation.Responses.Status(status).Value.Content.Get(media).Schema.Value
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	unknown := slices.DeleteFunc(unknownFields(schema, v, "$"), func(path string) bool {
		return echoed[path[strings.LastIndex(path, ".")+1:]]
	})
	if len(unknown) > 0 {
		return fmt.Errorf("fields the spec does not declare: %s", strings.Join(unknown, ", "))
	}
	return nil
}

// checkErrorBody checks an error answer: JSON, exactly message and details,
// details an empty object.
func checkErrorBody(header http.Header, body []byte) error {
	if ct := header.Get("Content-Type"); ct != "application/json" {
		return fmt.Errorf("error answer with Content-Type %q", ct)
	}
	var e map[string]json.RawMessage
	if err := json.Unmarshal(body, &e); err != nil {
		return fmt.Errorf("error body is not a JSON object: %w", err)
	}
	var message string
	if err := json.Unmarshal(e["message"], &message); err != nil || message == "" {
		return fmt.Errorf("error body without a message: %s", body)
	}
	if len(e) != 2 || string(e["details"]) != "{}" {
		return fmt.Errorf(`error body is not exactly {"message", "details": {}}: %s`, body)
	}
	return nil
}

// unknownFields lists the paths of the object members in v that schema s
// does not declare. An object schema without properties is a map (details,
// a RawJSON value) and takes any member; of anyOf and oneOf branches only
// those v validates against count (for oneOf, exactly one, as the strict
// spec has already checked), and of those the one that declares most.
func unknownFields(s *openapi3.Schema, v any, path string) []string {
	if s == nil {
		return nil
	}
	if branches := append(slices.Clone(s.AnyOf), s.OneOf...); len(branches) > 0 {
		var best []string
		matched := false
		for _, b := range branches {
			if spec.ValidateValue(b.Value, v) != nil {
				continue
			}
			if u := unknownFields(b.Value, v, path); !matched || len(u) < len(best) {
				best, matched = u, true
			}
		}
		if !matched {
			return []string{path + " (matches no variant of the schema)"}
		}
		return best
	}
	switch x := v.(type) {
	case map[string]any:
		return unknownMembers(s, x, path)
	case []any:
		var out []string
		for i, item := range x {
			if s.Items != nil {
				out = append(out, unknownFields(s.Items.Value, item, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
		return out
	}
	return nil
}

func unknownMembers(s *openapi3.Schema, obj map[string]any, path string) []string {
	if len(s.Properties) == 0 {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		p, ok := s.Properties[k]
		if !ok {
			out = append(out, path+"."+k)
			continue
		}
		out = append(out, unknownFields(p.Value, obj[k], path+"."+k)...)
	}
	return out
}

// routeOf finds the spec's route of an operation, for checks outside a
// client.
func routeOf(t *testing.T, op gen.Operation) *openapi3filter.RequestValidationInput {
	t.Helper()
	router, err := loadSpec()
	require.NoError(t, err)
	req, err := http.NewRequest(op.Method, "http://"+specHost+fake.BasePath+op.Path, nil)
	require.NoError(t, err)
	route, params, err := router.FindRoute(req)
	require.NoError(t, err)
	return &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route}
}

// TestCheckAnswerCatchesWhatTheSpecDoesNotDescribe proves the guard of every
// answer: a field the spec does not declare, at the top or nested, a field
// of the wrong type, and an error body with more than message and details
// are all reported; the answers the fake gives pass.
func TestCheckAnswerCatchesWhatTheSpecDoesNotDescribe(t *testing.T) {
	status, _ := gen.LookupOperation("getExperimentStatus")
	result, _ := gen.LookupOperation("getExperimentRunResult")
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	ok := `{"failed":false,"finished":true,"genericState":"IDLE","routesLoading":false,"step":"IDLE","stopTrigger":false,"terminal":false,"text":null}`
	for name, tc := range map[string]struct {
		op     gen.Operation
		status int
		body   string
		want   string // "" when the answer passes
	}{
		"an answer of the spec":      {status, 200, ok, ""},
		"a field too many":           {status, 200, strings.Replace(ok, `"text":null`, `"text":null,"state":"FINISHED"`, 1), "$.state"},
		"a field the test sent":      {status, 200, strings.Replace(ok, `"text":null`, `"text":null,"echoed":1`, 1), ""},
		"a nested field too many":    {result, 200, `{"pages":[{"page":{"id":"83001","name":"Overview","rcId":1},"charts":[]}]}`, "$.pages[0].page.rcId"},
		"a page id that is a number": {result, 200, `{"pages":[{"page":{"id":83001,"name":"Overview"},"charts":[]}]}`, "id"},
		"a required field missing":   {status, 200, strings.Replace(ok, `"failed":false,`, "", 1), "failed"},
		"the error body":             {status, 500, `{"message":"rcId 1: no such running configuration","details":{}}`, ""},
		"an error with more fields":  {status, 500, `{"message":"x","details":{},"status":500}`, "exactly"},
		"an error without details":   {status, 400, `{"message":"x"}`, "exactly"},
		"an error with details":      {status, 500, `{"message":"x","details":{"a":1}}`, "exactly"},
	} {
		t.Run(name, func(t *testing.T) {
			err := checkAnswer(t.Context(), routeOf(t, tc.op), tc.status, jsonHeader, []byte(tc.body), map[string]bool{"echoed": true})
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestEveryErrorBodyIsMessageAndDetails calls every operation wrongly in
// three ways (no key, no inputs, inputs naming nothing that exists) and
// checks every error answer (the transport checks each body is exactly
// {message, details: {}}): 401 for the key, 400 for a request the spec
// refuses, 500 for what the application decides; the 400s and 401s name the
// operation, the 500s carry the application's message as it is.
func TestEveryErrorBodyIsMessageAndDetails(t *testing.T) {
	e := setup(t, fake.WithLicense())
	for _, op := range gen.Operations() {
		t.Run(op.ID, func(t *testing.T) {
			resp, apiErr := e.raw(t, op.Method, op.Path, nil, nil, http.Header{"Authorization": {"Bearer wrong"}})
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			assert.True(t, strings.HasPrefix(*apiErr.Message, op.ID+": "), *apiErr.Message)
			if needsInput(op) {
				resp, apiErr = e.raw(t, op.Method, op.Path, nil, nil, nil)
				assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
				assert.True(t, strings.HasPrefix(*apiErr.Message, op.ID+": "), *apiErr.Message)
			}
			query, body, header := staleInputs(op)
			resp, apiErr = e.raw(t, op.Method, op.Path, query, body, header)
			switch resp.StatusCode {
			case http.StatusOK:
			case http.StatusBadRequest, http.StatusNotImplemented: // 501: an operation without a handler yet
				assert.True(t, strings.HasPrefix(*apiErr.Message, op.ID+": "), *apiErr.Message)
			case http.StatusInternalServerError:
				assert.False(t, strings.HasPrefix(*apiErr.Message, op.ID), "the application's message as it is: %s", *apiErr.Message)
			default:
				t.Errorf("status %d: %s", resp.StatusCode, *apiErr.Message)
			}
		})
	}
}

// needsInput reports an operation that a request without inputs cannot
// call: a required body, or a required parameter without a default (the
// server applies skip's, take's and fullMatch's).
func needsInput(op gen.Operation) bool {
	return op.Body != nil && op.Body.Required || slices.ContainsFunc(op.Params, func(p gen.Param) bool { return p.Required && p.Default == "" })
}

// staleInputs fills every required parameter of op with a value of its type
// that names nothing in the seeded world, and sends an empty JSON object as
// a required JSON body.
func staleInputs(op gen.Operation) (url.Values, io.Reader, http.Header) {
	q := url.Values{}
	for _, p := range op.Params {
		if !p.Required {
			continue
		}
		switch {
		case len(p.Enum) > 0:
			q.Set(p.Name, p.Enum[0])
		case p.Type == "integer" || p.Type == "number":
			q.Set(p.Name, "999999")
		case p.Type == "boolean":
			q.Set(p.Name, "true")
		default:
			q.Set(p.Name, "nothing")
		}
	}
	if op.Body != nil && op.Body.MediaType == "application/json" {
		return q, strings.NewReader("{}"), http.Header{"Content-Type": {"application/json"}}
	}
	return q, nil, nil
}

// TestApplicationErrorsAre500WithTheServersMessage checks the errors the
// real server was recorded answering, and the other application errors of
// world.md, as status and message.
func TestApplicationErrorsAre500WithTheServersMessage(t *testing.T) {
	e := setup(t)
	for name, tc := range map[string]struct {
		path  string
		query url.Values
		want  string
	}{
		"access denied":         {"/open/experiments/run", q("rcId", "10303"), "Access is denied"},
		"access denied (sync)":  {"/open/experiments/run-synchronously", q("rcId", "10303"), "Access is denied"},
		"unknown rcId":          {"/open/experiments/status", q("rcId", "42"), "rcId 42: no such running configuration"},
		"unknown result":        {"/open/experiments/dashboard-pages", q("experimentResultId", "999999"), "experimentResultId 999999: no such result"},
		"unknown job":           {"/open/import/import-status", q("jobId", "424242"), "jobId 424242: no such job"},
		"nothing to stop":       {"/open/experiments/stop", q("rcId", "10303"), "rcId 10303: the experiment has no run to stop"},
		"not a link data type":  {"/open/variations/new-table-data", tableQuery("quantity", "NUMBER_RANGE"), "Tables exist only for link data types"},
		"no experiment of type": {"/open/experiments/experiment", q("scenarioId", "103", "experimentType", "GFA"), "scenarioId 103: a SIM scenario has no GFA experiment"},
	} {
		t.Run(name, func(t *testing.T) {
			resp, apiErr := e.raw(t, http.MethodGet, tc.path, tc.query, nil, nil)
			assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
			assert.Equal(t, tc.want, *apiErr.Message)
		})
	}
}

func tableQuery(parameter, variationType string) url.Values {
	return q("rcId", "10305", "objectTypeId", "DemandData_SIM_FULL", "objectId", "1", "parameterId", parameter, "variationType", variationType)
}

// TestErrorBodyDecodesAsApiError reads an error answer through the
// generated client's error model: the spec's ApiError decodes it, with
// details an empty object and none of the fields of the former shape.
func TestErrorBodyDecodesAsApiError(t *testing.T) {
	e := setup(t)
	r, err := e.c.RunExperimentWithResponse(e.ctx, &gen.RunExperimentParams{RcId: 10303})
	require.NoError(t, err)
	require.NotNil(t, r.JSON5XX, string(r.Body))
	assert.Equal(t, "Access is denied", *r.JSON5XX.Message)
	assert.Equal(t, map[string]gen.RawJSON{}, *r.JSON5XX.Details)
	assert.Nil(t, r.JSON5XX.Status, "the body has no status field")
	assert.Equal(t, "application/json", r.HTTPResponse.Header.Get("Content-Type"))
}
