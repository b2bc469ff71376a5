package diff

import (
	"context"
	"fmt"
	"io"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// Options are what specdiff (the diff command) is given.
type Options struct {
	Spec      string   // the -spec file; "" for the embedded spec
	Omissions string   // the -omissions file; "" for the one that goes with the spec
	Format    string   // listing.FormatAuto, or the format -format forces
	Listings  []string // files, - for stdin, URLs
	// Fetcher reads the listings; its MaxSize (-max-input-bytes) bounds the
	// spec and known-omissions files too.
	Fetcher fetch.Fetcher
	Notes   io.Writer // where a server's document was found, one line each
}

// Run diffs each listing against the spec, in order: a report with one
// result per listing. The first listing that cannot be read or parsed
// ends it with an error that names it.
func Run(ctx context.Context, opts Options) (report.Report, error) {
	s, err := specdoc.Load(opts.Spec, opts.Fetcher.MaxSize)
	if err == nil {
		err = s.LoadOmissions(opts.Omissions)
	}
	if err != nil {
		return report.Report{}, err
	}
	rep := report.Report{Command: "diff", Spec: s.Name, Unit: "listing"}
	for _, arg := range opts.Listings {
		r, err := source(ctx, s, opts, arg)
		if err != nil {
			return report.Report{}, err
		}
		rep.Results = append(rep.Results, r)
	}
	return rep, nil
}

// source reads, parses and diffs one listing.
func source(ctx context.Context, s *specdoc.Spec, opts Options, arg string) (report.Result, error) {
	src, data, err := opts.Fetcher.Read(ctx, arg)
	if err != nil {
		return report.Result{}, err
	}
	if src.Note != "" {
		fmt.Fprintf(opts.Notes, "specdiff: %s\n", src.Note)
	}
	format := opts.Format
	if src.Format != "" && format == listing.FormatAuto {
		format = src.Format
	}
	l, err := listing.Parse(src.Name, src.File, data, format)
	if err != nil {
		return report.Result{}, err
	}
	findings, err := Listing(s, l)
	if err != nil {
		return report.Result{}, err
	}
	return report.Result{Source: l.Source, Format: l.Format, Operations: len(l.Entries), Findings: findings}, nil
}

// Listing matches a listing against the spec, by name in either style and
// then by method and path, and reports each difference once.
func Listing(s *specdoc.Spec, l *listing.Listing) ([]report.Finding, error) {
	d := differ{spec: s, listing: l, matched: map[int]bool{}}
	var unnamed []listing.Entry
	for _, e := range l.Entries {
		if i, ok := s.Index(e.Name); ok {
			d.matchByName(i, e)
		} else {
			unnamed = append(unnamed, e)
		}
	}
	for _, e := range unnamed {
		d.matchByRoute(e)
	}
	d.unmatched()
	schema, err := schemaFindings(s, l, d.pairs)
	if err != nil {
		return nil, err
	}
	d.findings = append(d.findings, schema...)
	report.Sort(d.findings)
	return d.findings, nil
}

type differ struct {
	spec     *specdoc.Spec
	listing  *listing.Listing
	matched  map[int]bool
	pairs    []pair // matched operations of an OpenAPI listing, for the schema diff
	findings []report.Finding
}

func (d *differ) add(k, op, detail string, at report.Location) {
	d.findings = append(d.findings, report.New(k, op, detail, at))
}

// at is the place of an entry in the listing.
func (d *differ) at(e listing.Entry) report.Location {
	return report.Location{File: d.listing.File, Line: e.Line}
}

func (d *differ) matchByName(i int, e listing.Entry) {
	op := d.spec.Ops[i]
	if d.matched[i] {
		d.add("duplicate-in-listing", op.ID, fmt.Sprintf("listed again as %s", e.Name), d.at(e))
		return
	}
	d.matched[i] = true
	if e.Method != "" && (e.Method != op.Method || e.Path != op.Path) {
		d.add("method-path-mismatch", op.ID,
			fmt.Sprintf("spec has %s %s; listing has %s %s", op.Method, op.Path, e.Method, e.Path), d.at(e))
	}
	d.compare(i, e)
}

func (d *differ) matchByRoute(e listing.Entry) {
	i, ok := d.spec.RouteIndex(e.Method, e.Path)
	switch {
	case ok && !d.matched[i]:
		d.matched[i] = true
		op := d.spec.Ops[i]
		d.add("name-mismatch", op.ID,
			fmt.Sprintf("%s %s is %s in the listing; the spec names it %s or %s", e.Method, e.Path, nameOrNone(e.Name), op.ID, op.SnakeName), d.at(e))
		d.compare(i, e)
	case e.Method != "":
		d.add("extra-in-listing", nameOrRoute(e), fmt.Sprintf("%s %s is not in the spec", e.Method, e.Path), d.at(e))
	default:
		d.add("extra-in-listing", nameOrRoute(e), "not in the spec", d.at(e))
	}
}

func (d *differ) compare(i int, e listing.Entry) {
	if e.Op != nil {
		d.pairs = append(d.pairs, pair{spec: i, entry: e})
	}
	if e.Details != nil {
		d.findings = append(d.findings, compareDetails(d.spec.Ops[i].ID, d.spec.Details(i), e.Details, d.at(e))...)
	}
}

// unmatched reports the spec operations no entry matched.
func (d *differ) unmatched() {
	for i, op := range d.spec.Ops {
		switch {
		case d.matched[i]:
		case d.spec.Omitted(op.ID):
			d.add("known-omission", op.ID, fmt.Sprintf("%s %s is not in the listing (a reviewed omission)", op.Method, op.Path), d.spec.At(i))
		default:
			d.add("missing-in-listing", op.ID, fmt.Sprintf("%s %s is not in the listing", op.Method, op.Path), d.spec.At(i))
		}
	}
}

func nameOrNone(name string) string {
	if name == "" {
		return "unnamed"
	}
	return name
}

func nameOrRoute(e listing.Entry) string {
	if e.Name == "" {
		return e.Method + " " + e.Path
	}
	return e.Name
}
