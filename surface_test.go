package scmgo

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
		{names: []string{"DefaultRunUnderWayMessages", "DefaultUserAgent"},
			why: "process-wide state any importer could write: the words are in WithRunUnderWayMessages' doc, the agent in WithUserAgent's"},
	},
	"limits": {},
}

// surfaceKept are names each package must still export: a test that
// parsed nothing would pass every rule.
var surfaceKept = map[string][]string{
	"gen":    {"DecodeAnswer", "SyntaxError", "ApiProjectResponse", "Client", "ClientWithResponses", "OperationID", "LookupOperation"},
	"extra":  {"Properties", "Properties.Get", "Properties.Set", "Get", "Of"},
	"facade": {"New", "Client", "Client.ResumeRunFromToken", "Run.ResumeToken", "ExperimentsService.Began", "ErrStartUnknown", "StepInfo", "RunState", "EndEvidence"},
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

// surfaceBounds are the most a name pattern of a public package may count:
// a poller is small, beside it its diagnostics (azcore's runtime.Poller is
// five methods), and each error a caller branches on is a decision (go-github
// has some six error types). Growing one is a choice made here, in review.
var surfaceBounds = []struct {
	dir   string
	match *regexp.Regexp
	max   int
	what  string
}{
	{"facade", regexp.MustCompile(`^Run\.`), 9, "methods of Run: diagnostics go to RunEvidence"},
	{"facade", regexp.MustCompile(`^Job\.`), 9, "methods of Job: it has Run's shape"},
	{"facade", regexp.MustCompile(`^Err[A-Z]`), 12, "sentinels: each a decision tabled in the package doc"},
	{"facade", regexp.MustCompile(`^[A-Z]\w*Error$`), 6, "error types: each a decision tabled in the package doc"},
}

// The public surface stays within its bounds.
func TestPublicSurfaceStaysSmall(t *testing.T) {
	for _, b := range surfaceBounds {
		var matched []string
		for _, name := range exportedNames(t, b.dir) {
			if b.match.MatchString(name) {
				matched = append(matched, name)
			}
		}
		assert.LessOrEqual(t, len(matched), b.max, "package %s: %s: %v", b.dir, b.what, matched)
		assert.NotEmpty(t, matched, "package %s: nothing matches %s", b.dir, b.match)
	}
}

// No public package of the module, nor the CLI, keeps a deprecated name:
// a v0 module removes a name it replaces (CHANGELOG.md says with what).
func TestNoDeprecatedNames(t *testing.T) {
	dirs := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "internal" || d.Name() == "testdata" || otherModule(path)) {
			return filepath.SkipDir
		}
		dirs++
		for _, name := range goSources(t, path) {
			src, err := os.ReadFile(filepath.Join(path, name))
			require.NoError(t, err)
			for i, line := range strings.Split(string(src), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "// Deprecated:") {
					t.Errorf("%s:%d: a deprecated name: remove it, and say with what in CHANGELOG.md", filepath.Join(path, name), i+1)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, dirs, 10, "the walk read the module's packages")
}

// otherModule reports a directory of another module than the root's, but
// the CLI's, which is walked too.
func otherModule(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "go.mod"))
	return err == nil && dir != filepath.Join("cmd", "scm")
}

// goSources are the Go files of dir that are not tests.
func goSources(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			names = append(names, e.Name())
		}
	}
	return names
}
