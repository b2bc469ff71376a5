package ids_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/ids"
)

// The ids travel as the integers and strings they are: JSON numbers, not
// strings (no id implements encoding.TextMarshaler).
func TestIdsEncodeAsTheirBasicTypes(t *testing.T) {
	v := struct {
		Rc  ids.RcID               `json:"rc"`
		Res ids.ExperimentResultID `json:"res"`
		Obj ids.ObjectID           `json:"obj"`
		Sc  []ids.ScenarioID       `json:"sc"`
	}{Rc: 10303, Res: 5002, Obj: "7", Sc: []ids.ScenarioID{101, 102}}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, `{"rc": 10303, "res": 5002, "obj": "7", "sc": [101, 102]}`, string(b))
	var back struct {
		Rc ids.RcID `json:"rc"`
	}
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, ids.RcID(10303), back.Rc)
}

func TestStringWritesTheDecimalForm(t *testing.T) {
	for want, id := range map[string]fmt.Stringer{
		"1": ids.ProjectID(1), "103": ids.ScenarioID(103), "78": ids.JobID(78), "10303": ids.RcID(10303),
		"5002": ids.ExperimentResultID(5002), "5001": ids.RunID(5001), "9": ids.VariationID(9), "5004": ids.PageID(5004),
		"-3": ids.RcID(-3), "new": ids.NewVariation, "obj-1": ids.ObjectID("obj-1"),
	} {
		assert.Equal(t, want, id.String())
		assert.Equal(t, want, fmt.Sprint(id))
	}
	assert.Equal(t, "10303", fmt.Sprintf("%d", ids.RcID(10303)))
}

func TestParseReadsWhatStringWrites(t *testing.T) {
	rc, err := ids.Parse[ids.RcID]("10303")
	require.NoError(t, err)
	assert.Equal(t, ids.RcID(10303), rc)
	page, err := ids.Parse[ids.PageID]("5004")
	require.NoError(t, err)
	assert.Equal(t, ids.PageID(5004), page)
	v, err := ids.Parse[ids.VariationID]("new")
	require.NoError(t, err)
	assert.Equal(t, ids.NewVariation, v)
	v, err = ids.Parse[ids.VariationID](ids.VariationID(42).String())
	require.NoError(t, err)
	assert.Equal(t, ids.VariationID(42), v)
}

// Parse's error names the kind of id and the text, and wraps strconv's.
func TestParseErrorNamesTheKind(t *testing.T) {
	cases := map[string]struct {
		parse func(string) error
		in    string
		want  string
	}{
		"rcId":         {func(s string) error { _, err := ids.Parse[ids.RcID](s); return err }, "abc", `rcId "abc" is not a whole number`},
		"result":       {func(s string) error { _, err := ids.Parse[ids.ExperimentResultID](s); return err }, "1.5", `experimentResultId "1.5" is not a whole number`},
		"project":      {func(s string) error { _, err := ids.Parse[ids.ProjectID](s); return err }, "", `projectId "" is not a whole number`},
		"range":        {func(s string) error { _, err := ids.Parse[ids.JobID](s); return err }, "99999999999999999999", `jobId "99999999999999999999" is out of the range of a 64-bit integer`},
		"new is no rc": {func(s string) error { _, err := ids.Parse[ids.RcID](s); return err }, "new", `rcId "new" is not a whole number`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			err := c.parse(c.in)
			require.EqualError(t, err, c.want)
			var pe *ids.ParseError
			require.True(t, errors.As(err, &pe))
			assert.True(t, errors.Is(err, strconv.ErrSyntax) || errors.Is(err, strconv.ErrRange))
		})
	}
}

func TestNameOfEveryKind(t *testing.T) {
	assert.Equal(t, []string{"projectId", "scenarioId", "jobId", "rcId", "experimentResultId", "runId", "variationId", "pageId", "objectId"},
		[]string{ids.Name[ids.ProjectID](), ids.Name[ids.ScenarioID](), ids.Name[ids.JobID](), ids.Name[ids.RcID](),
			ids.Name[ids.ExperimentResultID](), ids.Name[ids.RunID](), ids.Name[ids.VariationID](), ids.Name[ids.PageID](), ids.Name[ids.ObjectID]()})
}
