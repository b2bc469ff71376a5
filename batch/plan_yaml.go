package batch

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// planReader walks the YAML nodes of a plan, collecting every mistake with
// its line.
type planReader struct {
	file string
	errs []*PlanError
}

func (r *planReader) fail(n *yaml.Node, field, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	r.errs = append(r.errs, &PlanError{File: r.file, Line: line, Field: field, Reason: fmt.Sprintf(format, args...)})
}

// err is every mistake, in the order of their lines.
func (r *planReader) err() error {
	slices.SortStableFunc(r.errs, func(a, b *PlanError) int { return cmp.Compare(a.Line, b.Line) })
	errs := make([]error, len(r.errs))
	for i, e := range r.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

var (
	planFields = []string{"project", "output", "allowOutside", "maxRunLength", "staleWindow", "items"}
	itemFields = []string{"name", "project", "workbook", "scenarioName", "tables", "formulas", "importExperiments",
		"scenario", "experiment", "experimentName", "maxRunLength", "staleWindow", "export"}
	exportFields = []string{"dashboard"}
)

func (r *planReader) plan(p *Plan, data []byte) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		r.fail(nil, "", "not YAML: %v", strings.TrimPrefix(err.Error(), "yaml: "))
		return
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		r.fail(nil, "", "the plan is empty: it needs items")
		return
	}
	fields := r.mapping(doc.Content[0], "plan", planFields)
	if fields == nil {
		return
	}
	if n := fields["project"]; n != nil {
		p.Project = ids.ProjectID(r.id(n, "project"))
	}
	if n := fields["output"]; n != nil {
		p.Output, p.outputLine = r.path(n, "output"), n.Line
	}
	if n := fields["allowOutside"]; n != nil {
		p.AllowOutside = r.boolean(n, "allowOutside")
	}
	p.MaxRunLength, p.StaleWindow = r.bounds(fields, "")
	items := fields["items"]
	if items == nil {
		r.fail(doc.Content[0], "items", "missing: the plan needs at least one item")
		return
	}
	r.items(p, items)
}

func (r *planReader) items(p *Plan, n *yaml.Node) {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		r.fail(n, "items", "must be a list of at least one item")
		return
	}
	// The rules of the items are Plan.Check's, applied to every item read,
	// an item with other mistakes too, so that every mistake is reported at
	// once.
	check := newPlanCheck(p)
	for i, node := range n.Content {
		field := fmt.Sprintf("items[%d]", i)
		it, ok := r.item(p, node, field)
		check.item(it, field)
		if ok {
			p.Items = append(p.Items, it)
		}
	}
	r.errs = append(r.errs, check.errs...)
	p.Notes = p.SharedRunConfigurations()
}

func (r *planReader) item(p *Plan, n *yaml.Node, field string) (Item, bool) {
	errsBefore := len(r.errs)
	fields := r.mapping(n, field, itemFields)
	if fields == nil {
		return Item{}, false
	}
	it := Item{Line: n.Line, Project: p.Project, MaxRunLength: p.MaxRunLength, StaleWindow: p.StaleWindow, lines: map[string]int{}}
	for key, v := range fields {
		it.lines[key] = v.Line
	}
	if v := fields["name"]; v == nil {
		r.fail(n, field+".name", "missing: every item needs a name")
	} else {
		it.Name = r.str(v, field+".name")
	}
	if v := fields["project"]; v != nil {
		it.Project = ids.ProjectID(r.id(v, field+".project"))
	} else if p.Project == 0 {
		r.fail(n, field+".project", "missing: give the item a project, or the plan a default project")
	}
	r.scenarioSource(p, &it, n, fields, field)
	r.experiment(&it, n, fields, field)
	maxRun, stale := r.bounds(fields, field+".")
	it.MaxRunLength, it.StaleWindow = cmp.Or(maxRun, it.MaxRunLength), cmp.Or(stale, it.StaleWindow)
	if v := fields["export"]; v != nil {
		r.export(p, &it, v, field+".export")
	}
	it.setDigest()
	return it, len(r.errs) == errsBefore
}

