package batch

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/scmodel/scmgo/internal/textcut"
)

// The limits of a plan, the same whatever built it: [ReadPlan] and
// [ParsePlan] apply them, and so does [Plan.Check], which scmtemporal's
// ItemsFromPlan calls on a plan built in code.
const (
	// MaxPlanBytes is the largest plan file ReadPlan and ParsePlan read:
	// 16 MiB, far beyond any plan a person writes.
	MaxPlanBytes = 16 << 20
	// MaxNameBytes is the longest item name. A name names files (an
	// export's temporary file, a dataset's part, scmtemporal's data file,
	// each with its extension and suffix within a file system's 255 bytes)
	// and Temporal workflow ids.
	MaxNameBytes = 128
	// MaxTextBytes is the longest scenario name, experiment name or table
	// name: text sent to the server.
	MaxTextBytes = 255
	// MaxPathBytes is the longest path of a workbook, an export or the
	// output directory.
	MaxPathBytes = 4096
)

// The kinds of mistakes the rules of a plan's items refuse. Each is the
// Err of a [*PlanError], found with errors.Is on what ReadPlan, ParsePlan
// or [Plan.Check] return.
var (
	// ErrPlanTooLarge: the plan file is larger than MaxPlanBytes.
	ErrPlanTooLarge = errors.New("batch: the plan file is larger than batch.MaxPlanBytes")
	// ErrTooLong: a name, a text or a path is longer than its limit
	// (MaxNameBytes, MaxTextBytes, MaxPathBytes).
	ErrTooLong = errors.New("batch: longer than a plan allows")
	// ErrBadName: an item name is not letters, digits, '.', '_' and '-'
	// starting with a letter or digit.
	ErrBadName = errors.New("batch: not an item name")
	// ErrBadText: a text or a path holds a control character (a NUL, a
	// newline) or bytes that are not UTF-8.
	ErrBadText = errors.New("batch: holds a control character or bytes that are not UTF-8")
	// ErrDuplicateName: two items have one name.
	ErrDuplicateName = errors.New("batch: two items have one name")
	// ErrOutside: a file an item writes is outside its directory (an export
	// outside the plan's directory without Plan.AllowOutside, a data file
	// outside its own).
	ErrOutside = errors.New("batch: a file written outside its directory")
	// ErrSameFile: two items (or an item and the plan) write one file.
	ErrSameFile = errors.New("batch: two writers of one file")
	// ErrBadBound: a declared bound (MaxRunLength, StaleWindow) is
	// negative, or more than its limit (MaxRunLengthBound,
	// StaleWindowBound).
	ErrBadBound = errors.New("batch: not a bound a plan may declare")
)

// namePattern is what an item name may be: it names files and, in the
// Temporal example, workflow ids.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// shown is how long a value an error quotes may be; shownPath, a path that
// passed its checks.
const (
	shown     = 64
	shownPath = 1024
)

// ItemFiles are files each item of a plan writes besides its export, named
// after the item: Dir/<name><Ext>, such as scmtemporal's data files.
// Setting names where Dir was given, in errors ("PlanOptions.DataDir").
type ItemFiles struct {
	Dir, Ext, Setting string
}

// Check checks a plan by the rules its items obey whatever built it, and
// reports every mistake as a [*PlanError] whose Err is one of this
// package's named errors: each item has a name (MaxNameBytes, letters,
// digits, '.', '_' and '-') no other item has, a project, a workbook or a
// scenario and an experiment type; its texts and paths are within their
// limits and hold no control character; its export is under the plan's
// directory unless [Plan.AllowOutside] is set; and no two items (nor an
// item and the plan or its state file) write one file, told by its cleaned
// absolute path. files are more files each item writes: each must be
// under its Dir, and no other item's. ReadPlan applies the same rules, with
// the lines of the file; paths are compared as written (a symbolic link
// under the directory is followed as the system follows it).
func (p *Plan) Check(files ...ItemFiles) error {
	c := newPlanCheck(p)
	if len(p.Items) == 0 {
		c.fail(0, "items", nil, "the plan needs at least one item")
	}
	c.bound(0, "maxRunLength", p.MaxRunLength, MaxRunLengthBound)
	c.bound(0, "staleWindow", p.StaleWindow, StaleWindowBound)
	for i, it := range p.Items {
		field := fmt.Sprintf("items[%d]", i)
		c.required(it, field)
		c.item(it, field)
		for _, f := range files {
			c.itemFile(it, field, f)
		}
	}
	return c.err()
}

