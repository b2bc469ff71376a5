// Package facadetags is specdiff facade: it checks that every operation of
// the spec has exactly one method of the facade package whose doc comment
// has a line //scm:operation <operationId>, and that every such line names
// a spec operation.
//
// # Findings
//
// [Check] parses the package's Go files (tests excluded) with go/parser
// and reports facade-missing (an operation without a tagged method),
// facade-duplicate (one tagged on several), facade-unknown (a tag that
// names no operationId, or the snake_case name) and facade-stray (a tag
// line outside a method's doc comment, or malformed). An operation a stray
// or snake_case tag names is not reported again as missing.
package facadetags
