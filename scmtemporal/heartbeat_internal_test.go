package scmtemporal

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Every heartbeat of an attempt goes through its beater: a heartbeat
// recorded past it may come after the attempt's last details and hide
// them from the retry (a refused import's "not sent", overwritten by the
// mark the beater sent late, stopped the item as unknown). Nothing but the
// beater's methods calls activity.RecordHeartbeat.
func TestOnlyTheBeaterRecordsHeartbeats(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || isBeaterMethod(fn) {
				continue
			}
			ast.Inspect(fn, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && isRecordHeartbeat(call.Fun) {
					t.Errorf("%s: %s calls activity.RecordHeartbeat: record heartbeats through the attempt's beater", fset.Position(call.Pos()), fn.Name.Name)
				}
				return true
			})
		}
	}
}

func isBeaterMethod(fn *ast.FuncDecl) bool {
	if fn.Recv == nil || len(fn.Recv.List) != 1 {
		return false
	}
	star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := star.X.(*ast.Ident)
	return ok && id.Name == "beater"
}

func isRecordHeartbeat(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "RecordHeartbeat" {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "activity"
}
