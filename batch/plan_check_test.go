package batch_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/gen"
)

// ruleCase is a plan that breaks one rule of the items, as a file and as
// built in code: both are refused with the same kind of mistake, at the
// same field.
type ruleCase struct {
	yaml  string                        // the plan file; {dir} is the plan's directory
	items func(dir string) []batch.Item // the same items built in code
	plan  func(p *batch.Plan)           // more of the plan built in code
	kind  error
	field string
}

// scenarioItem runs scenario 101's GFA, as built in code.
func scenarioItem(name string) batch.Item {
	return batch.Item{Name: name, Project: 1, Scenario: 101, Experiment: gen.ExperimentTypeGFA}
}

// exporting is the item with its dashboard export, as written and where
// it is.
func exporting(it batch.Item, dir, dashboard string) batch.Item {
	it.Dashboard, it.DashboardPath = dashboard, dashboard
	if !filepath.IsAbs(dashboard) {
		it.DashboardPath = filepath.Join(dir, dashboard)
	}
	return it
}

func ruleCases() map[string]ruleCase {
	long := strings.Repeat("a", 1<<20)
	return map[string]ruleCase{
		"a name that leaves its directory": {
			yaml:  "items:\n  - {name: ../../etc/cron.d/x, scenario: 101, experiment: GFA}\n",
			items: func(string) []batch.Item { return []batch.Item{scenarioItem("../../etc/cron.d/x")} },
			kind:  batch.ErrBadName, field: "items[0].name",
		},
		"a name with a NUL and a newline": {
			yaml:  "items:\n  - {name: \"a\\0b\\nc\", scenario: 101, experiment: GFA}\n",
			items: func(string) []batch.Item { return []batch.Item{scenarioItem("a\x00b\nc")} },
			kind:  batch.ErrBadName, field: "items[0].name",
		},
		"a name of 1 MB": {
			yaml:  "items:\n  - {name: " + long + ", scenario: 101, experiment: GFA}\n",
			items: func(string) []batch.Item { return []batch.Item{scenarioItem(long)} },
			kind:  batch.ErrTooLong, field: "items[0].name",
		},
		"two items of one name on one run configuration": {
			yaml: "items:\n  - {name: a, scenario: 103, experiment: SIMULATION}\n  - {name: a, scenario: 103, experiment: SIMULATION}\n",
			items: func(string) []batch.Item {
				it := scenarioItem("a")
				it.Scenario, it.Experiment = 103, gen.ExperimentTypeSIMULATION
				return []batch.Item{it, it}
			},
			kind: batch.ErrDuplicateName, field: "items[1].name",
		},
		"an export outside the plan's directory": {
			yaml: "items:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: ../../../../outside/x.xlsx}}\n",
			items: func(dir string) []batch.Item {
				return []batch.Item{exporting(scenarioItem("a"), dir, "../../../../outside/x.xlsx")}
			},
			kind: batch.ErrOutside, field: "items[0].export.dashboard",
		},
		"an output directory outside the plan's": {
			yaml: "output: ../out\nitems:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: x.xlsx}}\n",
			items: func(dir string) []batch.Item {
				return []batch.Item{exporting(scenarioItem("a"), dir, filepath.Join("..", "out", "x.xlsx"))}
			},
			plan: func(p *batch.Plan) { p.Output = "../out" },
			kind: batch.ErrOutside, field: "items[0].export.dashboard",
		},
		"two exports of one file": {
			yaml: "items:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: x.xlsx}}\n  - {name: b, scenario: 102, experiment: GFA, export: {dashboard: '{dir}/sub/../x.xlsx'}}\n",
			items: func(dir string) []batch.Item {
				return []batch.Item{exporting(scenarioItem("a"), dir, "x.xlsx"), exporting(scenarioItem("b"), dir, dir+"/sub/../x.xlsx")}
			},
			kind: batch.ErrSameFile, field: "items[1].export.dashboard",
		},
		"an export over the plan": {
			yaml:  "items:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: plan.yaml}}\n",
			items: func(dir string) []batch.Item { return []batch.Item{exporting(scenarioItem("a"), dir, "plan.yaml")} },
			kind:  batch.ErrSameFile, field: "items[0].export.dashboard",
		},
		"an export over the state file": {
			yaml: "items:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: plan.state.json}}\n",
			items: func(dir string) []batch.Item {
				return []batch.Item{exporting(scenarioItem("a"), dir, "plan.state.json")}
			},
			kind: batch.ErrSameFile, field: "items[0].export.dashboard",
		},
		"an export path past MaxPathBytes": {
			yaml: "items:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: " + strings.Repeat("d/", batch.MaxPathBytes/2) + "x.xlsx}}\n",
			items: func(dir string) []batch.Item {
				return []batch.Item{exporting(scenarioItem("a"), dir, strings.Repeat("d/", batch.MaxPathBytes/2)+"x.xlsx")}
			},
			kind: batch.ErrTooLong, field: "items[0].export.dashboard",
		},
		"a scenario name past MaxTextBytes": {
			yaml: "items:\n  - {name: a, workbook: w.xlsx, scenarioName: " + strings.Repeat("s", batch.MaxTextBytes+1) + ", experiment: GFA}\n",
			items: func(dir string) []batch.Item {
				return []batch.Item{{Name: "a", Project: 1, Workbook: "w.xlsx", WorkbookPath: filepath.Join(dir, "w.xlsx"),
					ScenarioName: strings.Repeat("s", batch.MaxTextBytes+1), Experiment: gen.ExperimentTypeGFA}}
			},
			kind: batch.ErrTooLong, field: "items[0].scenarioName",
		},
		"an experiment name with a newline": {
			yaml: "items:\n  - {name: a, scenario: 101, experiment: GFA, experimentName: \"Main\\nOther\"}\n",
			items: func(string) []batch.Item {
				it := scenarioItem("a")
				it.ExperimentName = "Main\nOther"
				return []batch.Item{it}
			},
			kind: batch.ErrBadText, field: "items[0].experimentName",
		},
		"a table with a NUL": {
			yaml: "items:\n  - {name: a, workbook: w.xlsx, tables: [Sites, \"Cust\\0omers\"], experiment: GFA}\n",
			items: func(dir string) []batch.Item {
				return []batch.Item{{Name: "a", Project: 1, Workbook: "w.xlsx", WorkbookPath: filepath.Join(dir, "w.xlsx"),
					ScenarioName: "a", Tables: []string{"Sites", "Cust\x00omers"}, Experiment: gen.ExperimentTypeGFA}}
			},
			kind: batch.ErrBadText, field: "items[0].tables[1]",
		},
	}
}

