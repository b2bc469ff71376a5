//go:build recipe

package scmgo_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestRecipe follows "Changing the spec" of CONTRIBUTING.md on a copy of the
// module: it makes the three broken edits (each must fail make generate
// naming its line, with gen/ left as it was), then adds the recipe's
// operation and optional field, runs the block of its step 2 line by line
// and checks what each line prints against the recipe (the guards' messages
// among it), accepts the addition with the line the reference test prints,
// and calls the new operation through facade.Call by both names. It then
// follows the same block from there, with one accepted addition, for a
// second operation that answers with a new model: the guards are the
// recipe's for both operations, no others, and the second addition is
// accepted too. Last, make check-generated passes on the regenerated,
// uncommitted code, and the benchmark module builds on its regenerated
// client. make ci runs it (make test-recipe); it shares the build
// cache of the caller.
func TestRecipe(t *testing.T) {
	section := readRecipe(t)
	dir := copyModule(t)
	t.Run("broken edits", func(t *testing.T) { brokenEdits(t, dir) })
	if t.Failed() {
		return
	}
	addOperationAndField(t, dir)
	r := &recipeRun{dir: dir, section: section, env: shellEnv(), op: firstOp}
	r.follow(t)
	if t.Failed() {
		return
	}
	addOperationWithNewModel(t, dir)
	r.op, r.built = secondOp, false
	r.follow(t)
	r.newModelDecodesNull(t)
	if out, err := r.command(t, 2*time.Minute, "make", "check-generated"); err != nil {
		t.Errorf("make check-generated on regenerated, uncommitted code: %v\n%s", err, out)
	}
	r.benchModule(t)
}

// newModelDecodesNull checks that the test of every response model covers
// the new model with no entry written for it: make generate put it in the
// model index.
func (r *recipeRun) newModelDecodesNull(t *testing.T) {
	t.Helper()
	const test = "TestNullDecodesInEveryResponseModel/ApiScenarioSummary"
	out, err := r.command(t, 3*time.Minute, "go", "test", "./api", "-run", "^"+strings.ReplaceAll(test, "/", "$/^")+"$", "-v")
	if err != nil || !strings.Contains(out, "--- PASS: "+test) {
		t.Errorf("%s, the new model, did not pass: %v\n%s", test, err, out)
	}
}

// benchModule vets the benchmark module alone, on its own go.mod, as make
// ci does: its ogen client, which make generate rewrote, builds with both
// operations.
func (r *recipeRun) benchModule(t *testing.T) {
	t.Helper()
	bench := &recipeRun{dir: filepath.Join(r.dir, "bench"), env: append(slices.Clip(r.env), "GOWORK=off")}
	if out, err := bench.command(t, 5*time.Minute, "go", "vet", "./..."); err != nil {
		t.Errorf("go vet ./... of the benchmark module on the regenerated ogen client: %v\n%s", err, out)
	}
}

// recipeOp names an operation the recipe adds as the recipe's lines and
// guards name its own, getRecentScenarios.
type recipeOp struct{ id, snake, method, route string }

var (
	firstOp  = recipeOp{"getRecentScenarios", "get_recent_scenarios", "GetRecentScenarios", "GET /open/scenario/recent-list"}
	secondOp = recipeOp{"getScenarioSummary", "get_scenario_summary", "GetScenarioSummary", "GET /open/scenario/summary"}
)

// in is text of the recipe about its operation made about o.
func (o recipeOp) in(text string) string {
	return strings.NewReplacer(firstOp.id, o.id, firstOp.snake, o.snake, firstOp.method, o.method, firstOp.route, o.route).Replace(text)
}

// follow runs the block of step 2 for the operation r adds, and calls it
// through facade.Call.
func (r *recipeRun) follow(t *testing.T) {
	t.Helper()
	r.added = append(r.added, r.op)
	for _, line := range r.section.steps {
		r.step(t, r.op.in(line))
	}
	r.facadeCall(t)
}

// copyModule copies the working tree of the module (no .git, no installed
// tools, no binaries) to a temporary directory.
func copyModule(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	skip := map[string]bool{".git": true, ".tools": true, "bin": true}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case skip[path] && d.IsDir():
			return filepath.SkipDir
		case skip[path]: // .git is a file in a worktree
			return nil
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, path), 0o755)
		case !d.Type().IsRegular() || strings.HasSuffix(path, ".test"):
			return nil
		}
		return copyFile(path, filepath.Join(dst, path))
	})
	if err != nil {
		t.Fatalf("copying the module: %v", err)
	}
	return dst
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// specFile is the spec, relative to the module root.
const specFile = "api/openapi.yaml"

