package facade

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	operationTag = "//scm:operation "
	pagesTag     = "//scm:pages "
	helperTag    = "//scm:helper"
)

// taggedMethods walks the package sources and returns, per operation, the
// area methods tagged //scm:operation with it, and the page-level methods of
// paged operations tagged //scm:pages. It fails the test for an exported
// area method that carries none of the tags as the last line of its doc
// comment.
func taggedMethods(t *testing.T) (byOp, pagesByOp map[string][]string) {
	t.Helper()
	byOp, pagesByOp, untagged, err := scanTags(".")
	require.NoError(t, err)
	for _, problem := range untagged {
		t.Error(problem)
	}
	return byOp, pagesByOp
}

// scanTags reads the area methods of the Go files in dir (tests aside) and
// sorts them by the tag their doc comment ends with; untagged lists the
// methods without one.
func scanTags(dir string) (byOp, pagesByOp map[string][]string, untagged []string, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, nil, err
	}
	byOp, pagesByOp = map[string][]string{}, map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			recv := receiverName(fd)
			if !ok || !strings.HasSuffix(recv, "Service") || !fd.Name.IsExported() {
				continue
			}
			method := recv + "." + fd.Name.Name
			last := ""
			if fd.Doc != nil {
				last = fd.Doc.List[len(fd.Doc.List)-1].Text
			}
			switch {
			case strings.HasPrefix(last, operationTag):
				op := strings.TrimPrefix(last, operationTag)
				byOp[op] = append(byOp[op], method)
			case strings.HasPrefix(last, pagesTag):
				op := strings.TrimPrefix(last, pagesTag)
				pagesByOp[op] = append(pagesByOp[op], method)
			case last == helperTag:
			default:
				untagged = append(untagged, fmt.Sprintf("%s (%s): doc comment does not end with %q<operationId>, %q<operationId> or %q",
					method, fset.Position(fd.Pos()), operationTag, pagesTag, helperTag))
			}
		}
	}
	return byOp, pagesByOp, untagged, nil
}

func receiverName(fd *ast.FuncDecl) string {
	if fd == nil || fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// TestEveryOperationHasAMethod fails when an operation of the spec has no
// facade method or more than one, when a tag names an operation the spec
// does not have, or when a paged operation lacks its page-level method (the
// item iterator carries //scm:operation, the page iterator //scm:pages).
//
// The operations are the spec's (gen.Operations, regenerated from it), and a
// missing method is one short message saying what to add and where.
func TestEveryOperationHasAMethod(t *testing.T) {
	byOp, pagesByOp := taggedMethods(t)
	for _, op := range gen.Operations() {
		switch methods := byOp[op.ID]; len(methods) {
		case 0:
			t.Errorf("%s (%s %s) has no facade method: add one to %s whose doc comment ends with %s%s",
				op.ID, op.Method, op.Path, methodHome(op, byOp), operationTag, op.ID)
			continue
		case 1:
		default:
			t.Errorf("%s has %d facade methods, %v: tag one only with %s%s", op.ID, len(methods), methods, operationTag, op.ID)
		}
		switch pages := pagesByOp[op.ID]; {
		case op.Paged && len(pages) == 0:
			t.Errorf("%s is paged but has no page-level method: add one beside %s whose doc comment ends with %s%s",
				op.ID, byOp[op.ID][0], pagesTag, op.ID)
		case len(pages) > 1 || len(pages) == 1 && !op.Paged:
			t.Errorf("%s: page-level methods %v, want one for a paged operation, none otherwise", op.ID, pages)
		}
	}
	for _, tagged := range []map[string][]string{byOp, pagesByOp} {
		for op, methods := range tagged {
			_, ok := gen.LookupOperation(op)
			assert.True(t, ok && !strings.Contains(op, "_"), "methods %v are tagged with unknown operation %q", methods, op)
		}
	}
}

// TestScanTagsFindsUntagged proves the walker reports an untagged method,
// so the coverage test can fail.
func TestScanTagsFindsUntagged(t *testing.T) {
	dir := t.TempDir()
	src := "package facade\n\ntype XService struct{}\n\n// Do does.\nfunc (s *XService) Do() {}\n\n// Get gets.\n//\n//scm:operation getX\nfunc (s *XService) Get() {}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.go"), []byte(src), 0o600))
	byOp, _, untagged, err := scanTags(dir)
	require.NoError(t, err)
	require.Len(t, untagged, 1)
	assert.Contains(t, untagged[0], "XService.Do")
	assert.Equal(t, map[string][]string{"getX": {"XService.Get"}}, byOp)
}
