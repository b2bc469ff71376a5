package docsnippets

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// root is the repository, from this package's directory.
const root = "../.."

// snippet is a Go snippet of the documentation and where it is.
type snippet struct {
	where string // file:line
	lines []string
}

// skipped are the directories the snippets and examples are not looked
// for in: the facade's snippets are its own tests' business, gen is
// generated, and tools and dependencies are not ours.
var skipped = map[string]bool{".git": true, ".tools": true, "node_modules": true, "gen": true, "facade": true}

// markdownFiles are the documents whose snippets are kept running: the
// README, CONTRIBUTING.md and the guides under docs/, relative to root.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	guides, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md", "CONTRIBUTING.md"}
	for _, g := range guides {
		files = append(files, rel(g))
	}
	return files
}

// markdownSnippets are the ```go blocks of the documents.
func markdownSnippets(t *testing.T) []snippet {
	t.Helper()
	var out []snippet
	for _, name := range markdownFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatchIndex(b, -1) {
			line := 1 + strings.Count(string(b[:m[2]]), "\n")
			out = append(out, snippet{where: name + ":" + strconv.Itoa(line), lines: strings.Split(strings.TrimRight(string(b[m[2]:m[3]]), "\n"), "\n")})
		}
	}
	return out
}

// docSnippets are the Go blocks of the doc.go files: runs of comment lines
// indented with a tab that parse as Go statements or declarations and call
// or declare something (a plan in YAML or a table does not parse).
func docSnippets(t *testing.T) []snippet {
	t.Helper()
	var out []snippet
	walkGo(t, func(path string) {
		if filepath.Base(path) != "doc.go" {
			return
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range indentedBlocks(rel(path), string(b)) {
			if isGo(s.lines) {
				out = append(out, s)
			}
		}
	})
	return out
}

// indentedBlocks returns the runs of "//\t" lines of a file, without the
// comment marker and tab.
func indentedBlocks(name, src string) []snippet {
	var out []snippet
	var cur *snippet
	for i, line := range strings.Split(src, "\n") {
		code, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			cur = nil
			continue
		}
		if cur == nil {
			out = append(out, snippet{where: name + ":" + strconv.Itoa(i+1)})
			cur = &out[len(out)-1]
		}
		cur.lines = append(cur.lines, code)
	}
	return out
}

func isGo(lines []string) bool {
	code := strings.Join(lines, "\n")
	if !strings.Contains(code, ":=") && !strings.Contains(code, "(") {
		return false
	}
	fset := token.NewFileSet()
	_, errStmt := parser.ParseFile(fset, "", "package p\nfunc _() {\n"+code+"\n}\n", 0)
	_, errDecl := parser.ParseFile(fset, "", "package p\n"+code+"\n", 0)
	return errStmt == nil || errDecl == nil
}

// exampleCode is the body of every Example function of the repository's
// tests that has an Output comment, so that go test runs it.
func exampleCode(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	walkGo(t, func(path string) {
		if !strings.HasSuffix(path, "_test.go") {
			return
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := os.ReadFile(path)
		for _, ex := range doc.Examples(f) {
			body := funcBody(f, "Example"+ex.Name)
			if body == nil || ex.Output == "" && !ex.EmptyOutput {
				continue
			}
			text := string(src[fset.Position(body.Lbrace).Offset+1 : fset.Position(body.Rbrace).Offset])
			out[rel(path)+": Example"+ex.Name] = strings.Split(text, "\n")
		}
	})
	return out
}

// funcBody is the body of the file's function of that name, nil when
// there is none.
func funcBody(f *ast.File, name string) *ast.BlockStmt {
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == name {
			return fn.Body
		}
	}
	return nil
}

// The Go snippets of the README, CONTRIBUTING.md, docs/*.md and the doc.go
// files (outside facade, whose own tests guard its snippets) are each the
// code of an Example that runs: a snippet that does not compile or whose
// output changed fails go test there, and one that is not an example fails
// here.
func TestEverySnippetIsARunningExample(t *testing.T) {
	examples := exampleCode(t)
	snippets := append(markdownSnippets(t), docSnippets(t)...)
	seen := map[string]bool{}
	for _, s := range snippets {
		seen[strings.Split(s.where, ":")[0]] = true
		if name := findIn(examples, s.lines); name != "" {
			t.Logf("%s is %s", s.where, name)
			continue
		}
		if strings.HasPrefix(s.where, "README.md") && isReport(s.lines) {
			continue // facade's TestReadmeSnippetIsExampleReport compares it with its Example_report
		}
		t.Errorf("%s: this Go snippet is the code of no Example with an Output comment; make it one:\n%s", s.where, strings.Join(s.lines, "\n"))
	}
	for _, want := range []string{"README.md", "docs/fake.md", "docs/telemetry.md", "fake/doc.go", "batch/doc.go"} {
		if !seen[want] {
			t.Errorf("no Go snippet found in %s: the extraction is broken", want)
		}
	}
}

// isReport recognises the README's first snippet, report, as facade's
// TestReadmeSnippetIsExampleReport finds it: a block that starts with
// "// report ".
func isReport(lines []string) bool {
	return len(lines) > 0 && strings.HasPrefix(lines[0], "// report ")
}

// findIn returns the example whose code holds the lines, compared without
// their indentation, in one run; "" when none does.
func findIn(examples map[string][]string, lines []string) string {
	want := trimmed(lines)
	for name, code := range examples {
		have := trimmed(code)
		for i := 0; i+len(want) <= len(have); i++ {
			if equal(have[i:i+len(want)], want) {
				return name
			}
		}
	}
	return ""
}

func trimmed(lines []string) []string {
	var out []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// walkGo calls fn for every .go file of the repository but the skipped
// directories.
func walkGo(t *testing.T, fn func(path string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (skipped[d.Name()] && filepath.Dir(path) == root || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			fn(path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func rel(path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// transcriptRunners are how the first line of a transcript (a code block
// whose first line starts with "$ ") may begin, and the test that replays
// it: a transcript is real output, so none may go unreplayed.
var transcriptRunners = map[string]string{
	"$ scm ":                  "cmd/scm TestDocTranscriptsAreWhatScmPrints",
	"$ go run ./cmd/specdiff": "cmd/specdiff TestDocTranscriptsAreWhatSpecdiffPrints",
}

// Every transcript of the documents is one a test replays: it starts with
// a command of scm or of specdiff. Other commands belong in a sh block
// without "$ ", which shows what to type and claims no output.
func TestEveryTranscriptIsReplayed(t *testing.T) {
	found := 0
	for _, name := range markdownFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile("(?m)^```[a-z]*\n(\\$ .*)$").FindAllSubmatchIndex(b, -1) {
			first := string(b[m[2]:m[3]])
			line := 1 + strings.Count(string(b[:m[2]]), "\n")
			runner := ""
			for prefix, test := range transcriptRunners {
				if strings.HasPrefix(first, prefix) {
					runner = test
				}
			}
			if runner == "" {
				t.Errorf("%s:%d: %q starts a transcript no test replays: start it with $ scm or $ go run ./cmd/specdiff, or drop the $ and show no output", name, line, first)
				continue
			}
			found++
			t.Logf("%s:%d is replayed by %s", name, line, runner)
		}
	}
	if found == 0 {
		t.Error("no transcript found in the documents: the extraction is broken")
	}
}