// newOperation is the recipe's operation: getScenarios under another
// name and path, with an optional parameter more.
const newOperation = `  /open/scenario/recent-list:
    get:
      tags:
      - Scenarios
      summary: List the project's recently changed scenarios
      operationId: getRecentScenarios
      x-snake-case-name: get_recent_scenarios
      x-changes-state: false
      x-paging: false
      x-inferred: true
      parameters:
      - name: projectId
        in: query
        required: true
        schema: {type: integer, format: int64}
      - name: limit
        in: query
        required: false
        schema: {type: integer, format: int32}
      responses:
        '200':
          description: successful operation
          content:
            application/json:
              schema:
                type: array
                items: {$ref: '#/components/schemas/ApiScenarioData'}
        4XX: {$ref: '#/components/responses/Error'}
        5XX: {$ref: '#/components/responses/Error'}
`

// newField is the recipe's optional field of ApiScenarioData.
const newField = `        lastModified:
          type: string
          description: When the scenario last changed.
          x-inferred: true
`

// addOperationAndField edits the spec of the copy as the recipe's user did.
func addOperationAndField(t *testing.T, dir string) {
	t.Helper()
	text := readSpec(t, dir)
	text = insertBefore(t, text, "\n  /open/scenario:\n", newOperation)
	model := strings.Index(text, "\n    ApiScenarioData:\n")
	props := strings.Index(text[max(model, 0):], "\n      properties:\n")
	if model < 0 || props < 0 {
		t.Fatalf("%s has no ApiScenarioData with properties: this test's edit needs updating", specFile)
	}
	at := model + props + len("\n      properties:\n")
	writeSpec(t, dir, text[:at]+newField+text[at:])
}

// secondOperation answers with a new model, newModel.
const secondOperation = `  /open/scenario/summary:
    get:
      tags:
      - Scenarios
      summary: Summarise the project's scenarios
      operationId: getScenarioSummary
      x-snake-case-name: get_scenario_summary
      x-changes-state: false
      x-paging: false
      x-inferred: true
      parameters:
      - name: projectId
        in: query
        required: true
        schema: {type: integer, format: int64}
      responses:
        '200':
          description: successful operation
          content:
            application/json:
              schema: {$ref: '#/components/schemas/ApiScenarioSummary'}
        4XX: {$ref: '#/components/responses/Error'}
        5XX: {$ref: '#/components/responses/Error'}
`

// newModel is the answer of secondOperation, a model the spec did not have.
const newModel = `    ApiScenarioSummary:
      type: object
      description: How many scenarios a project has, and when one last changed.
      x-inferred: true
      required:
      - scenarioCount
      additionalProperties: {$ref: '#/components/schemas/RawJSON'}
      properties:
        scenarioCount:
          type: integer
          format: int32
          x-inferred: true
        lastModified:
          type: string
          x-inferred: true
`

// addOperationWithNewModel adds secondOperation and newModel to the spec of
// the copy, as a user would after the recipe.
func addOperationWithNewModel(t *testing.T, dir string) {
	t.Helper()
	text := readSpec(t, dir)
	text = insertBefore(t, text, "\n  /open/scenario:\n", secondOperation)
	text = insertBefore(t, text, "\n    ApiScenarioValidationStatus:\n", newModel)
	writeSpec(t, dir, text)
}

func insertBefore(t *testing.T, text, anchor, insert string) string {
	t.Helper()
	i := strings.Index(text, anchor)
	if i < 0 {
		t.Fatalf("%s has no %q: this test's edit needs updating", specFile, anchor)
	}
	return text[:i+1] + insert + text[i+1:]
}

