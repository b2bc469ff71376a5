package batch_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/gen"
)

func TestReadPlan(t *testing.T) {
	dir := t.TempDir()
	writeWorkbook(t, filepath.Join(dir, "variants", "high.xlsx"))
	path := filepath.Join(dir, "whatif.yml")
	require.NoError(t, os.WriteFile(path, []byte(`# two variants
project: 1
output: out
items:
  - name: high-demand
    workbook: variants/high.xlsx
    tables: [Customers]
    formulas: true
    experiment: simulation
    export:
      dashboard: high.xlsx
  - name: archive
    project: 2
    scenario: 201
    experiment: GFA
    experimentName: Main
`), 0o644))
	p, err := batch.ReadPlan(path)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "whatif.state.json"), p.StatePath())
	require.Len(t, p.Items, 2)

	high := p.Items[0]
	assert.Equal(t, 5, high.Line)
	assert.True(t, high.Imports())
	assert.EqualValues(t, 1, high.Project)
	assert.Equal(t, filepath.Join(dir, "variants", "high.xlsx"), high.WorkbookPath)
	assert.Equal(t, "high-demand", high.ScenarioName, "the item's name by default")
	assert.Equal(t, []string{"Customers"}, high.Tables)
	assert.True(t, high.Formulas)
	assert.True(t, high.ImportExperiments, "true unless the plan says false")
	assert.Equal(t, gen.ExperimentTypeSIMULATION, high.Experiment, "any case")
	assert.Equal(t, filepath.Join("out", "high.xlsx"), high.Dashboard)
	assert.Equal(t, filepath.Join(dir, "out", "high.xlsx"), high.DashboardPath)

	archive := p.Items[1]
	assert.False(t, archive.Imports())
	assert.EqualValues(t, 2, archive.Project)
	assert.EqualValues(t, 201, archive.Scenario)
	assert.Equal(t, "Main", archive.ExperimentName)
	assert.Empty(t, archive.Dashboard)
	assert.NotEqual(t, high.Digest(), archive.Digest())
}

// Every mistake is reported with the plan's name, its line and its field.
func TestPlanErrors(t *testing.T) {
	cases := map[string]struct {
		plan string
		want []string
	}{
		"not yaml":          {"items: [\n", []string{"plan.yaml: not YAML: line 1"}},
		"empty":             {"", []string{"plan.yaml: the plan is empty"}},
		"no items":          {"project: 1\n", []string{"plan.yaml:1: items: missing"}},
		"items not a list":  {"items: 3\n", []string{"plan.yaml:1: items: must be a list"}},
		"unknown top field": {"projekt: 1\nitems: []\n", []string{"plan.yaml:1: projekt: unknown field; known: project, output, allowOutside, maxRunLength, staleWindow, items"}},
		"bad project":       {"project: one\nitems: []\n", []string{`plan.yaml:1: project: "one" is not an id`}},
		"missing name and experiment": {"project: 1\nitems:\n  - scenario: 101\n",
			[]string{"plan.yaml:3: items[0].name: missing", "plan.yaml:3: items[0].experiment: missing: name the type"}},
		"no project": {"items:\n  - {name: a, scenario: 101, experiment: GFA}\n",
			[]string{"plan.yaml:2: items[0].project: missing: give the item a project, or the plan a default project"}},
		"both sources": {"project: 1\nitems:\n  - name: a\n    workbook: a.xlsx\n    scenario: 101\n    experiment: GFA\n",
			[]string{"plan.yaml:5: items[0].scenario: give either workbook or scenario, not both"}},
		"no source": {"project: 1\nitems:\n  - name: a\n    experiment: GFA\n",
			[]string{"plan.yaml:3: items[0]: missing workbook or scenario"}},
		"missing workbook": {"project: 1\nitems:\n  - name: a\n    workbook: nowhere.xlsx\n    experiment: GFA\n",
			[]string{"plan.yaml:4: items[0].workbook: stat ", "nowhere.xlsx: no such file or directory"}},
		"bad experiment": {"project: 1\nitems:\n  - name: a\n    scenario: 101\n    experiment: SIMULATON\n",
			[]string{`plan.yaml:5: items[0].experiment: "SIMULATON" is not an experiment type; want one of GFA, GFA_WITH_ROADS, SIMULATION`}},
		"import field on a scenario": {"project: 1\nitems:\n  - name: a\n    scenario: 101\n    tables: [Sites]\n    experiment: GFA\n",
			[]string{"plan.yaml:5: items[0].tables: applies to a workbook import; this item runs scenario 101"}},
		"duplicate name": {"project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n  - {name: a, scenario: 102, experiment: GFA}\n",
			[]string{`plan.yaml:4: items[1].name: "a" is already the name of the item at line 3`}},
		"same export twice": {"project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: x.xlsx}}\n  - {name: b, scenario: 102, experiment: GFA, export: {dashboard: ./x.xlsx}}\n",
			[]string{"plan.yaml:4: items[1].export.dashboard: x.xlsx is already the export of the item at line 3"}},
		"field given twice": {"project: 1\nitems:\n  - name: a\n    scenario: 101\n    scenario: 102\n    experiment: GFA\n",
			[]string{"plan.yaml:5: items[0].scenario: given twice (first at line 4)"}},
		"unknown export": {"project: 1\nitems:\n  - name: a\n    scenario: 101\n    experiment: GFA\n    export:\n      pages: [1]\n",
			[]string{"plan.yaml:7: items[0].export.pages: unknown field; known: dashboard"}},
		"bad name":       {"project: 1\nitems:\n  - {name: 'a b', scenario: 101, experiment: GFA}\n", []string{`plan.yaml:3: items[0].name: "a b": use letters`}},
		"not a boolean":  {"project: 1\nitems:\n  - {name: a, workbook: a.xlsx, formulas: yes please, experiment: GFA}\n", []string{`items[0].formulas: "yes please" is not true or false`}},
		"negative id":    {"project: 1\nitems:\n  - {name: a, scenario: -4, experiment: GFA}\n", []string{`plan.yaml:3: items[0].scenario: "-4" is not an id`}},
		"empty string":   {"project: 1\nitems:\n  - {name: '', scenario: 1, experiment: GFA}\n", []string{"plan.yaml:3: items[0].name: must not be empty"}},
		"item not a map": {"project: 1\nitems:\n  - just a name\n", []string{"plan.yaml:3: items[0]: must be a mapping of name, project"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := batch.ParsePlan("plan.yaml", []byte(tc.plan))
			require.Error(t, err)
			for _, want := range tc.want {
				assert.Contains(t, err.Error(), want)
			}
			var pe *batch.PlanError
			assert.True(t, errors.As(err, &pe), "a *PlanError")
		})
	}
}

