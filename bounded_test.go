package scmgo_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// unboundedOK are the uses of context.Background or context.TODO in test
// files that wait on nothing, by file and function: a context handed to a
// call that returns at once, or the entry point of a test binary run as
// the command (bounded by the test that runs it).
var unboundedOK = map[string]string{
	"facade/helpers_test.go:Handle": "a log handler's Handle, which returns at once",
	"fake/bench_test.go:pageTable":  "httptest.NewRequestWithContext: a request served in process, no wait",
	"fake/jobs_bench_test.go:serve": "httptest.NewRequestWithContext: a request served in process, no wait",
	"cmd/scm/leak_test.go:TestMain": "scm run as a process by a test, which bounds it",
}

// Every test that can wait has a deadline: in every test file of the
// repository, context.Background and context.TODO appear only as the
// parent of context.WithTimeout or WithDeadline, in an Example (which has
// no t; each bounds its context), or where unboundedOK says why nothing
// waits. A test that waits on an unbounded context hangs the binary until
// go test's timeout instead of failing in seconds, naming what it waited
// for.
func TestEveryTestContextIsBounded(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || strings.HasPrefix(fn.Name.Name, "Example") {
				continue
			}
			for _, pos := range unbounded(fn.Body) {
				key := filepath.ToSlash(path) + ":" + fn.Name.Name
				if _, ok := unboundedOK[key]; !ok {
					t.Errorf("%s: %s uses a context without a deadline: give it one (context.WithTimeout(t.Context(), 10*time.Second)), or say in unboundedOK why nothing waits on it",
						fset.Position(pos), fn.Name.Name)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// unbounded returns where body calls context.Background or context.TODO
// other than as the first argument of context.WithTimeout or WithDeadline.
func unbounded(body *ast.BlockStmt) []token.Pos {
	bounded := map[ast.Node]bool{}
	var found []token.Pos
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if name := contextFunc(call); (name == "WithTimeout" || name == "WithDeadline") && len(call.Args) > 0 {
			bounded[call.Args[0]] = true
		}
		if name := contextFunc(call); (name == "Background" || name == "TODO") && !bounded[call] {
			found = append(found, call.Pos())
		}
		return true
	})
	return found
}

// contextFunc is the name of a function of package context that call
// calls, "" for any other call.
func contextFunc(call *ast.CallExpr) string {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "context" {
		return sel.Sel.Name
	}
	return ""
}
