package specdoc

import (
	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// Validate is specdiff validate: it checks the spec the -spec flag names
// (the embedded one when it is empty) with kin-openapi and
// internal/spec.CheckData's rules, and reports each problem as a finding
// of kind spec-<rule> at the line to change. The report's one result
// counts the spec's operations. The spec is read within maxBytes (see
// [Read]).
func Validate(flagValue string, maxBytes int64) (report.Report, error) {
	d, err := Read(flagValue, maxBytes)
	if err != nil {
		return report.Report{}, err
	}
	problems, err := spec.CheckData(d.Name, d.Data)
	if err != nil {
		return report.Report{}, err
	}
	var findings []report.Finding
	for _, p := range problems {
		findings = append(findings, report.New(report.SpecKindPrefix+p.Rule, p.Where, p.Message, report.Location{File: d.File, Line: p.Line}))
	}
	report.Sort(findings)
	return report.Report{Command: "validate", Spec: d.Name, Unit: "spec", Noun: "problem", Results: []report.Result{{
		Source: "kin-openapi and spec rules", Format: "openapi", Operations: countOperations(d), Findings: findings,
	}}}, nil
}

// countOperations counts the operations written in a spec document.
func countOperations(d Document) int {
	top, err := spec.ParseYAML(d.Name, d.Data)
	if err != nil {
		return 0
	}
	return len(spec.OperationLines(top))
}