// planCheck applies the rules of a plan's items, collecting every mistake.
type planCheck struct {
	p       *Plan
	dir     string            // the plan's directory, absolute
	names   map[string]string // a name and the item that has it
	outputs map[string]string // a file of the plan, cleaned and absolute, and what it is
	errs    []*PlanError
}

func newPlanCheck(p *Plan) *planCheck {
	c := &planCheck{p: p, dir: absolute(p.Dir), names: map[string]string{}, outputs: map[string]string{}}
	if p.File != "" {
		c.outputs[absolute(p.File)] = "the plan file"
		c.outputs[absolute(p.StatePath())] = "the plan's state file"
		c.outputs[absolute(lockPath(p.StatePath()))] = "the lock of the plan's state file"
	}
	c.path(p.outputLine, "output", p.Output)
	return c
}

func (c *planCheck) fail(line int, field string, kind error, format string, args ...any) {
	c.errs = append(c.errs, &PlanError{File: c.p.File, Line: line, Field: field, Reason: fmt.Sprintf(format, args...), Err: kind})
}

func (c *planCheck) err() error {
	errs := make([]error, len(c.errs))
	for i, e := range c.errs {
		errs[i] = e
	}
	return errors.Join(errs...)
}

// required checks what ReadPlan's reader checks by the file's structure:
// for a plan built in code.
func (c *planCheck) required(it Item, field string) {
	line := it.Line
	switch {
	case it.Name == "":
		c.fail(line, field+".name", nil, "missing: every item needs a name")
	case it.Project <= 0:
		c.fail(line, field+".project", nil, "missing: give the item a project")
	case (it.Workbook == "") == (it.Scenario == 0):
		c.fail(line, field, nil, "give either a workbook to import or an existing scenario, not both or neither")
	case it.Imports() && it.WorkbookPath == "":
		c.fail(it.lineOf("workbook"), field+".workbook", nil, "WorkbookPath is empty: set it to where the workbook is")
	case it.Imports() && it.ScenarioName == "":
		c.fail(line, field+".scenarioName", nil, "missing: name the scenario the import makes")
	case !it.Experiment.Valid():
		c.fail(it.lineOf("experiment"), field+".experiment", nil, "%s is not an experiment type; want one of %s", textcut.Quote(string(it.Experiment), shown), experimentTypes())
	case (it.Dashboard == "") != (it.DashboardPath == ""):
		c.fail(it.lineOf("export.dashboard"), field+".export.dashboard", nil, "set both Dashboard and DashboardPath (where it is written), or neither")
	}
}

// item checks an item's name, texts and paths, and that its name and its
// export are no other item's. Empty values are left to the checks of
// structure: ReadPlan's reader, or required.
func (c *planCheck) item(it Item, field string) {
	c.name(it, field)
	c.text(it.lineOf("scenarioName"), field+".scenarioName", it.ScenarioName)
	c.text(it.lineOf("experimentName"), field+".experimentName", it.ExperimentName)
	for i, t := range it.Tables {
		c.text(it.lineOf("tables"), fmt.Sprintf("%s.tables[%d]", field, i), t)
	}
	c.path(it.lineOf("workbook"), field+".workbook", it.Workbook, it.WorkbookPath)
	c.bound(it.lineOf("maxRunLength"), field+".maxRunLength", it.MaxRunLength, MaxRunLengthBound)
	c.bound(it.lineOf("staleWindow"), field+".staleWindow", it.StaleWindow, StaleWindowBound)
	line, exportField := it.lineOf("export.dashboard"), field+".export.dashboard"
	if !c.path(line, exportField, it.Dashboard, it.DashboardPath) || it.DashboardPath == "" {
		return
	}
	path := absolute(it.DashboardPath)
	if !c.p.AllowOutside && !within(c.dir, path) {
		c.fail(line, exportField, ErrOutside, "%s is %s, outside the plan's directory %s: set allowOutside: true in the plan (Plan.AllowOutside) to write there",
			textcut.Cut(it.Dashboard, shownPath), textcut.Cut(path, shownPath), textcut.Cut(c.dir, shownPath))
		return
	}
	c.output(line, exportField, path, "the export of "+it.where(field), textcut.Cut(it.Dashboard, shownPath))
}

