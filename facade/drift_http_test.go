package facade

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/spec"
)

// driftServer serves answer for every request under /api/v1, handing each
// request's body to got when it is not nil, and returns a client of it
// that logs Warn lines into log.
func driftServer(t *testing.T, answer func(r *http.Request) string, got func(body []byte)) (*Client, *faketest.Buffer) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if got != nil && len(body) > 0 {
			got(body)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, answer(r))
	}))
	t.Cleanup(srv.Close)
	log := &faketest.Buffer{}
	c, err := New(srv.URL+"/api/v1", WithAPIKey("sk-drift-test"),
		WithLogger(slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c, log
}

func driftContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// overHTTP calls an operation through its facade method.
var overHTTP = map[gen.OperationID]func(ctx context.Context, c *Client) (any, error){
	gen.OpGetProjects:                   func(ctx context.Context, c *Client) (any, error) { return c.Projects.List(ctx) },
	gen.OpGetScenarios:                  func(ctx context.Context, c *Client) (any, error) { return c.Scenarios.List(ctx, 1) },
	gen.OpGetCurrentUser:                func(ctx context.Context, c *Client) (any, error) { return c.User.Current(ctx) },
	gen.OpGetExperiments:                func(ctx context.Context, c *Client) (any, error) { return c.Experiments.List(ctx, 1, 2) },
	gen.OpGetExperimentRunConfiguration: func(ctx context.Context, c *Client) (any, error) { return c.Experiments.RunConfiguration(ctx, 1) },
	gen.OpRemoveScenarioById:            func(ctx context.Context, c *Client) (any, error) { return c.Scenarios.Remove(ctx, 1) },
	gen.OpGetExperimentRunResultChartTableData: func(ctx context.Context, c *Client) (any, error) {
		for page, err := range c.Results.ChartTableBatches(ctx, 1, 2, nil) {
			return page, err
		}
		return nil, errors.New("no page")
	},
}

// TestAnswersOverHTTPReportDrift: through the facade's methods, an answer
// with a property retyped and an unknown field beside it is returned
// whole, and Client.Drift lists both differences, with the operation.
func TestAnswersOverHTTPReportDrift(t *testing.T) {
	doc := loadSpecForDrift(t)
	for id, call := range overHTTP {
		op, _ := gen.LookupOperation(id)
		t.Run(op.ID, func(t *testing.T) {
			schema := answerSchema(doc, op)
			base := (&sampler{}).value(schema, 3)
			body, want := base, []drift.Finding(nil)
			if p, ok := shallowestScalar(places(schema, base, nil, "")); ok {
				body = replaced(replaced(base, p.loc, retype(p.schema.Value)), append(slices.Clip(p.loc[:len(p.loc)-1]), "zzUnknown"), "u")
				want = []drift.Finding{
					structured(drift.Finding{Kind: drift.KindUnknownField, Operation: op.ID, Path: p.owner + ".zzUnknown", Detail: p.owner + ".zzUnknown (string) is not in the spec", Drift: true}, "string", ""),
					structured(drift.Finding{Kind: drift.KindType, Operation: op.ID, Path: p.at(), Detail: p.at() + " is " + spec.TypeName(p.schema.Value) + "; the answer has object", Drift: true,
						KeptRaw: true}, "object", p.schema.Value.Type.Slice()[0]),
				}
			} else {
				body = "true"
				want = []drift.Finding{structured(drift.Finding{Kind: drift.KindType, Operation: op.ID, Path: answerRoot(op), Detail: answerRoot(op) + " is boolean; the answer has string", Drift: true},
					"string", "boolean")}
			}
			text, _ := json.Marshal(body)
			c, log := driftServer(t, func(*http.Request) string { return string(text) }, nil)
			got, err := call(driftContext(t), c)
			if err != nil {
				t.Fatalf("the call failed: %v\n%s", err, text)
			}
			if s, ok := body.(string); !ok {
				if g, w := normalized(t, got), normalized(t, body); !reflect.DeepEqual(g, w) {
					t.Errorf("the answer decodes to\n%v\nwant\n%v", g, w)
				}
			} else if got != true {
				t.Errorf("the answer %q decodes to %v", s, got)
			}
			if f := c.Drift(); !reflect.DeepEqual(f, want) {
				t.Errorf("Drift() is\n%v\nwant\n%v", f, want)
			}
			if lines := log.Lines(); len(lines) != len(want) || !strings.Contains(lines[0], "level=WARN") || !strings.Contains(lines[0], "operation="+op.ID) {
				t.Errorf("log lines %q, want one Warn line per finding", lines)
			}
		})
	}
}

// structured adds the fields a finding carries for tools: its model and
// property, and the JSON types of the answer and the spec.
func structured(f drift.Finding, jsonType, specType string) drift.Finding {
	f.Model, f.Property = drift.SplitPath(f.Path)
	f.JSONType, f.SpecType = jsonType, specType
	return f
}

// shallowestScalar is the place of a string, number or boolean property
// nearest the top of the answer.
func shallowestScalar(ps []place) (place, bool) {
	var best place
	found := false
	for _, p := range ps {
		s := p.schema.Value
		scalar := s.Type.Is("string") || s.Type.Is("integer") || s.Type.Is("number") || s.Type.Is("boolean")
		if scalar && (!found || len(p.loc) < len(best.loc)) {
			best, found = p, true
		}
	}
	return best, found
}

// Each difference is logged once per operation, path and kind, however
// often answers show it, and listed once by Drift, also when calls run
// concurrently.
func TestDriftIsLoggedOncePerPlace(t *testing.T) {
	answer := `[{"accessible":"yes","creationDate":"2026-03-10T16:19:55.145394Z","currentUserId":null,"deleted":false,"id":1,"name":"a","ownerUserId":2,"tenant":"x"},` +
		`{"accessible":"no","creationDate":"2026-03-10T16:19:55.145394Z","currentUserId":3,"deleted":false,"id":"2","name":"b","ownerUserId":2,"tenant":"y"}]`
	c, log := driftServer(t, func(*http.Request) string { return answer }, nil)
	ctx := driftContext(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			projects, err := c.Projects.List(ctx)
			if err != nil || len(projects) != 2 || projects[1].Id != 2 || projects[0].Name != "a" {
				t.Errorf("List: %v, %+v", err, projects)
			}
		})
	}
	wg.Wait()
	want := []drift.Finding{
		{Kind: drift.KindUnknownField, Operation: "getProjects", Path: "ApiProjectResponse.tenant", Detail: "ApiProjectResponse.tenant (string) is not in the spec", Drift: true,
			Model: "ApiProjectResponse", Property: "tenant", JSONType: "string"},
		{Kind: drift.KindType, Operation: "getProjects", Path: "ApiProjectResponse.accessible", Detail: "ApiProjectResponse.accessible is boolean; the answer has string", Drift: true,
			Model: "ApiProjectResponse", Property: "accessible", JSONType: "string", SpecType: "boolean", KeptRaw: true},
		{Kind: drift.KindType, Operation: "getProjects", Path: "ApiProjectResponse.id", Detail: "ApiProjectResponse.id is integer/int64; the answer has string", Drift: true,
			Model: "ApiProjectResponse", Property: "id", JSONType: "string", SpecType: "integer"},
	}
	if f := c.Drift(); !reflect.DeepEqual(f, want) {
		t.Errorf("Drift() is\n%v\nwant\n%v", f, want)
	}
	if lines := log.Lines(); len(lines) != 3 {
		t.Errorf("%d log lines, want 3:\n%s", len(lines), strings.Join(lines, "\n"))
	}
}

