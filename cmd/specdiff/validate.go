package main

import (
	"fmt"

	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"

	"github.com/scmodel/scmgo/internal/spec"
)

func runValidate(e env, args []string) int {
	var c common
	fs := newFlagSet(e, "specdiff validate", &c)
	quiet := fs.Bool("q", false, "print nothing when the spec has no problem (make generate runs it so)")
	rest, code, ok := parseFlags(e, fs, &c, args)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(e.stderr, "specdiff: unexpected argument %q; see specdiff -h\n", rest[0])
		return exitError
	}
	d, err := specdoc.Read(c.spec)
	if err != nil {
		return fail(e, err)
	}
	problems, err := spec.CheckData(d.Name, d.Data)
	if err != nil {
		return fail(e, err)
	}
	var findings []report.Finding
	for _, p := range problems {
		findings = append(findings, report.New(report.SpecKindPrefix+p.Rule, p.Where, p.Message, report.Location{File: d.File, Line: p.Line}))
	}
	if *quiet && len(findings) == 0 {
		return exitClean
	}
	report.Sort(findings)
	rep := report.Report{Command: "validate", Spec: d.Name, Unit: "spec", Noun: "problem", Results: []report.Result{{
		Source: "kin-openapi and spec rules", Format: "openapi", Operations: countOperations(d), Findings: findings,
	}}}
	return write(e, c.output, rep)
}

// countOperations counts the operations written in a spec document.
func countOperations(d specdoc.Document) int {
	top, err := spec.ParseYAML(d.Name, d.Data)
	if err != nil {
		return 0
	}
	return len(spec.OperationLines(top))
}