// All the mistakes of a plan are reported at once, a line each.
func TestPlanErrorsAllAtOnce(t *testing.T) {
	_, err := batch.ParsePlan("plan.yaml", []byte(`project: 1
items:
  - name: a
    scenario: 101
    experiment: GFX
  - name: b
    scenario: x
    experiment: GFA
`))
	require.Error(t, err)
	lines := strings.Split(err.Error(), "\n")
	assert.Len(t, lines, 2)
	assert.True(t, strings.HasPrefix(lines[0], "plan.yaml:5: items[0].experiment"), lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "plan.yaml:7: items[1].scenario"), lines[1])
}

// Mistakes of every kind are reported in one report, duplicates included
// even when the items they repeat have mistakes of their own: each with its
// line and field, in the order of their lines.
func TestPlanEveryMistakeAtOnce(t *testing.T) {
	_, err := batch.ParsePlan("plan.yaml", []byte(`project: 1
items:
  - name: a
    scenario: 101
    experiment: GFX
  - name: a
    scenario: x
    experiment: GFA
  - name: b
    workbook: missing.xlsx
    experiment: GFA
    export: {dashboard: out.xlsx}
  - name: c
    scenario: 102
    experiment: GFA
    colour: red
    export:
      dashboard: ./out.xlsx
  - name: b
    scenario: 103
`))
	require.Error(t, err)
	want := []string{
		`plan.yaml:5: items[0].experiment: "GFX" is not an experiment type`,
		`plan.yaml:6: items[1].name: "a" is already the name of the item at line 3`,
		`plan.yaml:7: items[1].scenario: "x" is not an id`,
		`plan.yaml:10: items[2].workbook: stat missing.xlsx: no such file or directory`,
		`plan.yaml:16: items[3].colour: unknown field`,
		`plan.yaml:18: items[3].export.dashboard: out.xlsx is already the export of the item at line 9`,
		`plan.yaml:19: items[4].experiment: missing`,
		`plan.yaml:19: items[4].name: "b" is already the name of the item at line 9`,
	}
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, len(want), err.Error())
	for i, w := range want {
		assert.True(t, strings.HasPrefix(lines[i], w), "%d: %s\nwant %s", i, lines[i], w)
	}
	var joined interface{ Unwrap() []error }
	require.ErrorAs(t, err, &joined)
	for _, e := range joined.Unwrap() {
		var pe *batch.PlanError
		assert.ErrorAs(t, e, &pe)
	}
}

// Items of existing scenarios that run the same experiment share its run
// configuration: the plan notes it, once per run configuration, at its
// first item. It is not a mistake.
func TestPlanNotesSharedRunConfigurations(t *testing.T) {
	p, err := batch.ParsePlan("plan.yaml", []byte(`project: 1
items:
  - {name: a, scenario: 101, experiment: GFA}
  - {name: b, scenario: 101, experiment: gfa}
  - {name: c, scenario: 101, experiment: SIMULATION}
  - {name: d, scenario: 101, experiment: GFA, experimentName: Other}
  - {name: e, scenario: 101, project: 2, experiment: GFA}
  - {name: f, scenario: 102, experiment: SIMULATION}
  - {name: g, scenario: 102, experiment: SIMULATION}
  - {name: h, scenario: 101, experiment: GFA}
`))
	require.NoError(t, err)
	var notes []string
	for _, n := range p.Notes {
		notes = append(notes, n.String())
	}
	assert.Equal(t, []string{
		"plan.yaml:3: items[0]: runs scenario 101's GFA experiment, as do 2 other items (b at line 4, h at line 10): they share its run configuration, so their runs queue, one at a time",
		"plan.yaml:8: items[5]: runs scenario 102's SIMULATION experiment, as does 1 other item (g at line 9): they share its run configuration, so their runs queue, one at a time",
	}, notes)

	p, err = batch.ParsePlan("plan.yaml", []byte("project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n  - {name: b, scenario: 102, experiment: GFA}\n"))
	require.NoError(t, err)
	assert.Empty(t, p.Notes)
}