// A malformed answer fails the call with the operation and the byte
// offset where it stops being JSON.
func TestMalformedAnswerSaysWhere(t *testing.T) {
	c, _ := driftServer(t, func(*http.Request) string { return `{"id":1,"email":"a@b"` }, nil)
	_, err := c.User.Current(driftContext(t))
	var syntax *gen.SyntaxError
	if !errors.As(err, &syntax) || syntax.Offset != 21 {
		t.Fatalf("err %v, want a *gen.SyntaxError at byte 21", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "getCurrentUser") || !strings.Contains(msg, "byte 21") {
		t.Errorf("the error %q does not name the operation and the offset", msg)
	}
}

// A model read with a retyped field and an unknown one, changed and sent
// back, carries both unchanged on the wire: the update operations.
func TestRoundTripKeepsWhatTheSpecLacks(t *testing.T) {
	cases := map[string]struct {
		answer string
		update func(ctx context.Context, c *Client) error
	}{
		"updateExperimentRunConfiguration": {
			answer: `{"id":"seven","name":"before","scenarioId":{"ref":3},"type":"SIMULATION","owner":{"team":"x"},"runConfiguration":{"k":1}}`,
			update: func(ctx context.Context, c *Client) error {
				cfg, err := c.Experiments.RunConfiguration(ctx, 7)
				if err != nil {
					return err
				}
				cfg.Name = pointerTo("after")
				_, err = c.Experiments.UpdateRunConfiguration(ctx, 7, *cfg)
				return err
			},
		},
		"updateVariableParameter": {
			answer: `{"id":5,"name":"before","parameter":["period"],"rcId":"7x","scope":[1,"two"]}`,
			update: func(ctx context.Context, c *Client) error {
				v, err := c.Variations.Update(ctx, 7, gen.ApiVariation{Id: pointerTo(ids.VariationID(5))})
				if err != nil {
					return err
				}
				v.Name = pointerTo("after")
				_, err = c.Variations.Update(ctx, 7, *v)
				return err
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var sent []byte
			c, _ := driftServer(t, func(*http.Request) string { return tc.answer }, func(b []byte) {
				mu.Lock()
				defer mu.Unlock()
				sent = b
			})
			if err := tc.update(driftContext(t), c); err != nil {
				t.Fatal(err)
			}
			var got, want map[string]any
			mu.Lock()
			defer mu.Unlock()
			if err := json.Unmarshal(sent, &got); err != nil {
				t.Fatalf("sent %s: %v", sent, err)
			}
			_ = json.Unmarshal([]byte(tc.answer), &want)
			want["name"] = "after"
			for k, v := range want {
				if !reflect.DeepEqual(got[k], v) {
					t.Errorf("sent %s = %v, want %v (sent %s)", k, got[k], v, sent)
				}
			}
			if len(c.Drift()) < 2 {
				t.Errorf("Drift() = %v, want the retyped and the unknown field", c.Drift())
			}
		})
	}
}

func pointerTo[T any](v T) *T { return &v }

// A page whose items are not an array is not an empty page: the facade
// needs the items to go on, and says what the answer had instead.
func TestPageItemsOfAnotherTypeStopPaging(t *testing.T) {
	for answer, field := range map[string]string{
		`{"entityList":{"index":1},"id":2,"type":"TABLE"}`: "entityList (an array; the answer has an object)",
		`{"entityList":"none","id":2,"type":"TABLE"}`:      "entityList (an array; the answer has a string)",
		`{"entityList":7,"id":2,"type":"TABLE"}`:           "entityList (an array; the answer has an integer)",
		`{"entityList":2.5,"id":2,"type":"TABLE"}`:         "entityList (an array; the answer has a number)",
		`{"entityList":true,"id":2,"type":"TABLE"}`:        "entityList (an array; the answer has a boolean)",
		`{"items":[{"index":1}],"id":2,"type":"TABLE"}`:    "entityList",
	} {
		c, _ := driftServer(t, func(*http.Request) string { return answer }, nil)
		var err error
		for _, err = range c.Results.ChartTableRows(driftContext(t), 1, 2, nil) {
			if err != nil {
				break
			}
		}
		var missing *MalformedError
		if !errors.As(err, &missing) || missing.Field != field {
			t.Errorf("%s: err %v, want a MalformedError for %s", answer, err, field)
		}
	}
}
