package facade

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
)

func TestCallByEitherName(t *testing.T) {
	_, c := newFake(t)
	for _, name := range []string{"getScenarios", "get_scenarios"} {
		resp, err := c.Call(testCtx(t), name, RawRequest{Query: url.Values{"projectId": {"1"}}})
		require.NoError(t, err, name)
		var list []gen.ApiScenarioData
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
		resp.Body.Close()
		assert.NotEmpty(t, list, name)
	}
}

func TestCallUnknownOperation(t *testing.T) {
	_, c := newFake(t)
	_, err := c.Call(testCtx(t), "getEverything", RawRequest{})
	var verr *ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, "getEverything", verr.Operation)
	assert.ErrorIs(t, err, ErrValidation)
}

// Call retries safe operations like every method, resending the body.
func TestCallRetriesSafeOperationsWithTheirBody(t *testing.T) {
	srv, c := newFake(t)
	srv.InjectFault("getScenariosFromImportedDatabase", fake.Fault{Kind: fake.FaultStatus, Status: 503, Times: 2})
	body := `{"host":"db","password":"` + testDBPassword + `"}`
	resp, err := c.Call(testCtx(t), "getScenariosFromImportedDatabase", RawRequest{
		ContentType: "application/json",
		Body:        func() (io.Reader, error) { return strings.NewReader(body), nil },
		LogBody:     json.RawMessage(body),
	})
	require.NoError(t, err)
	defer resp.Body.Close()
	var list gen.ApiOptionList
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&list))
	assert.NotEmpty(t, list.List)
	assert.Equal(t, 3, srv.Calls("getScenariosFromImportedDatabase"), "two 503s, then the answer")
}

// A state-changing operation called by name is sent once, and its error
// says it may have been applied.
func TestCallSendsStateChangingOperationsOnce(t *testing.T) {
	srv, c := newFake(t)
	srv.InjectFault("openProject", fake.Fault{Kind: fake.FaultDropAfterHandler, Times: 1})
	_, err := c.Call(testCtx(t), "open_project", RawRequest{Query: url.Values{"projectId": {"2"}}})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.Equal(t, 1, srv.Calls("openProject"))
}

func TestCallReturnsAPIErrors(t *testing.T) {
	_, c := newFake(t)
	_, err := c.Call(testCtx(t), "openProject", RawRequest{Query: url.Values{"projectId": {"999"}}})
	var apiErr *APIError
	require.True(t, errors.As(err, &apiErr), "%v", err)
	assert.Equal(t, 500, apiErr.StatusCode, "the real server answers an unknown id with 500")
	assert.Equal(t, "openProject", apiErr.Operation)
	assert.Equal(t, "projectId 999: no such project", apiErr.Message)
	assert.ErrorIs(t, err, ErrNotFound, "the message names an unknown id")
	assert.NotErrorIs(t, err, ErrServer)
}

func TestCallBadMultipartIsABadRequest(t *testing.T) {
	_, c := newFake(t)
	var form bytes.Buffer
	form.WriteString("not a multipart body")
	_, err := c.Call(testCtx(t), "importScenario", RawRequest{
		ContentType: "multipart/form-data; boundary=x",
		Body:        func() (io.Reader, error) { return &form, nil },
	})
	assert.ErrorIs(t, err, ErrValidation)
}

// A call whose context ended before it was sent applied nothing, and says so.
func TestCancelledBeforeSendingIsNotApplied(t *testing.T) {
	srv, c := newFake(t)
	ctx, cancel := contextWithTimeout(time.Hour)
	cancel()
	_, err := c.Projects.Open(ctx, 2)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
	assert.Equal(t, 0, srv.Calls("openProject"))
}

// RawWithResponses is the client of Raw with the typed ...WithResponse
// methods: the answer read into the generated model of its status, sent
// with the client's key (the fake answers 401 without it).
func TestRawWithResponsesReadsTypedAnswersWithTheKey(t *testing.T) {
	srv, c := newFake(t)
	scenarios, err := c.RawWithResponses().GetScenariosWithResponse(testCtx(t), &gen.GetScenariosParams{ProjectId: 1})
	require.NoError(t, err)
	require.Equal(t, 200, scenarios.StatusCode(), "GetScenariosWithResponse: %s", scenarios.Body)
	require.NotNil(t, scenarios.JSON200, "the answer of getScenarios read into []gen.ApiScenarioData")
	assert.NotEmpty(t, *scenarios.JSON200)

	other := newTestClient(t, srv.URL, WithAPIKey("scm-not-the-key"))
	user, err := other.RawWithResponses().GetCurrentUserWithResponse(testCtx(t))
	require.NoError(t, err)
	assert.Equal(t, 401, user.StatusCode(), "a client with another key is refused: the key is the client's")
	assert.NotNil(t, user.JSON4XX, "the refusal read into the generated error model")
	assert.Nil(t, user.JSON200)
}