func readSpec(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, specFile))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeSpec(t *testing.T, dir, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, specFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// brokenEdits makes each of three broken edits in turn: make generate must
// fail, name the spec's line of the edit, and leave gen/ and the model index
// as they were.
func brokenEdits(t *testing.T, dir string) {
	good := readSpec(t, dir)
	defer writeSpec(t, dir, good)
	edits := map[string]struct{ old, new, line string }{
		"a $ref to a missing schema": {"items: {$ref: '#/components/schemas/ApiScenarioData'}",
			"items: {$ref: '#/components/schemas/ApiScenarioDatum'}", "ApiScenarioDatum"},
		"a duplicate operationId":         {"operationId: removeScenarioById", "operationId: getScenarios", "operationId: getScenarios\n      x-snake-case-name: remove"},
		"a path parameter the path lacks": {"      - name: scenarioId\n        in: query", "      - name: scenarioId\n        in: path", "- name: scenarioId\n        in: path"},
	}
	for name, e := range edits {
		t.Run(name, func(t *testing.T) {
			if !strings.Contains(good, e.old) {
				t.Fatalf("%s has no %q: this test's edit needs updating", specFile, e.old)
			}
			text := strings.Replace(good, e.old, e.new, 1)
			writeSpec(t, dir, text)
			want := fmt.Sprintf("[%s:%d]", specFile, lineOf(text, e.line))
			before := treeHash(t, filepath.Join(dir, "gen")) + treeHash(t, filepath.Join(dir, "internal", "testkit", "genmodels"))
			out, err := (&recipeRun{dir: dir, env: shellEnv()}).command(t, 2*time.Minute, "make", "generate")
			if err == nil || !strings.Contains(out, want) {
				t.Errorf("make generate: %v, want a failure naming %s:\n%s", err, want, out)
			}
			if treeHash(t, filepath.Join(dir, "gen"))+treeHash(t, filepath.Join(dir, "internal", "testkit", "genmodels")) != before {
				t.Error("make generate changed gen/ or internal/testkit/genmodels though the spec is broken")
			}
		})
	}
}

// lineOf is the line of the first occurrence of s in text, counted from 1.
// For an operationId, it is the line of the operation's method key, where
// the spec check reports a name two operations share.
func lineOf(text, s string) int {
	i := strings.Index(text, s)
	if i < 0 {
		return 0
	}
	lines := strings.Split(text[:i], "\n")
	if strings.HasPrefix(s, "operationId:") {
		method := regexp.MustCompile(`^    (get|post|put|patch|delete):$`)
		for n := len(lines) - 1; n >= 0; n-- {
			if method.MatchString(lines[n]) {
				return n + 1
			}
		}
	}
	return len(lines)
}

// treeHash hashes the names and contents of the files under dir.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// shellEnv is the environment of a user's shell: this process's, without
// what make passes to the commands it runs (make ci runs this test), which
// would make make print the directories it enters.
func shellEnv() []string {
	return slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return name == "MAKEFLAGS" || name == "MAKELEVEL" || name == "MFLAGS"
	})
}

// recipeRun runs the recipe's lines in the copy of the module.
type recipeRun struct {
	dir     string
	section recipe
	env     []string
	built   bool
	baseURL string     // of the fake the recipe started
	op      recipeOp   // the operation the recipe adds now
	added   []recipeOp // every operation it added, op the last
}

// command runs name with args in the copy within d and returns its
// standard output and error together.
func (r *recipeRun) command(t *testing.T, d time.Duration, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), d)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		err = fmt.Errorf("%s %s did not end within %v", name, strings.Join(args, " "), d)
	}
	return string(out), err
}

// step runs one line of the recipe's block and checks what it prints.
func (r *recipeRun) step(t *testing.T, line string) {
	t.Helper()
	command, comment := splitStep(line)
	switch words := strings.Fields(command); classifyStep(command) {
	case stepQuiet:
		if out, err := r.command(t, 3*time.Minute, words[0], words[1:]...); err != nil || out != "" {
			t.Fatalf("%s: %v; it must succeed and print nothing, it printed:\n%s", command, err, out)
		}
	case stepFake:
		r.startFake(t)
	case stepExport:
		r.export(t, words[1:])
	case stepCall:
		r.build(t)
		want, ok := strings.CutPrefix(comment, "prints: ")
		out, _ := r.command(t, time.Minute, filepath.Join(r.dir, "bin", "scm"), words[3:]...)
		if !ok || strings.TrimSpace(out) != want {
			t.Errorf("%s prints %q; CONTRIBUTING.md says %q", command, strings.TrimSpace(out), comment)
		}
	case stepTest:
		r.guards(t)
	case stepAddition:
		r.addition(t)
	case stepSpecdiff:
		r.specdiffTranscripts(t)
	default:
		t.Fatalf("CONTRIBUTING.md line %q is none this test knows how to run: teach it (classifyStep), so that the recipe holds no step nobody ran", line)
	}
}

