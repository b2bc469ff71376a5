package scmgo

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// surfaceRule names what must not come back into a public package: its
// name must be no exported name of the package (a type, function, variable
// or constant, or a method as Type.Method), and its match none either.
type surfaceRule struct {
	names []string
	match *regexp.Regexp
	why   string
}

// The public surface is what a user of the client calls. The fake's
// generated server lives in fake/internal/genserver, the decoder with
// options in internal/gendecode, the slab of the decoders in
// internal/properties, and the facade's plumbing shared with batch and
// dashboard in internal packages: none of it comes back.
var surfaceRules = map[string][]surfaceRule{
	"gen": {
		{match: regexp.MustCompile(`^Strict|^NewStrictHandler|RequestObject$|ResponseObject$|JSONResponse$|[Dd]efaultResponse$|^ServerInterface|^(Handler|HandlerFromMux|HandlerFromMuxWithBaseURL|HandlerWithOptions)$`),
			why: "the fake's server: fake/internal/genserver"},
		{names: []string{"NotImplementedError", "StdHTTPServerOptions", "MiddlewareFunc", "ServeMux"}, why: "the fake's server: fake/internal/genserver"},
		{names: []string{"DecodeAnswerWith", "DecodeJSON", "NewAnswer", "DecodeOptions"}, why: "decoder plumbing: internal/gendecode (gen.DecodeAnswer is the public entry)"},
	},
	"extra": {
		{names: []string{"Slab"}, why: "the decoders' allocation: internal/properties"},
	},
	"facade": {
		{names: []string{"RunOrigin", "ResumeRun", "Listable", "Run.Origin"}, why: "a start's evidence: Run.ResumeToken and Client.ResumeRunFromToken"},
		{names: []string{"Client.StartStep"}, why: "the step hook of dashboard and batch: internal/steps"},
		{names: []string{"DriftLogMessage", "DriftLimitMessage"}, why: "the messages scm filters its log by: internal/logmsg"},
	},
	"limits": {},
}

// surfaceKept are names each package must still export: a test that
// parsed nothing would pass every rule.
var surfaceKept = map[string][]string{
	"gen":   {"DecodeAnswer", "SyntaxError", "ApiProjectResponse", "Client", "ClientWithResponses", "OperationID", "LookupOperation"},
	"extra": {"Properties", "Properties.Get", "Properties.Set", "Get", "Of"},
	"facade": {"New", "Client", "Client.ResumeRunFromToken", "Run.ResumeToken", "ExperimentsService.Began", "ErrStartUnknown", "StepInfo", "RunState", "EndEvidence",
		"LimitError", "ErrLimit"}, // aliases of limits.Error and limits.ErrLimit, kept for the code that names them
	"limits": {"Error", "ErrLimit", "Error.Is"},
}

// The exported names of gen, extra and facade include none of the
// plumbing moved to internal packages, and still the API users call.
func TestPublicSurfaceHoldsNoPlumbing(t *testing.T) {
	for dir, rules := range surfaceRules {
		t.Run(dir, func(t *testing.T) {
			names := exportedNames(t, dir)
			for _, want := range surfaceKept[dir] {
				if !slices.Contains(names, want) {
					t.Errorf("package %s no longer exports %s", dir, want)
				}
			}
			for _, name := range names {
				for _, r := range rules {
					if surfaceForbids(r, name) {
						t.Errorf("package %s exports %s, which belongs in an internal package (%s)", dir, name, r.why)
					}
				}
			}
		})
	}
}

// surfaceForbids reports whether name, or its method part, breaks r.
func surfaceForbids(r surfaceRule, name string) bool {
	last := name[strings.LastIndex(name, ".")+1:]
	if slices.Contains(r.names, name) || slices.Contains(r.names, last) {
		return true
	}
	return r.match != nil && (r.match.MatchString(name) || r.match.MatchString(last))
}

// exportedNames returns the exported names the Go files of dir's package
// declare (test files aside, build constraints applied as go build applies
// them): types, functions, variables, constants, and the exported methods
// of exported types as Type.Method.
func exportedNames(t *testing.T, dir string) []string {
	t.Helper()
	pkg, err := build.ImportDir(dir, 0)
	if err != nil {
		t.Fatalf("reading package %s: %v", dir, err)
	}
	fset := token.NewFileSet()
	var names []string
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("reading package %s: %v", dir, err)
		}
		for _, decl := range f.Decls {
			names = append(names, declaredNames(decl)...)
		}
	}
	if len(names) == 0 {
		t.Fatalf("package %s: no exported names found in %s", dir, dir)
	}
	slices.Sort(names)
	return names
}

// declaredNames returns the exported names decl declares.
func declaredNames(decl ast.Decl) []string {
	var names []string
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if recv := receiverName(d); recv == "" {
			names = append(names, d.Name.Name)
		} else if ast.IsExported(recv) {
			names = append(names, recv+"."+d.Name.Name)
		}
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
	}
	return slices.DeleteFunc(names, func(n string) bool {
		return !ast.IsExported(n[strings.LastIndex(n, ".")+1:])
	})
}

// receiverName is the type name of d's receiver, "" for a function.
func receiverName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	typ := d.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch x := typ.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return identName(x.X)
	case *ast.IndexListExpr:
		return identName(x.X)
	}
	return ""
}

func identName(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