// scenarioSource reads where the item's scenario comes from: a workbook to
// import, or an existing scenario.
func (r *planReader) scenarioSource(p *Plan, it *Item, n *yaml.Node, fields map[string]*yaml.Node, field string) {
	wb, sc := fields["workbook"], fields["scenario"]
	switch {
	case wb != nil && sc != nil:
		r.fail(sc, field+".scenario", "give either workbook or scenario, not both")
		return
	case wb == nil && sc == nil:
		r.fail(n, field, "missing workbook or scenario: the item needs a workbook to import or an existing scenario")
		return
	case sc != nil:
		it.Scenario = ids.ScenarioID(r.id(sc, field+".scenario"))
		for _, k := range []string{"scenarioName", "tables", "formulas", "importExperiments"} {
			if v := fields[k]; v != nil {
				r.fail(v, field+"."+k, "applies to a workbook import; this item runs scenario %s", sc.Value)
			}
		}
		return
	}
	it.Workbook = r.path(wb, field+".workbook")
	it.WorkbookPath = resolve(p.Dir, it.Workbook)
	if it.Workbook != "" {
		if info, err := os.Stat(it.WorkbookPath); err != nil {
			r.fail(wb, field+".workbook", "%v", err)
		} else if !info.Mode().IsRegular() {
			r.fail(wb, field+".workbook", "%s is not a regular file", it.WorkbookPath)
		}
	}
	it.ScenarioName, it.ImportExperiments = it.Name, true
	if v := fields["scenarioName"]; v != nil {
		it.ScenarioName = r.str(v, field+".scenarioName")
	}
	if v := fields["tables"]; v != nil {
		it.Tables = r.strs(v, field+".tables")
	}
	if v := fields["formulas"]; v != nil {
		it.Formulas = r.boolean(v, field+".formulas")
	}
	if v := fields["importExperiments"]; v != nil {
		it.ImportExperiments = r.boolean(v, field+".importExperiments")
	}
}

func (r *planReader) experiment(it *Item, n *yaml.Node, fields map[string]*yaml.Node, field string) {
	v := fields["experiment"]
	if v == nil {
		r.fail(n, field+".experiment", "missing: name the type of the experiment to run, one of %s", experimentTypes())
	} else if s := r.str(v, field+".experiment"); s != "" {
		it.Experiment = gen.ExperimentType(strings.ToUpper(s))
		if !it.Experiment.Valid() {
			r.fail(v, field+".experiment", "%q is not an experiment type; want one of %s", s, experimentTypes())
		}
	}
	if v := fields["experimentName"]; v != nil {
		it.ExperimentName = r.str(v, field+".experimentName")
	}
}

func experimentTypes() string {
	var names []string
	for _, t := range []gen.ExperimentType{gen.ExperimentTypeGFA, gen.ExperimentTypeGFAWITHROADS, gen.ExperimentTypeSIMULATION,
		gen.ExperimentTypeNETWORKOPTIMIZATION, gen.ExperimentTypeVARIATION, gen.ExperimentTypeCOMPARISON,
		gen.ExperimentTypeSAFETYSTOCK, gen.ExperimentTypeRISKANALYSIS, gen.ExperimentTypeLASTMILEOPTIMIZATION} {
		names = append(names, string(t))
	}
	return strings.Join(names, ", ")
}

func (r *planReader) export(p *Plan, it *Item, n *yaml.Node, field string) {
	fields := r.mapping(n, field, exportFields)
	if fields == nil {
		return
	}
	if v := fields["dashboard"]; v != nil {
		if file := r.path(v, field+".dashboard"); file != "" {
			it.lines["export.dashboard"] = v.Line
			it.Dashboard = filepath.Join(p.Output, file)
			if filepath.IsAbs(file) {
				it.Dashboard = file
			}
			it.DashboardPath = resolve(p.Dir, it.Dashboard)
		}
	}
}