// build builds the commands the recipe calls, once.
func (r *recipeRun) build(t *testing.T) {
	t.Helper()
	if r.built {
		return
	}
	r.built = true
	caller := filepath.Join(r.dir, "internal", "recipecall")
	if err := os.MkdirAll(caller, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(caller, "main.go"), []byte(recipeCall), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := r.command(t, 3*time.Minute, "go", "build", "-o", "bin/", "./cmd/scm", "./cmd/scm-fake", "./internal/recipecall"); err != nil {
		t.Fatalf("building scm, scm-fake and the facade caller: %v\n%s", err, out)
	}
}

// recipeCall calls the operations named by its arguments through
// facade.Call with the recipe's environment, and prints each answer.
const recipeCall = `package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/scmodel/scmgo/facade"
)

func main() {
	c, err := facade.New(os.Getenv("SCM_BASE_URL"), facade.WithAPIKey(os.Getenv("SCM_API_KEY")))
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, name := range os.Args[1:] {
		resp, err := c.Call(ctx, name, facade.RawRequest{Query: url.Values{"projectId": {"1"}}})
		if err == nil {
			resp.Body.Close()
		}
		fmt.Printf("%s: %v\n", name, err)
	}
}
`

// startFake starts the fake the recipe builds, on a free port, and keeps
// its base URL for the export line.
func (r *recipeRun) startFake(t *testing.T) {
	t.Helper()
	r.build(t)
	cmd := exec.Command(filepath.Join(r.dir, "bin", "scm-fake"), "-addr", "127.0.0.1:0")
	cmd.Dir = r.dir
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "base URL: "); ok {
				found <- u
			}
		}
	}()
	select {
	case r.baseURL = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("scm-fake printed no base URL within 30s")
	}
}

// export sets the variables of an export line; the fake's base URL is the
// one the recipe's fake serves at.
func (r *recipeRun) export(t *testing.T, assignments []string) {
	t.Helper()
	for _, a := range assignments {
		name, value, ok := strings.Cut(a, "=")
		if !ok {
			t.Fatalf("export %q: want NAME=VALUE", a)
		}
		if name == "SCM_BASE_URL" {
			if r.baseURL == "" || !strings.HasSuffix(value, "/api/v1") {
				t.Fatalf("export %s: no fake started before it, or not a base URL ending in /api/v1", a)
			}
			value = r.baseURL
		}
		r.env = append(r.env, name+"="+value)
	}
}

// facadeCall calls the new operation through facade.Call by both names: the
// fake answers 501, naming it.
func (r *recipeRun) facadeCall(t *testing.T) {
	t.Helper()
	out, err := r.command(t, time.Minute, filepath.Join(r.dir, "bin", "recipecall"), r.op.id, r.op.snake)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for i, name := range []string{r.op.id, r.op.snake} {
		if err != nil || len(lines) != 2 || !strings.HasPrefix(lines[i], name+": ") ||
			!strings.Contains(lines[i], r.op.id+": not implemented by the fake server") || !strings.Contains(lines[i], "501") {
			t.Errorf("facade.Call(%q): %v; want the fake's 501 naming %s:\n%s", name, err, r.op.id, out)
		}
	}
}

// guardPackages are the packages whose tests read the spec or the operation
// table: after a change of the spec, only their guards may fail. The other
// packages read neither (make test runs them).
var guardPackages = []string{"./api", "./facade", "./fake", "./cmd/scm", "./cmd/scm-fake", "./cmd/specdiff", "./drift",
	"./tools/decodegen", "./internal/specdiff/...", "./tools/opsgen", "./internal/spec"}

// testEvent is a line of go test -json.
type testEvent struct {
	Action, Package, Test, Output string
}

