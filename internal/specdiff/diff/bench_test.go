package diff

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// listingOf builds a plain listing of n operations: the spec's operations
// in both styles with their routes, then names and routes the spec lacks,
// half of them on routes the spec has.
func listingOf(s *specdoc.Spec, n int) []byte {
	var b strings.Builder
	for i := range n {
		op := s.Ops[i%len(s.Ops)]
		switch {
		case i < len(s.Ops):
			fmt.Fprintf(&b, "%s %s /api/v1%s\n", op.ID, op.Method, op.Path)
		case i%2 == 0:
			fmt.Fprintf(&b, "published_operation_%d %s %s\n", i, op.Method, op.Path)
		default:
			fmt.Fprintf(&b, "publishedOperation%d GET /open/generated/%d\n", i, i)
		}
	}
	return []byte(b.String())
}

// diffOnce parses, diffs and renders a listing as text.
func diffOnce(b *testing.B, s *specdoc.Spec, data []byte) {
	l, err := listing.Parse("bench.txt", "", data, listing.FormatAuto)
	if err != nil {
		b.Fatal(err)
	}
	findings, err := Listing(s, l)
	if err != nil {
		b.Fatal(err)
	}
	rep := report.Report{Command: "diff", Spec: s.Name, Unit: "listing", Results: []report.Result{{
		Source: l.Source, Format: l.Format, Operations: len(l.Entries), Findings: findings,
	}}}
	if err := report.Write(io.Discard, "text", rep); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkDiff10000 diffs a 10,000-operation listing. The target is one
// second per diff: budget-fraction is ns/op over 1s (≤ 1 meets it), and
// x-spec-size is the time over that of a 78-operation listing measured in
// the same run.
func BenchmarkDiff10000(b *testing.B) {
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.LoadOmissions(specdoc.OmissionsFile(specPath)); err != nil {
		b.Fatal(err)
	}
	small, large := listingOf(s, len(s.Ops)), listingOf(s, 10000)
	baseline := timePerDiff(b, s, small)
	b.ResetTimer()
	for b.Loop() {
		diffOnce(b, s, large)
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp/float64(time.Second), "budget-fraction")
	b.ReportMetric(perOp/float64(baseline.Nanoseconds()), "x-spec-size")
}

// timePerDiff measures the mean time of diffOnce over 20 runs, for a
// baseline inside a benchmark (testing.Benchmark cannot nest).
func timePerDiff(b *testing.B, s *specdoc.Spec, data []byte) time.Duration {
	const runs = 20
	start := time.Now()
	for range runs {
		diffOnce(b, s, data)
	}
	return time.Since(start) / runs
}

// BenchmarkDiffOpenAPISchemas diffs the spec with a full copy of itself
// (drift-openapi.yaml, 76 operations), schemas included. x-operations-only
// is the time over that of the same diff without the schema comparison
// (parameters, media types and security only), measured in the same run.
func BenchmarkDiffOpenAPISchemas(b *testing.B) {
	s, err := specdoc.Load(specPath, 0)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.LoadOmissions(specdoc.OmissionsFile(specPath)); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(fixtures, "listings", "drift-openapi.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	l, err := listing.Parse("drift-openapi.yaml", "", data, listing.FormatAuto)
	if err != nil {
		b.Fatal(err)
	}
	operationsOnly := *l
	operationsOnly.Doc = nil // schemaFindings compares nothing without the document
	diff := func(l *listing.Listing) {
		if _, err := Listing(s, l); err != nil {
			b.Fatal(err)
		}
	}
	const runs = 20
	start := time.Now()
	for range runs {
		diff(&operationsOnly)
	}
	baseline := time.Since(start) / runs
	b.ResetTimer()
	for b.Loop() {
		diff(l)
	}
	perOp := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp/float64(baseline.Nanoseconds()), "x-operations-only")
}
