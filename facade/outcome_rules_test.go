package facade

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/gen"
)

// RunSync: any validationStatus but OK, compared ignoring case, is a run
// that could not start; OK in any case is a result.
func TestRunSyncValidationStatusRule(t *testing.T) {
	for status, started := range map[string]bool{
		"OK": true, "ok": true, "Ok": true,
		"HAS_ERRORS": false, "has_errors": false, "HAS_WARNINGS": false, "NOT_VALIDATED": false, "OKAY": false,
	} {
		t.Run(status, func(t *testing.T) {
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, `{"experimentResultId":90013,"validationStatus":%q,"validationErrors":null,"validationWarnings":null}`, status)
			}, WithClock(faketest.NewInstantClock()))
			out, err := c.Experiments.RunSync(testCtx(t), 5101)
			if started {
				require.NoError(t, err)
				assert.EqualValues(t, 90013, out.ExperimentResultId)
				return
			}
			assert.Nil(t, out)
			var se *StateError
			require.ErrorAs(t, err, &se, "a failed start")
			assert.ErrorIs(t, err, ErrFailed)
			assert.Equal(t, "validation "+status, se.State)
		})
	}
}

// A job that ends well without a scenarioId is an error in both waits that
// hand out the scenario; one that names it is not.
func TestJobWithoutScenarioIsAnError(t *testing.T) {
	waits := map[string]func(c *Client) (*gen.ApiImportScenarioStatus, error){
		"ImportExcelAndWait": func(c *Client) (*gen.ApiImportScenarioStatus, error) {
			return c.ImportExcelAndWait(testCtx(t), 1, "x", UploadReader("x", strings.NewReader("PK")), nil, nil)
		},
		"CopyScenarioAndWait": func(c *Client) (*gen.ApiImportScenarioStatus, error) {
			return c.CopyScenarioAndWait(testCtx(t), 101, gen.ScenarioTypeSIM, nil, nil)
		},
	}
	for name, wait := range waits {
		for _, scenario := range []string{"null", "0", "1234"} {
			t.Run(name+"/scenarioId "+scenario, func(t *testing.T) {
				_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
					if strings.HasSuffix(r.URL.Path, "/import-status") {
						fmt.Fprintf(w, `{"status":"DONE","scenarioId":%s,"error":null}`, scenario)
						return
					}
					fmt.Fprint(w, `{"jobId":7,"error":null}`)
				}, WithClock(faketest.NewInstantClock()))
				status, err := wait(c)
				if scenario == "1234" {
					require.NoError(t, err)
					assert.EqualValues(t, 1234, *status.ScenarioId)
					return
				}
				var missing *MalformedError
				require.ErrorAs(t, err, &missing, "a job that names no scenario is no success")
				assert.Equal(t, "scenarioId", missing.Field)
			})
		}
	}
}

// A run state's flags are read failed first: failed and finished both true
// is a failure, never a success.
func TestRunStateFlagsRule(t *testing.T) {
	for body, want := range map[string]RunState{
		`{"failed":true,"finished":true,"terminal":true}`:   RunFailed,
		`{"failed":true,"finished":true,"terminal":false}`:  RunFailed,
		`{"failed":false,"finished":true,"terminal":true}`:  RunFinished,
		`{"failed":false,"finished":false,"terminal":true}`: RunStopped,
	} {
		t.Run(body, func(t *testing.T) {
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, body) }, WithClock(faketest.NewInstantClock()))
			st, err := c.Run(1).Wait(testCtx(t), nil)
			assert.Equal(t, want, RunStateValue(st))
			assert.Equal(t, want == RunFinished, err == nil, "%v", err)
		})
	}
}