// guards runs the tests and checks that the only failures are the
// recipe's guard messages, each one short line, for every operation the
// recipe added (none has its facade method or fake handler written).
func (r *recipeRun) guards(t *testing.T) {
	t.Helper()
	args := append([]string{"test", "-json"}, guardPackages...)
	out, _ := r.command(t, 8*time.Minute, "go", args...)
	messages := map[string][]string{} // "package test" -> its message lines
	failed := map[string]bool{}       // "package test", and "package" for a package that failed
	message := regexp.MustCompile(`^\s+\w+_test\.go:\d+: (.*)$`)
	var other strings.Builder
	for _, line := range strings.Split(out, "\n") {
		var e testEvent
		if json.Unmarshal([]byte(line), &e) != nil {
			other.WriteString(line + "\n") // a build failure, say
			continue
		}
		key := strings.TrimSpace(strings.TrimPrefix(e.Package, "github.com/scmodel/scmgo/") + " " + e.Test)
		switch {
		case e.Action == "fail":
			failed[key] = true
		case e.Action == "output":
			if m := message.FindStringSubmatch(strings.TrimRight(e.Output, "\n")); m != nil {
				messages[key] = append(messages[key], m[1])
			}
		}
	}
	var got, packages []string
	for key := range failed {
		if !strings.Contains(key, " ") {
			packages = append(packages, key)
		}
		for _, m := range messages[key] {
			got = append(got, key+": "+m)
		}
	}
	slices.Sort(got)
	slices.Sort(packages)
	var want []string
	for _, op := range r.added {
		for _, g := range r.section.guards {
			want = append(want, op.in(g))
		}
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("go test: the failures are not the recipe's guards.\ngot:\n%s\nwant (CONTRIBUTING.md, Changing the spec):\n%s\n%s",
			strings.Join(got, "\n"), strings.Join(want, "\n"), other.String())
	}
	if !slices.Equal(packages, []string{"facade", "fake"}) {
		t.Errorf("go test: packages failing %v, want [facade fake]", packages)
	}
}

// addition checks that the reference test reports the new operation as an
// addition with the line that accepts it into api/additions.jsonl, that the
// line does, that it pins the operation's shape, and that the additions
// accepted before still pass.
func (r *recipeRun) addition(t *testing.T) {
	t.Helper()
	run := func() (string, error) {
		return r.command(t, 3*time.Minute, "go", "test", "./api", "-run", "TestSpecHasEveryReferenceOperation", "-v")
	}
	out, err := run()
	if err != nil {
		t.Fatalf("the reference test fails on an addition: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^\s+(\{"id":"` + r.op.id + `",.*\})$`).FindStringSubmatch(out)
	if !strings.Contains(out, "--- SKIP: TestSpecHasEveryReferenceOperation/"+r.op.id) || m == nil ||
		!strings.Contains(out, "Accept it with this line at the end of api/additions.jsonl:") {
		t.Fatalf("the reference test does not report %s as an addition with its line and api/additions.jsonl:\n%s", r.op.id, out)
	}
	file := filepath.Join(r.dir, "api", "additions.jsonl")
	before, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("api/additions.jsonl, the file the line goes to: %v", err)
	}
	accept := func(line string) {
		if err := os.WriteFile(file, append(bytes.Clone(before), line+"\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	accept(strings.Replace(m[1], `"changesState":false`, `"changesState":true`, 1))
	if out, err := run(); err == nil || !strings.Contains(out, "--- FAIL: TestSpecHasEveryReferenceOperation/"+r.op.id) {
		t.Errorf("a line of api/additions.jsonl that says %s changes state, which the spec does not, passes: %v\n%s", r.op.id, err, out)
	}
	accept(m[1])
	out, err = run()
	for _, op := range r.added {
		if err != nil || !strings.Contains(out, "--- PASS: TestSpecHasEveryReferenceOperation/"+op.id) {
			t.Errorf("the accepted line of %s is not checked as the reference's rows are: %v\n%s", op.id, err, out)
		}
	}
}

// specdiffTranscripts checks that the docs' transcripts of specdiff, which
// show the spec's operations, fail naming the line that rewrites them, and
// that the line does.
func (r *recipeRun) specdiffTranscripts(t *testing.T) {
	t.Helper()
	transcripts := func() (string, error) {
		return r.command(t, 3*time.Minute, "go", "test", "./cmd/specdiff", "-run", "^TestDocTranscriptsAreWhatSpecdiffPrints$")
	}
	if out, err := transcripts(); err == nil || !strings.Contains(out, specdiffRewrite) {
		t.Errorf("the docs' transcripts of specdiff: %v; want a failure naming %q:\n%s", err, specdiffRewrite, out)
	}
	args := strings.Fields(specdiffRewrite)
	if out, err := r.command(t, 3*time.Minute, args[0], args[1:]...); err != nil {
		t.Errorf("%s: %v\n%s", specdiffRewrite, err, out)
	}
	if out, err := transcripts(); err != nil {
		t.Errorf("the docs' transcripts of specdiff after %s: %v\n%s", specdiffRewrite, err, out)
	}
}
