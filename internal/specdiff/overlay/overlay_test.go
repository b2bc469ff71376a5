package overlay

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/speakeasy-api/openapi/overlay"
	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// specPath is the repository's spec.
const specPath = "../../../api/openapi.yaml"

// fixtures is the directory of the specs and findings specdiff's tests
// read: the command's.
const fixtures = "../../../cmd/specdiff/testdata"

// overlaySpec is the small spec the overlay tests change: Project with
// required fields, a $ref to the enumeration State, an inline object
// (owner) with its own enumeration, and getOptions's inline response.
var overlaySpec = filepath.Join(fixtures, "overlay", "spec.yaml")

const testSource = "specdiff tests"

// writeFindings writes findings as a JSON array (the form of a drift
// report) and returns the file.
func writeFindings(t *testing.T, findings []report.Finding) string {
	t.Helper()
	data, err := json.Marshal(findings)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "drift.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// makeOverlayOf runs specdiff overlay for specFile on the findings files,
// with -source source unless it is empty, and returns the overlay it
// printed (nil when none), its notes and its error.
func makeOverlayOf(t *testing.T, specFile, source string, files ...string) (*overlay.Overlay, string, error) {
	t.Helper()
	return makeOverlayFrom(t, nil, specFile, source, files...)
}

// makeOverlayFrom is makeOverlayOf with stdin for the file -.
func makeOverlayFrom(t *testing.T, stdin io.Reader, specFile, source string, files ...string) (*overlay.Overlay, string, error) {
	t.Helper()
	out, notes, err := overlayText(stdin, specFile, source, files...)
	if out == "" {
		return nil, notes, err
	}
	var ov overlay.Overlay
	if err := yaml.Unmarshal([]byte(out), &ov); err != nil {
		t.Fatalf("the overlay is not YAML: %v\n%s", err, out)
	}
	return &ov, notes, err
}

// overlayText runs specdiff overlay and returns the overlay it printed,
// its notes and its error.
func overlayText(stdin io.Reader, specFile, source string, files ...string) (string, string, error) {
	var out, notes strings.Builder
	err := Run(Options{Spec: specFile, Source: source, Files: files, Stdin: stdin, Stdout: &out, Notes: &notes})
	return out.String(), notes.String(), err
}

// actionLines writes each action on a line: "remove TARGET" or
// "update TARGET {the update in flow style}".
func actionLines(t *testing.T, ov *overlay.Overlay) []string {
	t.Helper()
	var out []string
	for _, a := range ov.Actions {
		if a.Remove {
			out = append(out, "remove "+a.Target)
			continue
		}
		out = append(out, "update "+a.Target+" "+flowYAML(t, &a.Update))
	}
	return out
}

func flowYAML(t *testing.T, n *yaml.Node) string {
	t.Helper()
	var setFlow func(*yaml.Node)
	setFlow = func(n *yaml.Node) {
		if n.Kind != yaml.ScalarNode {
			n.Style = yaml.FlowStyle
		}
		for _, c := range n.Content {
			setFlow(c)
		}
	}
	setFlow(n)
	b, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// probeFinding is a finding as the probe makes it, the structured fields
// filled from the path.
func probeFinding(kind, path string) report.Finding {
	f := report.Finding{Kind: kind, Operation: "getProjects", Path: path, Detail: path + " differs", Drift: true}
	f.Model, f.Property = drift.SplitPath(path)
	return f
}

func with(f report.Finding, edit func(*report.Finding)) report.Finding {
	edit(&f)
	return f
}

const (
	project = "$.components.schemas.Project"
	options = "$.paths['/open/options'].get.responses['200'].content['application/json'].schema"
)

func TestOverlayTurnsEachKindIntoItsActions(t *testing.T) {
	t.Parallel()
	jsonType := func(t string) func(*report.Finding) { return func(f *report.Finding) { f.JSONType = t } }
	tests := map[string]struct {
		finding report.Finding
		want    []string
	}{
		"an unknown field is added with its JSON type": {
			with(probeFinding("probe-unknown-field", "Project.description"), jsonType("string")),
			[]string{"update " + project + " {properties: {description: {type: string, x-observed: specdiff tests}}}"},
		},
		"an unknown object is an object of RawJSON": {
			with(probeFinding("probe-unknown-field", "Project.owner.extra"), jsonType("object")),
			[]string{"update " + project + ".properties.owner {properties: {extra: {type: object, additionalProperties: {$ref: '#/components/schemas/RawJSON'}, x-observed: specdiff tests}}}"},
		},
		"an unknown field of an inline response": {
			with(probeFinding("probe-unknown-field", "getOptions 200 response.more"), jsonType("boolean")),
			[]string{"update " + options + " {properties: {more: {type: boolean, x-observed: specdiff tests}}}"},
		},
		"a missing field becomes optional and its model is marked": {
			probeFinding("probe-missing", "Project.name"),
			[]string{"remove " + project + ".required[?@ == 'name']", "update " + project + " {x-observed: a real client lists projects; specdiff tests}"},
		},
		"model and property without a path": {
			report.Finding{Kind: "probe-missing", Operation: "getProjects", Detail: "name is missing", Drift: true, Model: "Project", Property: "name"},
			[]string{"remove " + project + ".required[?@ == 'name']", "update " + project + " {x-observed: a real client lists projects; specdiff tests}"},
		},
		"a null field becomes nullable": {
			with(probeFinding("probe-null", "Project.name"), jsonType("null")),
			[]string{"update " + project + ".properties.name {nullable: true, x-observed: a string in every answer; specdiff tests}"},
		},
		"a null $ref moves into allOf": {
			with(probeFinding("probe-null", "Project.state"), jsonType("null")),
			[]string{"remove " + project + ".properties.state['$ref']",
				"update " + project + ".properties.state {allOf: [{$ref: '#/components/schemas/State'}], nullable: true, x-observed: specdiff tests}"},
		},
		"a renamed field: the old one optional, the new one added": {
			with(probeFinding("probe-renamed", "Project.name"), func(f *report.Finding) { f.JSONType, f.RenamedTo = "string", "title" }),
			[]string{"remove " + project + ".required[?@ == 'name']",
				"update " + project + " {properties: {title: {type: string, x-observed: specdiff tests}}, x-observed: a real client lists projects; specdiff tests}"},
		},
		"a retyped field loses the old type's format": {
			with(probeFinding("probe-type", "Project.id"), func(f *report.Finding) { f.JSONType, f.SpecType = "string", "integer" }),
			[]string{"remove " + project + ".properties.id.format", "update " + project + ".properties.id {type: string, x-observed: specdiff tests}"},
		},
		"a retyped field's old observation is replaced, not added to": {
			with(probeFinding("probe-type", "Project.name"), func(f *report.Finding) { f.JSONType, f.SpecType = "integer", "string" }),
			[]string{"update " + project + ".properties.name {type: integer, format: int64, x-observed: specdiff tests}"},
		},
		"a format mismatch drops the format": {
			with(probeFinding("probe-type", "Project.created"), func(f *report.Finding) { f.JSONType, f.SpecType = "string", "string" }),
			[]string{"remove " + project + ".properties.created.format", "update " + project + ".properties.created {type: string, x-observed: specdiff tests}"},
		},
		"a retyped $ref is replaced": {
			with(probeFinding("probe-type", "Project.state"), func(f *report.Finding) { f.JSONType, f.SpecType = "integer", "string" }),
			[]string{"remove " + project + ".properties.state['$ref']", "update " + project + ".properties.state {type: integer, format: int64, x-observed: specdiff tests}"},
		},
		"an enumeration value goes where the enumeration is": {
			with(probeFinding("probe-enum", "Project.state"), func(f *report.Finding) { f.JSONType, f.Value = "string", json.RawMessage(`"ARCHIVED"`) }),
			[]string{"update $.components.schemas.State {x-observed: specdiff tests}", "update $.components.schemas.State.enum [ARCHIVED]"},
		},
		"an inline enumeration": {
			with(probeFinding("probe-enum", "Project.owner.kind"), func(f *report.Finding) { f.JSONType, f.Value = "string", json.RawMessage(`"NO"`) }),
			[]string{"update " + project + ".properties.owner.properties.kind {x-observed: specdiff tests}",
				"update " + project + ".properties.owner.properties.kind.enum ['NO']"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ov, errs, err := makeOverlayOf(t, overlaySpec, testSource, writeFindings(t, []report.Finding{tc.finding}))
			if err != nil || ov == nil {
				t.Fatalf("%v, overlay %v: %s", err, ov, errs)
			}
			if got := actionLines(t, ov); !slices.Equal(got, tc.want) {
				t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			assertOverlayApplies(t, overlaySpec, ov)
		})
	}
}

// TestOverlayMergesFindingsOfOneProperty gives the overlay what several
// operations and several reports said about the same properties.
func TestOverlayMergesFindingsOfOneProperty(t *testing.T) {
	t.Parallel()
	extra := func(op, typ string) report.Finding {
		return with(probeFinding("probe-unknown-field", "Project.extra"), func(f *report.Finding) { f.Operation, f.JSONType = op, typ })
	}
	state := func(v string) report.Finding {
		return with(probeFinding("probe-enum", "Project.state"), func(f *report.Finding) { f.JSONType, f.Value = "string", json.RawMessage(v) })
	}
	first := writeFindings(t, []report.Finding{extra("getProjects", "integer"), state(`"ARCHIVED"`), probeFinding("probe-missing", "Project.name"),
		with(probeFinding("probe-null", "Project.owner.userId"), func(f *report.Finding) { f.JSONType = "null" })})
	second := writeFindings(t, []report.Finding{extra("findProject", "number"), extra("getProject", "null"), state(`"PAUSED"`), state(` "ARCHIVED"`),
		probeFinding("probe-missing", "Project.state"), probeFinding("probe-missing", "Project.name"),
		with(probeFinding("probe-type", "Project.owner.userId"), func(f *report.Finding) { f.JSONType = "string" })})
	ov, errs, err := makeOverlayOf(t, overlaySpec, testSource, first, second)
	if err != nil || ov == nil {
		t.Fatalf("%v: %s", err, errs)
	}
	want := []string{
		"remove " + project + ".required[?@ == 'name']",
		"remove " + project + ".required[?@ == 'state']",
		"update " + project + " {properties: {extra: {type: number, format: double, nullable: true, x-observed: specdiff tests}}, x-observed: a real client lists projects; specdiff tests}",
		"remove " + project + ".properties.owner.properties.userId.format",
		"update " + project + ".properties.owner.properties.userId {type: string, nullable: true, x-observed: specdiff tests}",
		"update $.components.schemas.State {x-observed: specdiff tests}",
		"update $.components.schemas.State.enum [ARCHIVED, PAUSED]",
	}
	if got := actionLines(t, ov); !slices.Equal(got, want) {
		t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(errs, "specdiff overlay: 11 of 11 findings made 7 actions") {
		t.Errorf("stderr lacks the summary: %s", errs)
	}
	assertOverlayApplies(t, overlaySpec, ov)
}

func TestOverlayRemovesARequiredListLeftEmpty(t *testing.T) {
	t.Parallel()
	var fs []report.Finding
	for _, name := range []string{"id", "name", "state"} {
		fs = append(fs, probeFinding("probe-missing", "Project."+name))
	}
	ov, errs, _ := makeOverlayOf(t, overlaySpec, testSource, writeFindings(t, fs))
	if ov == nil {
		t.Fatal(errs)
	}
	want := []string{"remove " + project + ".required", "update " + project + " {x-observed: a real client lists projects; specdiff tests}"}
	if got := actionLines(t, ov); !slices.Equal(got, want) {
		t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	assertOverlayApplies(t, overlaySpec, ov)
}

// TestOverlayReadsFindingsWithoutStructuredFields: a drift report whose
// findings have only kind and path is used where those suffice; the others
// are named on stderr and skipped, as are kinds an overlay does not fix
// and findings the spec already agrees with.
func TestOverlayReadsFindingsWithoutStructuredFields(t *testing.T) {
	t.Parallel()
	bare := func(kind, path string) report.Finding {
		return report.Finding{Kind: kind, Operation: "getProjects", Path: path, Detail: path + " differs", Drift: true}
	}
	file := writeFindings(t, []report.Finding{
		bare("probe-missing", "Project.name"),
		bare("probe-null", "Project.owner.kind"),
		bare("probe-renamed", "Project.state"),
		bare("probe-unknown-field", "Project.description"),
		bare("probe-type", "Project.id"),
		bare("probe-enum", "Project.state"),
		bare("probe-status", ""),
		bare("probe-missing", "Nowhere.name"),
		with(bare("probe-unknown-field", "Project.id"), func(f *report.Finding) { f.JSONType = "integer" }),
		with(bare("probe-enum", "Project.state"), func(f *report.Finding) { f.Value = json.RawMessage(`"OPEN"`) }),
		with(bare("probe-type", "Project.id"), func(f *report.Finding) { f.JSONType = "integer" }),
		{Kind: "probe-not-called", Operation: "getOptions", Detail: "a note", Drift: false},
	})
	ov, errs, err := makeOverlayOf(t, overlaySpec, testSource, file)
	if err != nil || ov == nil {
		t.Fatalf("%v: %s", err, errs)
	}
	want := []string{
		"remove " + project + ".required[?@ == 'name']",
		"remove " + project + ".required[?@ == 'state']",
		"update " + project + " {x-observed: a real client lists projects; specdiff tests}",
		"update " + project + ".properties.owner.properties.kind {nullable: true, x-observed: specdiff tests}",
	}
	if got := actionLines(t, ov); !slices.Equal(got, want) {
		t.Errorf("actions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, note := range []string{
		"skipped probe-renamed Project.state (getProjects): the finding does not name the field that took the property's place (renamedTo)",
		"skipped probe-unknown-field Project.description (getProjects): the finding does not say the field's JSON type (jsonType)",
		"skipped probe-type Project.id (getProjects): the finding does not say the answer's JSON type (jsonType)",
		"skipped probe-enum Project.state (getProjects): the finding does not give the value (value)",
		"skipped probe-status (getProjects): not a difference of schemas an overlay fixes",
		"skipped probe-missing Nowhere.name (getProjects): the spec has no schema Nowhere",
		"skipped probe-unknown-field Project.id (getProjects): $.components.schemas.Project already has id",
		`skipped probe-enum Project.state (getProjects): $.components.schemas.State already allows "OPEN"`,
		"skipped probe-type Project.id (getProjects): $.components.schemas.Project.properties.id is already integer",
		"specdiff overlay: 3 of 12 findings made 4 actions",
	} {
		if !strings.Contains(errs, note) {
			t.Errorf("stderr lacks %q:\n%s", note, errs)
		}
	}
	if strings.Contains(errs, "probe-not-called") {
		t.Errorf("a note of the probe was reported: %s", errs)
	}
}

// assertOverlayApplies applies ov to a copy of the spec and checks that
// specdiff validate passes on the result.
func assertOverlayApplies(t *testing.T, specFile string, ov *overlay.Overlay) string {
	t.Helper()
	dir := t.TempDir()
	text, err := ov.ToString()
	if err != nil {
		t.Fatal(err)
	}
	ovFile, patched := filepath.Join(dir, "overlay.yaml"), filepath.Join(dir, "openapi.yaml")
	if err := os.WriteFile(ovFile, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs strings.Builder
	valid, err := Apply(ApplyOptions{Spec: specFile, Out: patched, Overlay: ovFile, Stdout: &out, Stderr: &errs})
	if err != nil || !valid {
		t.Fatalf("overlay apply: %v, valid %v: %s%s", err, valid, out.String(), errs.String())
	}
	rep, err := specdoc.Validate(patched, 0)
	if err != nil || rep.ExitCode() != report.ExitClean {
		t.Fatalf("specdiff validate of the patched spec: %v: %+v", err, rep.Results)
	}
	return patched
}