// name checks an item's name and that no other item has it.
func (c *planCheck) name(it Item, field string) {
	line, field := it.lineOf("name"), field+".name"
	switch {
	case it.Name == "":
		return
	case len(it.Name) > MaxNameBytes:
		c.fail(line, field, ErrTooLong, "%s is %d bytes, longer than batch.MaxNameBytes (%d)", textcut.Quote(it.Name, shown), len(it.Name), MaxNameBytes)
	case !namePattern.MatchString(it.Name):
		c.fail(line, field, ErrBadName, "%s: use letters, digits, '.', '_' and '-', starting with a letter or digit", textcut.Quote(it.Name, MaxNameBytes))
	}
	if first, dup := c.names[it.Name]; dup {
		c.fail(line, field, ErrDuplicateName, "%s is already the name of %s", textcut.Quote(it.Name, MaxNameBytes), first)
		return
	}
	c.names[it.Name] = it.where(strings.TrimSuffix(field, ".name"))
}

// text checks a text sent to the server.
func (c *planCheck) text(line int, field, s string) {
	c.bounded(line, field, s, MaxTextBytes, "batch.MaxTextBytes")
}

// path checks the paths of a field (as written, and where it is), and
// reports whether they passed.
func (c *planCheck) path(line int, field string, paths ...string) bool {
	before := len(c.errs)
	for i, s := range paths {
		if i == 0 || s != paths[0] {
			c.bounded(line, field, s, MaxPathBytes, "batch.MaxPathBytes")
		}
		if len(c.errs) > before {
			return false
		}
	}
	return true
}

// bounded checks that s is within its limit and holds only printable
// UTF-8.
func (c *planCheck) bounded(line int, field, s string, limit int, limitName string) {
	switch {
	case len(s) > limit:
		c.fail(line, field, ErrTooLong, "%s is %d bytes, longer than %s (%d)", textcut.Quote(s, shown), len(s), limitName, limit)
	case !utf8.ValidString(s) || strings.ContainsFunc(s, unicode.IsControl):
		c.fail(line, field, ErrBadText, "%s holds a control character or bytes that are not UTF-8", textcut.Quote(s, shown))
	}
}

// bound checks a bound a plan or an item declares: not negative, at most
// limit.
func (c *planCheck) bound(line int, field string, d, limit time.Duration) {
	if p := boundProblem(d, limit); p != "" {
		c.fail(line, field, ErrBadBound, "%s", p)
	}
}

// itemFile checks an item's file of files: under its directory, and no
// other item's.
func (c *planCheck) itemFile(it Item, field string, f ItemFiles) {
	if it.Name == "" || f.Dir == "" {
		return
	}
	dir := absolute(f.Dir)
	path := filepath.Join(dir, it.Name+f.Ext)
	if !within(dir, path) {
		c.fail(it.lineOf("name"), field, ErrOutside, "its file %s is outside %s (%s)", textcut.Cut(path, shownPath), textcut.Cut(dir, shownPath), f.Setting)
		return
	}
	c.output(it.lineOf("name"), field, path, fmt.Sprintf("the file of %s (%s)", it.where(field), f.Setting),
		fmt.Sprintf("its file %s (%s)", textcut.Cut(path, shownPath), f.Setting))
}

// output notes that path is what names ("the export of the item at line
// 3"), and fails at the field, showing the path as shown, when it is
// another file of the plan already.
func (c *planCheck) output(line int, field, path, what, shown string) {
	if first, dup := c.outputs[path]; dup {
		c.fail(line, field, ErrSameFile, "%s is already %s", shown, first)
		return
	}
	c.outputs[path] = what
}

// within reports whether path is under dir (both absolute and cleaned),
// not dir itself.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// absolute is path made absolute and cleaned; as cleaned only when the
// working directory cannot be read.
func absolute(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	return abs
}

// where names an item in errors: by its line when read from a file, else
// by its field.
func (it Item) where(field string) string {
	if it.Line > 0 {
		return fmt.Sprintf("the item at line %d", it.Line)
	}
	return field
}

// lineOf is the line of one of the item's fields (its key in the plan,
// such as "export.dashboard"), or the item's line.
func (it Item) lineOf(key string) int {
	if l := it.lines[key]; l > 0 {
		return l
	}
	return it.Line
}
