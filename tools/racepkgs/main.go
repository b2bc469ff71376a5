package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

func main() {
	race := flag.Bool("race", false, "print the packages whose tests run under the race detector")
	plain := flag.Bool("plain", false, "print the packages whose tests run without it")
	flag.Parse()
	if *race == *plain {
		fmt.Fprintln(os.Stderr, "racepkgs: give exactly one of -race and -plain")
		os.Exit(2)
	}
	patterns := flag.Args()
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	pkgs, err := list(patterns)
	if err != nil {
		fmt.Fprintln(os.Stderr, "racepkgs:", err)
		os.Exit(1)
	}
	for _, p := range pkgs {
		concurrent, err := startsGoroutines(p.dir, p.files)
		if err != nil {
			fmt.Fprintln(os.Stderr, "racepkgs:", err)
			os.Exit(1)
		}
		if concurrent == *race {
			fmt.Println(p.path)
		}
	}
}

// pkg is a package as go list gives it: its import path, directory and
// non-test Go files.
type pkg struct {
	path, dir string
	files     []string
}

func list(patterns []string) ([]pkg, error) {
	args := append([]string{"list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \",\"}}{{if .CgoFiles}},{{join .CgoFiles \",\"}}{{end}}"}, patterns...)
	var stderr bytes.Buffer
	cmd := exec.Command("go", args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.String())
	}
	var pkgs []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 3 {
			return nil, fmt.Errorf("go list printed %q", sc.Text())
		}
		p := pkg{path: fields[0], dir: fields[1]}
		if fields[2] != "" {
			p.files = strings.Split(fields[2], ",")
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, sc.Err()
}

// syncImports are the imports that share memory between goroutines.
var syncImports = map[string]bool{"sync": true, "sync/atomic": true, "golang.org/x/sync/errgroup": true}

// startsGoroutines reports whether any of the files has a go statement or
// imports one of syncImports.
func startsGoroutines(dir string, files []string) (bool, error) {
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return false, err
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); syncImports[path] {
				return true, nil
			}
		}
		found := false
		ast.Inspect(f, func(n ast.Node) bool {
			if _, ok := n.(*ast.GoStmt); ok {
				found = true
			}
			return !found
		})
		if found {
			return true, nil
		}
	}
	return false, nil
}