// resolve makes a path of the plan relative to the plan's directory.
func resolve(dir, path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// mapping checks that n is a mapping of known, distinct keys and returns
// their values by key; nil when n is not a mapping.
func (r *planReader) mapping(n *yaml.Node, field string, known []string) map[string]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		r.fail(n, field, "must be a mapping of %s", strings.Join(known, ", "))
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := strings.TrimPrefix(field+"."+k.Value, "plan.")
		switch {
		case !slices.Contains(known, k.Value):
			r.fail(k, name, "unknown field; known: %s", strings.Join(known, ", "))
		case out[k.Value] != nil:
			r.fail(k, name, "given twice (first at line %d)", out[k.Value].Line)
		default:
			out[k.Value] = v
		}
	}
	return out
}

func (r *planReader) scalar(n *yaml.Node, field, want string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		r.fail(n, field, "must be %s", want)
		return "", false
	}
	return n.Value, true
}

func (r *planReader) str(n *yaml.Node, field string) string {
	s, ok := r.scalar(n, field, "a string")
	if ok && strings.TrimSpace(s) == "" {
		r.fail(n, field, "must not be empty")
		return ""
	}
	return s
}

func (r *planReader) path(n *yaml.Node, field string) string { return r.str(n, field) }

func (r *planReader) id(n *yaml.Node, field string) int64 {
	s, ok := r.scalar(n, field, "an id (a positive integer)")
	if !ok {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		r.fail(n, field, "%q is not an id (a positive integer)", s)
		return 0
	}
	return v
}

// bounds reads the bounds a plan or an item declares (maxRunLength,
// staleWindow); zero for one not declared, or declared wrong.
func (r *planReader) bounds(fields map[string]*yaml.Node, prefix string) (maxRun, stale time.Duration) {
	if n := fields["maxRunLength"]; n != nil {
		maxRun = r.duration(n, prefix+"maxRunLength", MaxRunLengthBound, "batch.MaxRunLengthBound")
	}
	if n := fields["staleWindow"]; n != nil {
		stale = r.duration(n, prefix+"staleWindow", StaleWindowBound, "batch.StaleWindowBound")
	}
	return maxRun, stale
}

// duration reads a bound: a duration with its unit (40s, 10m, 2h30m),
// more than zero and at most limit; zero when it is not one.
func (r *planReader) duration(n *yaml.Node, field string, limit time.Duration, limitName string) time.Duration {
	s, ok := r.scalar(n, field, "a duration such as 40s, 10m or 2h")
	if !ok {
		return 0
	}
	d, err := time.ParseDuration(strings.TrimSpace(s))
	switch {
	case err != nil:
		r.fail(n, field, "%s is not a duration: give a number and its unit, such as 40s, 10m or 2h", textcut.Quote(s, shown))
	case d <= 0:
		r.fail(n, field, "%s: a bound must be more than 0", textcut.Quote(s, shown))
	case d > limit:
		r.fail(n, field, "%s is more than %v, the most a bound may be (%s)", textcut.Quote(s, shown), limit, limitName)
	default:
		return d
	}
	return 0
}

func (r *planReader) boolean(n *yaml.Node, field string) bool {
	s, ok := r.scalar(n, field, "true or false")
	if !ok {
		return false
	}
	v, err := strconv.ParseBool(s)
	if err != nil || n.Tag != "!!bool" {
		r.fail(n, field, "%q is not true or false", s)
	}
	return v
}

func (r *planReader) strs(n *yaml.Node, field string) []string {
	if n.Kind != yaml.SequenceNode {
		r.fail(n, field, "must be a list of strings")
		return nil
	}
	var out []string
	for i, v := range n.Content {
		if s := r.str(v, fmt.Sprintf("%s[%d]", field, i)); s != "" {
			out = append(out, s)
		}
	}
	return out
}