// Every plan, read from a file or built in code, is checked by the same
// rules: each case is refused with its kind of mistake, naming the field,
// through ParsePlan and through Plan.Check.
func TestPlanItemRules(t *testing.T) {
	for name, tc := range ruleCases() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeWorkbook(t, filepath.Join(dir, "w.xlsx"))
			file := filepath.Join(dir, "plan.yaml")

			_, err := batch.ParsePlan(file, []byte("project: 1\n"+strings.ReplaceAll(tc.yaml, "{dir}", dir)))
			assertRefused(t, err, tc.kind, file+":", tc.field)

			p := &batch.Plan{File: file, Dir: dir, Items: tc.items(dir)}
			if tc.plan != nil {
				tc.plan(p)
			}
			assertRefused(t, p.Check(), tc.kind, file+": ", tc.field)
		})
	}
}

// assertRefused checks that err is a *PlanError of the kind, whose text
// names the file and the field, and quotes no value past its cut.
func assertRefused(t *testing.T, err error, kind error, file, field string) {
	t.Helper()
	require.Error(t, err)
	assert.ErrorIs(t, err, kind)
	var pe *batch.PlanError
	require.ErrorAs(t, err, &pe)
	assert.Contains(t, err.Error(), file)
	assert.Contains(t, err.Error(), field+": ")
	assert.Less(t, len(err.Error()), 2000, "the error quotes a value cut: %.300s", err.Error())
}

// An export outside the plan's directory is written there when the plan
// says so: allowOutside in the file, Plan.AllowOutside in code. The
// refusal names the option.
func TestPlanAllowOutside(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "plan.yaml")
	plan := "project: 1\n%sitems:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: ../outside/x.xlsx}}\n"

	_, err := batch.ParsePlan(file, []byte(strings.Replace(plan, "%s", "", 1)))
	require.ErrorIs(t, err, batch.ErrOutside)
	assert.ErrorContains(t, err, "items[0].export.dashboard: ../outside/x.xlsx is "+filepath.Join(filepath.Dir(dir), "outside", "x.xlsx")+", outside the plan's directory "+dir+": set allowOutside: true in the plan (Plan.AllowOutside)")
	p, err := batch.ParsePlan(file, []byte(strings.Replace(plan, "%s", "allowOutside: true\n", 1)))
	require.NoError(t, err)
	assert.True(t, p.AllowOutside)
	assert.Equal(t, filepath.Join(filepath.Dir(dir), "outside", "x.xlsx"), p.Items[0].DashboardPath)

	built := &batch.Plan{File: file, Dir: dir, Items: []batch.Item{exporting(scenarioItem("a"), dir, "../outside/x.xlsx")}}
	require.ErrorIs(t, built.Check(), batch.ErrOutside)
	built.AllowOutside = true
	assert.NoError(t, built.Check())
}

