package facadetags

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// operationTag is the directive that names the operation a facade method calls.
const operationTag = "//scm:operation"

// tag is one //scm:operation line of a method's doc comment.
type tag struct {
	operation string
	method    string // (*Client).Scenarios
	at        report.Location
}

// facadeTags reads the tags of the Go files (tests excluded) in dir. Tag
// lines outside a method's doc comment, and malformed ones, come back as
// facade-stray findings.
func facadeTags(dir string, maxBytes int64) ([]tag, []report.Finding, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(files)
	var tags []tag
	var strays []report.Finding
	fset := token.NewFileSet()
	parsed := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := fetch.ReadFile(name, maxBytes)
		if err != nil {
			return nil, nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		parsed++
		t, s := fileTags(fset, f)
		tags, strays = append(tags, t...), append(strays, s...)
	}
	if parsed == 0 {
		return nil, nil, fmt.Errorf("facade: no Go files in %s", dir)
	}
	return tags, strays, nil
}

func fileTags(fset *token.FileSet, f *ast.File) ([]tag, []report.Finding) {
	var tags []tag
	var strays []report.Finding
	docs := map[*ast.CommentGroup]*ast.FuncDecl{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Doc != nil {
			docs[fd.Doc] = fd
		}
	}
	for _, group := range f.Comments {
		for _, c := range group.List {
			if !tagLike.MatchString(c.Text) {
				continue
			}
			at := report.Location{File: fset.Position(c.Pos()).Filename, Line: fset.Position(c.Pos()).Line}
			t, problem := readTag(docs[group], c.Text)
			if problem != "" {
				strays = append(strays, report.New("facade-stray", strayName(c.Text), problem+": "+strings.TrimSpace(c.Text), at))
				continue
			}
			t.at = at
			tags = append(tags, t)
		}
	}
	return tags, strays
}

// tagLike matches a comment line that is meant as a tag: it starts with
// scm:operation, with or without a space after //. Prose that mentions the
// tag mid-line is not a tag.
var tagLike = regexp.MustCompile(`^//\s*scm:operation\b`)

var taggedName = regexp.MustCompile(`scm:operation\s+([A-Za-z_][A-Za-z0-9_]*)`)

// strayName is the operation a stray line names, or the line itself.
func strayName(text string) string {
	if m := taggedName.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return strings.TrimSpace(text)
}

// readTag reads one comment line of fd's doc comment (fd is nil for a
// comment that documents no function); problem says what is wrong with it.
func readTag(fd *ast.FuncDecl, text string) (tag, string) {
	rest, ok := strings.CutPrefix(text, operationTag+" ")
	fields := strings.Fields(rest)
	switch {
	case !ok || len(fields) != 1 || !listing.IsOperationName(fields[0]):
		return tag{}, "want a line //scm:operation <operationId>"
	case fd == nil:
		return tag{}, "not in the doc comment of a method"
	case fd.Recv == nil || len(fd.Recv.List) == 0:
		return tag{}, fmt.Sprintf("on function %s, which is not a method", fd.Name.Name)
	}
	return tag{operation: fields[0], method: methodName(fd)}, ""
}

// methodName is "(*Client).Scenarios" or "Client.Scenarios".
func methodName(fd *ast.FuncDecl) string {
	recv := fd.Recv.List[0].Type
	if idx, ok := recv.(*ast.IndexExpr); ok {
		recv = idx.X
	}
	if star, ok := recv.(*ast.StarExpr); ok {
		return "(*" + typeIdent(star.X) + ")." + fd.Name.Name
	}
	return typeIdent(recv) + "." + fd.Name.Name
}

func typeIdent(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return typeIdent(t.X)
	case *ast.IndexListExpr:
		return typeIdent(t.X)
	}
	return "?"
}

// checkFacade reports spec operations without exactly one tagged method,
// and tags that name no spec operationId. An operation a stray or
// snake_case tag names is not also reported as facade-missing.
func checkFacade(s *specdoc.Spec, tags []tag, strays []report.Finding) []report.Finding {
	var out []report.Finding
	byOp := map[int][]tag{}
	reported := map[int]bool{} // by a stray or snake_case tag: not reported again as facade-missing
	for _, f := range strays {
		if i, ok := s.Index(f.Operation); ok {
			reported[i] = true
		}
	}
	for _, t := range tags {
		i, ok := s.Index(t.operation)
		switch {
		case !ok:
			out = append(out, report.New("facade-unknown", t.operation, t.method+" names no spec operation", t.at))
		case s.Ops[i].ID != t.operation:
			reported[i] = true
			out = append(out, report.New("facade-unknown", t.operation,
				fmt.Sprintf("%s names the snake_case name; the tag takes the operationId %s", t.method, s.Ops[i].ID), t.at))
		default:
			byOp[i] = append(byOp[i], t)
		}
	}
	for i, op := range s.Ops {
		switch ts := byOp[i]; {
		case len(ts) == 0 && reported[i]:
		case len(ts) == 0:
			out = append(out, report.New("facade-missing", op.ID, "no facade method is tagged "+operationTag+" "+op.ID, s.At(i)))
		case len(ts) > 1:
			out = append(out, report.New("facade-duplicate", op.ID, "tagged on "+tagList(ts), ts[1].at))
		}
	}
	return out
}

func tagList(ts []tag) string {
	var parts []string
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%s (%s:%d)", t.method, t.at.File, t.at.Line))
	}
	return strings.Join(parts, ", ")
}

// Check is specdiff facade: it reads the //scm:operation tags of the Go
// files of dir and checks them against the spec the -spec flag names (the
// embedded one when it is empty). The report's one result counts the
// tagged methods. Each file, the spec and the Go files, is read within
// maxBytes (-max-input-bytes; zero means fetch.DefaultMaxSize).
func Check(specFlag, dir string, maxBytes int64) (report.Report, error) {
	s, err := specdoc.Load(specFlag, maxBytes)
	if err != nil {
		return report.Report{}, err
	}
	tags, findings, err := facadeTags(dir, maxBytes)
	if err != nil {
		return report.Report{}, err
	}
	findings = append(findings, checkFacade(s, tags, findings)...)
	report.Sort(findings)
	return report.Report{Command: "facade", Spec: s.Name, Unit: "facade package", Counted: "tagged method", Results: []report.Result{{
		Source: dir, Format: "go", Operations: len(tags), Findings: findings,
	}}}, nil
}
