package main

import (
	"fmt"

	"github.com/scmodel/scmgo/internal/spec"
)

func runValidate(e env, args []string) int {
	var c common
	fs := newFlagSet(e, "specdiff validate", &c)
	rest, code, ok := parseFlags(e, fs, &c, args)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		fmt.Fprintf(e.stderr, "specdiff: unexpected argument %q; see specdiff -h\n", rest[0])
		return exitError
	}
	problems, err := spec.Check(c.spec)
	if err != nil {
		return fail(e, err)
	}
	var findings []Finding
	for _, p := range problems {
		findings = append(findings, newFinding(specKindPrefix+p.Rule, p.Where, p.Message, location{file: c.spec, line: p.Line}))
	}
	sortFindings(findings)
	rep := Report{Command: "validate", Spec: c.spec, Unit: "spec", Noun: "problem", Results: []Result{{
		Source: "kin-openapi and spec rules", Format: "openapi", Operations: countOperations(c.spec), Findings: findings,
	}}}
	return write(e, c.output, rep)
}

// countOperations counts the operations written in the file at path.
func countOperations(path string) int {
	_, top, err := spec.ReadYAML(path)
	if err != nil {
		return 0
	}
	return len(spec.OperationLines(top))
}
