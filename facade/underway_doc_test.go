package facade

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The words always matched as a run under way are unexported: the doc of
// WithRunUnderWayMessages lists every one of them, quoted.
func TestUnderWayWordsAreDocumented(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "underway.go", nil, parser.ParseComments)
	require.NoError(t, err)
	var doc string
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Name.Name == "WithRunUnderWayMessages" {
			doc = strings.Join(strings.Fields(fn.Doc.Text()), " ")
		}
	}
	require.NotEmpty(t, doc, "WithRunUnderWayMessages has a doc")
	for _, word := range runUnderWayMessages {
		assert.Contains(t, doc, `"`+word+`"`)
	}
}
