package main

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The types of another package of this module that the spec names with
// x-go-type (ids.RcID, ...) are read from that package's source: a defined
// type of a basic type decodes as that type, with the package's name in
// its Go source. Types of other modules decode through encoding/json.

// foreign is what decodegen knows of the packages the types file imports.
type foreign struct {
	dir     string            // the directory of the types file
	imports map[string]string // path by the name the file uses
	basics  map[string]string // basic type (int64, string, ...) by qualified type name, once read
	read    map[string]bool   // packages read, by name
	err     error             // the first package that could not be read
}

func newForeign(path string, f *ast.File) *foreign {
	fo := &foreign{dir: filepath.Dir(path), imports: map[string]string{}, basics: map[string]string{}, read: map[string]bool{}}
	for _, is := range f.Imports {
		p, _ := strconv.Unquote(is.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if is.Name != nil {
			name = is.Name.Name
		}
		fo.imports[name] = p
	}
	return fo
}

// basic returns the basic type a type of a package of this module is
// defined as, "" when it is none or the package is not this module's.
func (fo *foreign) basic(pkg, name string) string {
	if !fo.read[pkg] {
		fo.read[pkg] = true
		if err := fo.readPackage(pkg); err != nil && fo.err == nil {
			fo.err = fmt.Errorf("reading package %s: %w", fo.imports[pkg], err)
		}
	}
	return fo.basics[pkg+"."+name]
}

func (fo *foreign) readPackage(pkg string) error {
	dir, err := fo.packageDir(fo.imports[pkg])
	if err != nil || dir == "" {
		return err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		fo.addBasics(pkg, f)
	}
	return nil
}

func (fo *foreign) addBasics(pkg string, f *ast.File) {
	for _, decl := range f.Decls {
		d, ok := decl.(*ast.GenDecl)
		if !ok || d.Tok != token.TYPE {
			continue
		}
		for _, spec := range d.Specs {
			ts := spec.(*ast.TypeSpec)
			if id, ok := ts.Type.(*ast.Ident); ok && !ts.Assign.IsValid() && ts.TypeParams == nil {
				if _, basic := builtins[id.Name]; basic {
					fo.basics[pkg+"."+ts.Name.Name] = id.Name
				}
			}
		}
	}
}

// packageDir is the directory of the package at import path p when it is
// in the module that holds the types file, "" otherwise.
func (fo *foreign) packageDir(p string) (string, error) {
	root, module, err := moduleOf(fo.dir)
	if err != nil || root == "" {
		return "", err
	}
	rest, ok := strings.CutPrefix(p, module+"/")
	if !ok {
		return "", nil
	}
	return filepath.Join(root, filepath.FromSlash(rest)), nil
}

// moduleOf finds the go.mod above dir: the module's root and path.
func moduleOf(dir string) (root, module string, err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			return dir, modulePath(data), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", nil
		}
		dir = parent
	}
}

func modulePath(gomod []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// withImports adds to the import block of the Go source src the packages
// of fo that its code (not its comments) uses.
func (fo *foreign) withImports(src []byte) ([]byte, error) {
	if fo.err != nil {
		return nil, fo.err
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && fo.read[id.Name] {
				used[id.Name] = true
			}
		}
		return true
	})
	var lines []string
	for name := range used {
		p := fo.imports[name]
		if name == path.Base(p) {
			lines = append(lines, fmt.Sprintf("\t%q\n", p))
		} else {
			lines = append(lines, fmt.Sprintf("\t%s %q\n", name, p))
		}
	}
	if len(lines) == 0 {
		return src, nil
	}
	slices.Sort(lines)
	// into the last group of the import block, this module's (gofmt sorts it)
	start := bytes.Index(src, []byte("import (\n"))
	end := bytes.Index(src[start:], []byte("\n)\n"))
	if start < 0 || end < 0 {
		return nil, fmt.Errorf("no import block to add %s to", strings.Join(lines, ", "))
	}
	at := start + end + 1
	return slices.Concat(src[:at], []byte(strings.Join(lines, "")), src[at:]), nil
}
