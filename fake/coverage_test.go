package fake_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/scmodel/scmgo/gen"
)

// handlers maps each method of the fake's service (its handlers, named as
// the methods of genserver.StrictServerInterface) to the file declaring it. An
// operation without one is answered 501 by the generated fallback.
var handlers = sync.OnceValues(func() (map[string]string, error) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && receiverIs(fd, "service") {
				out[fd.Name.Name] = name
			}
		}
	}
	return out, nil
})

func receiverIs(fd *ast.FuncDecl, typeName string) bool {
	if fd.Recv == nil || len(fd.Recv.List) != 1 {
		return false
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	id, ok := typ.(*ast.Ident)
	return ok && id.Name == typeName
}

// handlerName is the name of the strict server's method for an operation.
func handlerName(op gen.Operation) string { return strings.ToUpper(op.ID[:1]) + op.ID[1:] }

// implemented reports whether the fake has a handler for op; when it has
// none, the message says what to add and where.
func implemented(t *testing.T, op gen.Operation) (bool, string) {
	t.Helper()
	byName, err := handlers()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := byName[handlerName(op)]; ok {
		return true, ""
	}
	return false, "the fake has no handler for " + op.ID + " (it answers 501): add a method " + handlerName(op) +
		" to service in fake/" + areaFile(op.Tag, byName)
}

// areaFile is the file holding most handlers of an area (a tag of the
// spec), where a new handler of the area belongs.
func areaFile(tag string, byName map[string]string) string {
	count := map[string]int{}
	best := ""
	for _, op := range gen.Operations() {
		if file, ok := byName[handlerName(op)]; ok && op.Tag == tag {
			if count[file]++; count[file] > count[best] {
				best = file
			}
		}
	}
	if best == "" {
		return "a new file of the area " + tag
	}
	return best
}

// areaCases names the function of the operation tests holding the cases of
// an area.
func areaCases(tag string) string {
	byTag := map[string]string{"Projects": "projectCases", "Scenarios": "scenarioCases", "Import": "importCases",
		"Experiments": "experimentCases", "Results": "resultCases", "Variations": "variationCases",
		"Last mile optimization": "lastMileCases", "User": "userCases"}
	if f, ok := byTag[tag]; ok {
		return f
	}
	return "a new map of operationCases"
}