// A plan built in code is checked for what a plan file's structure
// requires too, naming the field; one that a file would give passes.
func TestPlanCheckOfAPlanBuiltInCode(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		items []batch.Item
		want  string
	}{
		"no items":                      {nil, "items: the plan needs at least one item"},
		"no name":                       {[]batch.Item{scenarioItem("")}, "items[0].name: missing"},
		"no project":                    {[]batch.Item{{Name: "a", Scenario: 101, Experiment: gen.ExperimentTypeGFA}}, "items[0].project: missing"},
		"no source":                     {[]batch.Item{{Name: "a", Project: 1, Experiment: gen.ExperimentTypeGFA}}, "items[0]: give either a workbook"},
		"no experiment":                 {[]batch.Item{{Name: "a", Project: 1, Scenario: 101}}, `items[0].experiment: "" is not an experiment type`},
		"no scenario name":              {[]batch.Item{{Name: "a", Project: 1, Workbook: "w.xlsx", WorkbookPath: "w.xlsx", Experiment: gen.ExperimentTypeGFA}}, "items[0].scenarioName: missing"},
		"no workbook path":              {[]batch.Item{{Name: "a", Project: 1, Workbook: "w.xlsx", ScenarioName: "A", Experiment: gen.ExperimentTypeGFA}}, "items[0].workbook: WorkbookPath is empty"},
		"no dashboard path":             {[]batch.Item{func() batch.Item { it := scenarioItem("a"); it.Dashboard = "x.xlsx"; return it }()}, "items[0].export.dashboard: set both Dashboard and DashboardPath"},
		"a name of a plan with no file": {[]batch.Item{scenarioItem("a b")}, `items[0].name: "a b": use letters`},
	} {
		t.Run(name, func(t *testing.T) {
			p := &batch.Plan{Dir: dir, Items: tc.items}
			err := p.Check()
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), tc.want), "%v\nwant %s", err, tc.want)
		})
	}

	writeWorkbook(t, filepath.Join(dir, "w.xlsx"))
	file := filepath.Join(dir, "plan.yaml")
	p, err := batch.ParsePlan(file, []byte("project: 1\noutput: out\nitems:\n  - {name: a, workbook: w.xlsx, experiment: GFA, export: {dashboard: a.xlsx}}\n  - {name: b, scenario: 101, experiment: GFA}\n"))
	require.NoError(t, err)
	assert.NoError(t, p.Check())
}

// More files each item writes (scmtemporal's data files) are checked with
// its export: under their directory, and no other item's.
func TestPlanCheckOfItemFiles(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	p := &batch.Plan{File: filepath.Join(dir, "plan.yaml"), Dir: dir,
		Items: []batch.Item{exporting(scenarioItem("a"), dir, filepath.Join("data", "b.csv")), scenarioItem("b")}}
	err := p.Check(batch.ItemFiles{Dir: data, Ext: ".csv", Setting: "PlanOptions.DataDir"})
	require.ErrorIs(t, err, batch.ErrSameFile)
	assert.ErrorContains(t, err, "items[1]: its file "+filepath.Join(data, "b.csv")+" (PlanOptions.DataDir) is already the export of items[0]")

	err = (&batch.Plan{Dir: dir, Items: []batch.Item{scenarioItem("a")}}).Check(batch.ItemFiles{Dir: data, Ext: "/../../x.csv", Setting: "PlanOptions.DataDir"})
	require.ErrorIs(t, err, batch.ErrOutside)
	assert.ErrorContains(t, err, "items[0]: its file "+filepath.Join(dir, "x.csv")+" is outside "+data+" (PlanOptions.DataDir)")
}

// A plan file larger than MaxPlanBytes is refused before it is parsed,
// by ReadPlan and ParsePlan, naming the file and the limit.
func TestPlanFileTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.yaml")
	data := []byte("project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n" + strings.Repeat("#", batch.MaxPlanBytes))
	require.NoError(t, os.WriteFile(path, data, 0o644))
	_, err := batch.ReadPlan(path)
	require.ErrorIs(t, err, batch.ErrPlanTooLarge)
	assert.EqualError(t, err, path+": larger than batch.MaxPlanBytes (16777216 bytes): a plan this large is no plan a person wrote")
	_, err = batch.ParsePlan(path, data)
	require.ErrorIs(t, err, batch.ErrPlanTooLarge)

	_, err = batch.ParsePlan(path, data[:batch.MaxPlanBytes])
	assert.NoError(t, err, "a plan of MaxPlanBytes")
}

