package csvsafe_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The module and scm write CSV through this package alone: no other
// source file (tests aside) makes an encoding/csv Writer, nor doubles
// quotes into a field as a hand-made CSV writer does. A new CSV output
// that bypasses the writer, and with it the neutralising of formulas,
// fails here.
func TestNoOtherCSVWriter(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	self, err := filepath.Abs(".")
	require.NoError(t, err)
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (path == self || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"):
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		files++
		for _, found := range csvWriting(t, path) {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s:%s: write CSV through internal/csvsafe, which neutralises formulas", rel, found)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 300, "the source files of the module and scm")
}

// csvWriting lists what in the file at path writes CSV other than
// through csvsafe: a use of encoding/csv's Writer, or a literal "" (a
// quote doubled).
func csvWriting(t *testing.T, path string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	require.NoError(t, err)
	csvName := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "encoding/csv" {
			csvName = "csv"
			if imp.Name != nil {
				csvName = imp.Name.Name
			}
		}
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && csvName != "" && id.Name == csvName && (x.Sel.Name == "NewWriter" || x.Sel.Name == "Writer") {
				found = append(found, strconv.Itoa(fset.Position(x.Pos()).Line)+": encoding/csv's "+x.Sel.Name)
			}
		case *ast.BasicLit:
			if v, err := strconv.Unquote(x.Value); x.Kind == token.STRING && err == nil && v == `""` {
				found = append(found, strconv.Itoa(fset.Position(x.Pos()).Line)+`: a quote doubled ("")`)
			}
		}
		return true
	})
	return found
}
