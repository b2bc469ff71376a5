package facade

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// methodHome says where the facade method of op belongs, for the message of
// a missing one: the service holding most methods of op's area (its tag),
// and the file declaring that service.
func methodHome(op gen.Operation, byOp map[string][]string) string {
	count := map[string]int{}
	best := ""
	for _, other := range gen.Operations() {
		if other.Tag != op.Tag {
			continue
		}
		for _, m := range byOp[other.ID] {
			recv, _, _ := strings.Cut(m, ".")
			if count[recv]++; count[recv] > count[best] {
				best = recv
			}
		}
	}
	if best == "" {
		return fmt.Sprintf("a service of its own for the area %q (a new file in facade/ and a field of Client)", op.Tag)
	}
	if file := typeFile(".", best); file != "" {
		return fmt.Sprintf("%s in facade/%s", best, file)
	}
	return best
}

// typeFile names the Go file of dir (tests aside) that declares the type.
func typeFile(dir, typeName string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, s := range gd.Specs {
					if s.(*ast.TypeSpec).Name.Name == typeName {
						return filepath.Base(name)
					}
				}
			}
		}
	}
	return ""
}

// areaCases names the function of operations_cases_test.go holding the
// cases of an area (a tag of the spec).
func areaCases(tag string) string {
	byTag := map[string]string{"Projects": "projectCases", "Scenarios": "scenarioCases", "Import": "importCases",
		"Experiments": "experimentCases", "Results": "resultCases", "Variations": "variationCases",
		"Last mile optimization": "lastMileCases", "User": "userCases"}
	if f, ok := byTag[tag]; ok {
		return f
	}
	return "a new map of operationCases"
}

// opConstant is the name of the gen.OperationID constant of an operation.
func opConstant(id string) string { return "Op" + strings.ToUpper(id[:1]) + id[1:] }
