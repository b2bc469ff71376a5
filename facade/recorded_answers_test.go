package facade

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/gen"
)

// recordedAnswersFile holds real answers of a real server, one JSON object a
// line: {operation, status (errors only), json}: a copy of the reference's
// recordedAnswersReference, kept in the repository so that every checkout
// tests them.
const (
	recordedAnswersFile      = "../internal/testkit/recorded/answers/recorded-answers.jsonl"
	recordedAnswersReference = "../../shared/reference/recorded-answers.jsonl"
)

type recordedAnswer struct {
	Operation string          `json:"operation"`
	Status    int             `json:"status"`
	JSON      json.RawMessage `json:"json"`
}

// readRecordedAnswers reads the recorded answers, and checks that the
// copy is the reference's where the reference is beside the project.
func readRecordedAnswers(t *testing.T) []recordedAnswer {
	t.Helper()
	if ref, err := os.ReadFile(recordedAnswersReference); err == nil {
		own, err := os.ReadFile(recordedAnswersFile)
		require.NoError(t, err)
		require.Equal(t, string(ref), string(own), "%s differs from the reference %s: copy it", recordedAnswersFile, recordedAnswersReference)
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	f, err := os.Open(recordedAnswersFile)
	require.NoError(t, err)
	defer f.Close()
	var out []recordedAnswer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var a recordedAnswer
		require.NoError(t, json.Unmarshal(sc.Bytes(), &a))
		out = append(out, a)
	}
	require.NoError(t, sc.Err())
	return out
}

// typedCall calls the facade's typed method of an operation and returns
// what it decoded.
type typedCall func(ctx context.Context, c *Client) (any, error)

