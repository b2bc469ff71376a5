package facade

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// TestOperationsNamedByConstant fails when a source file of the package
// (tests aside) spells an operation's name as a string literal instead of
// its gen.Op constant. A literal compiles wherever a gen.OperationID is
// expected, so only this check stops a mistyped or wrong one.
func TestOperationsNamedByConstant(t *testing.T) {
	found, err := operationLiterals(".")
	require.NoError(t, err)
	assert.Empty(t, found, "name these operations by their gen.Op constants")
}

// TestOperationLiteralsFindsOne proves the walker reports a literal
// operation name, and only that, so the check above can fail.
func TestOperationLiteralsFindsOne(t *testing.T) {
	dir := t.TempDir()
	src := "package facade\n\n// getScenarios in a comment is prose.\nvar a = \"projectId\"\n\nfunc f() { newCall(\"getScenarios\", nil) }\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x_test.go"), []byte("package facade\n\nvar b = \"getScenarios\"\n"), 0o600))
	found, err := operationLiterals(dir)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, "x.go") + `:6: "getScenarios"`}, found)
}

// operationLiterals lists, as file:line: "name", the string literals in the
// Go files of dir (tests aside) that are an operation's camelCase or
// snake_case name.
func operationLiterals(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var found []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil {
				if _, isOp := gen.LookupOperation(s); isOp {
					found = append(found, fmt.Sprintf("%s:%d: %s", name, fset.Position(lit.Pos()).Line, lit.Value))
				}
			}
			return true
		})
	}
	return found, nil
}
