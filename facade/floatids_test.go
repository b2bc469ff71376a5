package facade

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/ids"
)

// An id the server writes as a float reaches the caller as the integer
// its decimal text denotes, past 2^53 too (where float64 rounds
// 9007199254740993.0 to 9007199254740992), with a finding that says the
// answer had a number; an id that is no integer of int64 is kept raw under
// its name and reported as kept, and a synchronous run that needs it fails
// naming the field, never with a rounded id.
func TestFloatWrittenIDsAreExactOrKeptRaw(t *testing.T) {
	const path = "ApiExperimentResult.experimentResultId"
	for written, want := range map[string]ids.ExperimentResultID{
		`5002.0`:                5002,
		`9007199254740993.0`:    9007199254740993,
		`9.007199254740993e15`:  9007199254740993,
		`9223372036854775807.0`: 9223372036854775807,
		`1e19`:                  0,
		`1.5`:                   0,
		`9223372036854775808.0`: 0,
	} {
		t.Run(written, func(t *testing.T) {
			t.Parallel()
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"experimentResultId": %s, "validationErrors": null, "validationStatus": "OK", "validationWarnings": null}`, written)
			})
			out, err := c.Experiments.RunSync(testCtx(t), 10303)
			finding := findingAt(t, c.Drift(), path)
			if want != 0 {
				require.NoError(t, err)
				assert.Equal(t, want, out.ExperimentResultId, "the id its text denotes, not rounded")
				assert.Equal(t, path+" is integer/int64; the answer has number", finding.Detail)
				return
			}
			var missing *MalformedError
			require.ErrorAs(t, err, &missing, "a run whose id did not fit has no result id")
			assert.Equal(t, "experimentResultId", missing.Field)
			assert.Equal(t, path+" is integer/int64; the answer has "+written+", which is not an integer in its range: kept raw", finding.Detail)
			assert.Equal(t, "number", finding.JSONType)
		})
	}
}

// A page of runs whose ids are written as floats lists each with the id
// its text denotes, past 2^53 too; one that is no int64 is kept raw in
// the row's AdditionalProperties, exactly as sent.
func TestFloatWrittenIDsInAListAreExactOrKeptRaw(t *testing.T) {
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `[{"hasOptions": false, "id": 9007199254740992.0, "name": "Statistics", "rcId": 9007199254740993.0, "removing": false, "scenarioId": 82840, "type": "SIMULATION"},`+
			` {"hasOptions": false, "id": 91770, "name": "Statistics 2", "rcId": 1e19, "removing": false, "scenarioId": 82840, "type": "SIMULATION"}]`)
	})
	runs, err := c.Experiments.Runs(testCtx(t), 82840)
	require.NoError(t, err)
	require.Len(t, runs, 2)
	assert.Equal(t, ids.RunID(9007199254740992), runs[0].Id)
	assert.Equal(t, ids.ExperimentResultID(9007199254740993), runs[0].RcId, "not rounded to 2^53")
	assert.Zero(t, runs[1].RcId)
	kept, ok := runs[1].AdditionalProperties.Get("rcId")
	require.True(t, ok, "the id that did not fit is kept raw")
	assert.Equal(t, `1e19`, string(kept))
}

// An id kept raw is reported even where an earlier answer of the same
// operation had one converted without loss at the same field, and the
// other way round: RunSync answered experimentResultId 5002.0 and then
// 1e19 (or 1e19 first) lists both findings, the kept one marked KeptRaw.
func TestKeptIDIsReportedAfterAConvertedOne(t *testing.T) {
	const path = "ApiExperimentResult.experimentResultId"
	converted := path + " is integer/int64; the answer has number"
	kept := path + " is integer/int64; the answer has 1e19, which is not an integer in its range: kept raw"
	for name, written := range map[string][]string{"converted first": {`5002.0`, `1e19`}, "kept first": {`1e19`, `5002.0`}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var answered atomic.Int32
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"experimentResultId": %s, "validationErrors": null, "validationStatus": "OK", "validationWarnings": null}`, written[answered.Add(1)-1])
			})
			for _, id := range written {
				out, err := c.Experiments.RunSync(testCtx(t), 10303)
				if id == `1e19` {
					var missing *MalformedError
					require.ErrorAs(t, err, &missing, "the answer with %s has no result id", id)
					continue
				}
				require.NoError(t, err)
				assert.Equal(t, ids.ExperimentResultID(5002), out.ExperimentResultId)
			}
			type reported struct {
				detail  string
				keptRaw bool
			}
			var got []reported
			for _, f := range typeFindingsAt(c.Drift(), path) {
				got = append(got, reported{f.Detail, f.KeptRaw})
			}
			assert.ElementsMatch(t, []reported{{converted, false}, {kept, true}}, got, "both answers reported, once each")
		})
	}
}

// On the rows of one page of runs, an rcId kept raw is reported beside an
// rcId converted without loss on an earlier row, and the other way round.
func TestKeptIDInAListIsReportedBesideAConvertedOne(t *testing.T) {
	const path = "ApiBasicRun.rcId"
	row := func(id int, rcID string) string {
		return fmt.Sprintf(`{"hasOptions": false, "id": %d, "name": "Statistics", "rcId": %s, "removing": false, "scenarioId": 82840, "type": "SIMULATION"}`, id, rcID)
	}
	for name, rcIDs := range map[string][]string{"converted first": {`5002.0`, `5003.0`, `1e19`}, "kept first": {`1e19`, `1e20`, `5002.0`}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, "["+row(91770, rcIDs[0])+", "+row(91771, rcIDs[1])+", "+row(91772, rcIDs[2])+"]")
			})
			runs, err := c.Experiments.Runs(testCtx(t), 82840)
			require.NoError(t, err)
			require.Len(t, runs, 3)
			var kept []bool
			for _, f := range typeFindingsAt(c.Drift(), path) {
				kept = append(kept, f.KeptRaw)
			}
			assert.ElementsMatch(t, []bool{false, true}, kept, "one finding converted and one kept raw at %s, among %v", path, c.Drift())
		})
	}
}

// typeFindingsAt are the probe-type findings of findings at path.
func typeFindingsAt(findings []drift.Finding, path string) []drift.Finding {
	var at []drift.Finding
	for _, f := range findings {
		if f.Kind == drift.KindType && f.Path == path {
			at = append(at, f)
		}
	}
	return at
}

// findingAt is the one probe-type finding of findings at path.
func findingAt(t *testing.T, findings []drift.Finding, path string) drift.Finding {
	t.Helper()
	at := typeFindingsAt(findings, path)
	require.Len(t, at, 1, "one finding at %s among %v", path, findings)
	return at[0]
}