func collect[T any](seq func(func(T, error) bool)) (any, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// typedCalls are the typed methods of the operations the recordings hold.
var typedCalls = map[gen.OperationID]typedCall{
	gen.OpCloseProject: func(ctx context.Context, c *Client) (any, error) { return c.Projects.Close(ctx) },
	gen.OpFindAndOpenProjectByName: func(ctx context.Context, c *Client) (any, error) {
		return c.Projects.OpenByName(ctx, "TFG_PROJECT", nil)
	},
	gen.OpGetProjects:    func(ctx context.Context, c *Client) (any, error) { return c.Projects.List(ctx) },
	gen.OpGetScenarios:   func(ctx context.Context, c *Client) (any, error) { return c.Scenarios.List(ctx, 79020) },
	gen.OpGetCurrentUser: func(ctx context.Context, c *Client) (any, error) { return c.User.Current(ctx) },
	gen.OpCopyScenarioSynchronously: func(ctx context.Context, c *Client) (any, error) {
		return c.Scenarios.CopySync(ctx, 82840, gen.ScenarioTypeSIM, nil)
	},
	gen.OpGetExperiments: func(ctx context.Context, c *Client) (any, error) { return c.Experiments.List(ctx, 79020, 82840) },
	gen.OpGetExperimentRunsForScenario: func(ctx context.Context, c *Client) (any, error) {
		return c.Experiments.Runs(ctx, 82840)
	},
	gen.OpGetExperimentStatus: func(ctx context.Context, c *Client) (any, error) { return c.Experiments.Status(ctx, 83528) },
	gen.OpRunExperiment: func(ctx context.Context, c *Client) (any, error) {
		r := preparedRun(c, 83528, 82840)
		if err := c.Experiments.StartPrepared(ctx, r, nil); err != nil {
			return nil, err
		}
		return EvidenceOf(r).StartAnswer, nil
	},
	gen.OpRunExperimentSynchronously: func(ctx context.Context, c *Client) (any, error) {
		return c.Experiments.RunSync(ctx, 83528)
	},
	gen.OpGetExperimentRunResult: func(ctx context.Context, c *Client) (any, error) {
		return collect(c.Results.ResultBatches(ctx, 180254, &PageOptions{MaxItems: 1000}))
	},
	gen.OpGetVariationResultData: func(ctx context.Context, c *Client) (any, error) {
		return c.Results.VariationResult(ctx, 214114)
	},
	gen.OpCreateNewVariableParameter: func(ctx context.Context, c *Client) (any, error) {
		quantity := ParameterRef{ObjectTypeID: "DemandData_SIM_FULL", ObjectID: "7308", ParameterID: "quantity"}
		return c.Variations.CreateNew(ctx, gen.ApiVariationCreateRequest{RcId: 214114, ApiVariation: quantity.Variation(gen.VariationTypeNUMBERRANGE,
			&gen.ApiVariationData{Body: &gen.ApiVariationDataObject{Min: ptr(1.2), Max: ptr(1.21), Step: ptr(0.005)}})})
	},
	gen.OpImportExcel: func(ctx context.Context, c *Client) (any, error) {
		job, err := c.Imports.Excel(ctx, 79020, "Variant", UploadReader("variant", strings.NewReader("PK")), nil)
		if err != nil {
			return nil, err
		}
		return job.JobID, nil
	},
	gen.OpConvertVariationResultToScenario: func(ctx context.Context, c *Client) (any, error) {
		return c.Scenarios.ConvertVariationResult(ctx, 214114, 1)
	},
	gen.OpExportDashboardPage: func(ctx context.Context, c *Client) (any, error) {
		d, err := c.Dashboards.ExportPage(ctx, 214116, 214118)
		if err != nil {
			return nil, err
		}
		return d.ReadAll(nil)
	},
	gen.OpGetNewVariableParameterTableData: func(ctx context.Context, c *Client) (any, error) {
		ref := ParameterRef{ObjectTypeID: "DemandData_SIM_FULL", ObjectID: "7308", ParameterID: "quantity"}
		return collect(c.Variations.NewTableRows(ctx, 214114, ref, gen.VariationTypeLINKLIST, nil))
	},
}

// answerOnce serves body with status for the operation op, and 404 for any
// other; the error answers carry the recorded nginx headers.
func answerOnce(t *testing.T, op gen.OperationID, status int, body []byte) *Client {
	t.Helper()
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		if got, ok := operationAt(r.Method, strings.TrimPrefix(r.URL.Path, "/api/v1")); !ok || got != op {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if status == 0 {
			status = http.StatusOK
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}, WithAttemptTimeout(0))
	return c
}

// Every recorded answer decodes through the facade's typed method for its
// operation with no drift finding, and every value of a successful answer
// lands in a typed field: the spec holds the real models. The share of
// typed values is logged.
func TestRecordedAnswersDecodeWithoutDrift(t *testing.T) {
	answers := readRecordedAnswers(t)
	require.Len(t, answers, 50)
	var typed, all int
	for i, a := range answers {
		call, ok := typedCalls[gen.OperationID(a.Operation)]
		require.True(t, ok, "line %d: no typed call for %s: add one to typedCalls", i+1, a.Operation)
		c := answerOnce(t, gen.OperationID(a.Operation), a.Status, a.JSON)
		got, err := call(testCtx(t), c)
		assert.Empty(t, c.Drift(), "line %d (%s): the answer differs from the spec", i+1, a.Operation)
		if a.Status != 0 {
			var apiErr *APIError
			require.ErrorAs(t, err, &apiErr, "line %d (%s)", i+1, a.Operation)
			assert.Equal(t, a.Status, apiErr.StatusCode)
			continue
		}
		require.NoError(t, err, "line %d (%s)", i+1, a.Operation)
		in, out := countLeaves(t, a.JSON), untypedLeaves(t, reflect.ValueOf(got))
		assert.Zero(t, out, "line %d (%s): %d of %d values are not in typed fields", i+1, a.Operation, out, in)
		typed, all = typed+in-out, all+in
	}
	t.Logf("values of successful answers in typed fields: %d of %d (%.1f %%)", typed, all, 100*float64(typed)/float64(max(all, 1)))
}

// countLeaves counts the scalar values of a JSON document.
func countLeaves(t *testing.T, doc []byte) int {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&v))
	var count func(any) int
	count = func(v any) int {
		switch v := v.(type) {
		case map[string]any:
			n := 0
			for _, e := range v {
				n += count(e)
			}
			return n
		case []any:
			n := 0
			for _, e := range v {
				n += count(e)
			}
			return n
		}
		return 1
	}
	return count(v)
}

// untypedLeaves counts the scalar values a decoded value holds outside its
// typed fields: in AdditionalProperties, or in the Raw of a oneOf whose
// discriminator named no variant.
func untypedLeaves(t *testing.T, v reflect.Value) int {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return untypedLeaves(t, v.Elem())
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return 0 // a typed field of raw JSON the spec allows any value in, or a workbook
		}
		n := 0
		for i := range v.Len() {
			n += untypedLeaves(t, v.Index(i))
		}
		return n
	case reflect.Struct:
		n := 0
		for i := range v.NumField() {
			f, name := v.Field(i), v.Type().Field(i).Name
			switch {
			case !v.Type().Field(i).IsExported():
			case name == "AdditionalProperties":
				for _, raw := range f.Interface().(extra.Properties).All() {
					n += countLeaves(t, raw)
				}
			case name == "Raw" && f.Len() > 0:
				n += countLeaves(t, f.Bytes())
			default:
				n += untypedLeaves(t, f)
			}
		}
		return n
	}
	return 0
}