// A key given twice is refused wherever it is: the plan's, an item's, an
// export's.
func TestPlanDuplicateKeys(t *testing.T) {
	for plan, want := range map[string]string{
		"project: 1\nproject: 2\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n":                                     "plan.yaml:2: project: given twice (first at line 1)",
		"project: 1\nitems:\n  - {name: a, name: b, scenario: 101, experiment: GFA}\n":                                        "plan.yaml:3: items[0].name: given twice (first at line 3)",
		"project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA, export: {dashboard: a.xlsx, dashboard: b.xlsx}}\n": "plan.yaml:3: items[0].export.dashboard: given twice",
	} {
		_, err := batch.ParsePlan("plan.yaml", []byte(plan))
		require.Error(t, err)
		assert.Contains(t, err.Error(), want)
		var pe *batch.PlanError
		assert.True(t, errors.As(err, &pe))
	}
}

// A plan built in code is checked by the runner too, before it reads or
// writes anything.
func TestNewRunnerChecksAPlanBuiltInCode(t *testing.T) {
	dir := t.TempDir()
	it := scenarioItem("a")
	it.Dashboard, it.DashboardPath = "../../outside.xlsx", filepath.Join(dir, "../../outside.xlsx")
	p := &batch.Plan{Dir: dir, Items: []batch.Item{it}}
	_, err := batch.NewRunner(nil, p, &batch.Options{StatePath: filepath.Join(dir, "state.json")})
	require.ErrorIs(t, err, batch.ErrOutside)
	_, statErr := os.Stat(filepath.Join(dir, "state.json"))
	assert.ErrorIs(t, statErr, os.ErrNotExist, "the runner wrote its state file for a plan it refuses")
}

// A plan declares the bounds of its runs (maxRunLength, staleWindow), and
// an item its own, which holds over the plan's; the plan's hold over
// Options'. Each is a duration with its unit, more than 0 and within its
// limit, and a mistake names its line and field; a plan built in code is
// held to the same limits (ErrBadBound), and Options to theirs.
func TestPlanBounds(t *testing.T) {
	p, err := batch.ParsePlan("plan.yaml", []byte("project: 1\nmaxRunLength: 2h\nstaleWindow: 30s\nitems:\n  - {name: a, scenario: 101, experiment: GFA, maxRunLength: 10m}\n  - {name: b, scenario: 103, experiment: SIMULATION}\n"))
	require.NoError(t, err)
	assert.Equal(t, 2*time.Hour, p.MaxRunLength)
	assert.Equal(t, 30*time.Second, p.StaleWindow)
	assert.Equal(t, []time.Duration{10 * time.Minute, 30 * time.Second}, []time.Duration{p.Items[0].MaxRunLength, p.Items[0].StaleWindow}, "the item's own, else the plan's")
	assert.Equal(t, []time.Duration{2 * time.Hour, 30 * time.Second}, []time.Duration{p.Items[1].MaxRunLength, p.Items[1].StaleWindow})

	for name, tc := range map[string]struct{ plan, want string }{
		"no unit":      {"project: 1\nstaleWindow: 40\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n", `plan.yaml:2: staleWindow: "40" is not a duration: give a number and its unit, such as 40s, 10m or 2h`},
		"zero":         {"project: 1\nmaxRunLength: 0s\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n", `plan.yaml:2: maxRunLength: "0s": a bound must be more than 0`},
		"negative":     {"project: 1\nitems:\n  - name: a\n    scenario: 101\n    experiment: GFA\n    maxRunLength: -1m\n", `plan.yaml:6: items[0].maxRunLength: "-1m": a bound must be more than 0`},
		"past a month": {"project: 1\nmaxRunLength: 800h\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n", `plan.yaml:2: maxRunLength: "800h" is more than 720h0m0s, the most a bound may be (batch.MaxRunLengthBound)`},
		"past an hour": {"project: 1\nitems:\n  - {name: a, scenario: 101, experiment: GFA, staleWindow: 2h}\n", `plan.yaml:3: items[0].staleWindow: "2h" is more than 1h0m0s, the most a bound may be (batch.StaleWindowBound)`},
		"not a scalar": {"project: 1\nstaleWindow: [30s]\nitems:\n  - {name: a, scenario: 101, experiment: GFA}\n", "plan.yaml:2: staleWindow: must be a duration such as 40s, 10m or 2h"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := batch.ParsePlan("plan.yaml", []byte(tc.plan))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}

	inCode := &batch.Plan{Dir: t.TempDir(), StaleWindow: -time.Second, Items: []batch.Item{scenarioItem("a")}}
	inCode.Items[0].MaxRunLength = 31 * 24 * time.Hour
	err = inCode.Check()
	require.ErrorIs(t, err, batch.ErrBadBound)
	assert.Contains(t, err.Error(), "staleWindow: -1s: a bound must not be negative")
	assert.Contains(t, err.Error(), "items[0].maxRunLength: 744h0m0s is more than the 720h0m0s a bound may be")

	_, err = batch.NewRunner(nil, p, &batch.Options{StatePath: filepath.Join(t.TempDir(), "s.json"), MaxRunLength: -time.Minute})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "batch: Options.MaxRunLength -1m0s: a bound must not be negative")
}
