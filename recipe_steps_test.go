package scmgo_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// recipe is what CONTRIBUTING.md's "Changing the spec" holds: the lines of the
// sh block of step 2, and the guard messages of step 3.
type recipe struct {
	steps  []string
	guards []string
}

func readRecipe(t *testing.T) recipe {
	t.Helper()
	doc, err := os.ReadFile("CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\n## Changing the spec\n.*?```sh\n(.*?)```.*?```text\n(.*?)```").FindSubmatch(doc)
	if m == nil {
		t.Fatal("CONTRIBUTING.md's \"Changing the spec\" has no sh block followed by a text block of guard messages")
	}
	return recipe{steps: trimmedLines(string(m[1])), guards: trimmedLines(string(m[2]))}
}

func trimmedLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// specdiffRewrite is the recipe's line that rewrites the transcripts of
// specdiff in the docs.
const specdiffRewrite = "go test ./cmd/specdiff -run TestDocTranscripts -update"

// stepKind is what a line of the recipe's block does, as TestRecipe runs it.
type stepKind int

const (
	stepUnknown  stepKind = iota
	stepQuiet             // make generate, go build ./...: succeed and print nothing
	stepFake              // the fake started in the background
	stepExport            // the environment of the calls
	stepCall              // scm call, printing what its comment says
	stepTest              // go test ./...: only the guards fail
	stepAddition          // the reference test accepts the addition
	stepSpecdiff          // the specdiff transcripts rewritten
)

// stepNames name the kinds in the test's messages.
var stepNames = [...]string{stepUnknown: "unknown", stepQuiet: "make generate or go build", stepFake: "fake",
	stepExport: "export", stepCall: "scm call", stepTest: "go test ./...", stepAddition: "reference test", stepSpecdiff: specdiffRewrite}

// splitStep cuts a line of the block into its command and its comment.
func splitStep(line string) (command, comment string) {
	command, comment, _ = strings.Cut(line, "#")
	return strings.TrimSpace(command), strings.TrimSpace(comment)
}

// classifyStep tells what a command of the recipe's block does.
func classifyStep(command string) stepKind {
	switch {
	case command == "make generate" || command == "go build ./...":
		return stepQuiet
	case command == "go run ./cmd/scm-fake &":
		return stepFake
	case strings.HasPrefix(command, "export "):
		return stepExport
	case strings.HasPrefix(command, "go run ./cmd/scm call "):
		return stepCall
	case command == "go test ./...":
		return stepTest
	case command == "go test ./api -run TestSpecHasEveryReferenceOperation -v":
		return stepAddition
	case command == specdiffRewrite:
		return stepSpecdiff
	}
	return stepUnknown
}

// Every line of the recipe's block is a step TestRecipe runs (make
// test-recipe, a CI job of its own), and each step it runs is in the block:
// an edit of CONTRIBUTING.md that adds, renames or drops a step fails here,
// in make ci, before the slow job replays the recipe.
func TestRecipeStepsAreKnown(t *testing.T) {
	r := readRecipe(t)
	seen := map[stepKind]bool{}
	for _, line := range r.steps {
		command, _ := splitStep(line)
		kind := classifyStep(command)
		if kind == stepUnknown {
			t.Errorf("CONTRIBUTING.md's recipe line %q is none TestRecipe knows how to run: teach it (classifyStep)", line)
		}
		seen[kind] = true
	}
	for kind := stepQuiet; kind <= stepSpecdiff; kind++ {
		if !seen[kind] {
			t.Errorf("CONTRIBUTING.md's recipe has no %s line, which TestRecipe runs", stepNames[kind])
		}
	}
	if len(r.guards) == 0 {
		t.Error("CONTRIBUTING.md's recipe lists no guard message")
	}
}
