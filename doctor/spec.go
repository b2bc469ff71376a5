package doctor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/drift"
)

// SpecComparer fetches the server's own OpenAPI document, where Java
// servers publish it (/v3/api-docs and the like), and compares it with
// the SDK's spec. It returns [ErrNoDocument] (wrapped, with where it
// looked) when the server publishes none.
type SpecComparer func(ctx context.Context) (SpecComparison, error)

// ErrNoDocument: the server publishes no OpenAPI document where one was
// looked for. It is a warning, not a failure: the SDK needs none.
var ErrNoDocument = errors.New("the server publishes no OpenAPI document")

// SpecComparison is what a [SpecComparer] found.
type SpecComparison struct {
	Source     string // where the server's document was found, its URL
	Operations int    // the operations the server's document holds
	// Findings are the differences, in specdiff's kinds:
	// missing-in-listing (an operation of the SDK's spec the document
	// lacks), extra-in-listing (one the spec lacks), known-omission (one
	// some servers are known to leave out: not drift), and the kinds of
	// the schemas and parameters of matched operations, each naming its
	// model in Path.
	Findings []drift.Finding
}

// spec compares the server's document with the SDK's spec, through
// Options.CompareSpec. Any outcome is at worst a warning: the SDK works
// without the document, and keeps working where its guesses differ.
func (d *doctor) spec(ctx context.Context) bool {
	if d.opts.CompareSpec == nil {
		d.add(CheckSpec, Warn, "not compared: Options.CompareSpec is not set",
			"scm doctor, or specdiff with the base URL, compares the server's OpenAPI document with the SDK's spec")
		return true
	}
	cmp, err := d.opts.CompareSpec(ctx)
	switch {
	case errors.Is(err, ErrNoDocument):
		d.add(CheckSpec, Warn, firstLine(err.Error()), "nothing to change: the SDK needs no document; if the server publishes one elsewhere, specdiff compares it from its URL")
	case err != nil:
		d.add(CheckSpec, Warn, "not compared: "+firstLine(err.Error()), "check that the document's URL answers this machine; the SDK needs no document")
	default:
		d.specDiffered(cmp)
	}
	return true
}

func (d *doctor) specDiffered(cmp SpecComparison) {
	s := summarise(cmp.Findings)
	if s.empty() {
		seen := fmt.Sprintf("the server's document at %s matches the SDK's spec: %d operations", cmp.Source, cmp.Operations)
		if len(s.omitted) > 0 {
			seen += fmt.Sprintf(", %d left out as some servers do (%s)", len(s.omitted), listed(s.omitted, 3))
		}
		d.add(CheckSpec, OK, seen, "")
		return
	}
	d.add(CheckSpec, Warn, fmt.Sprintf("the server's document at %s (%d operations) differs from the SDK's spec: %s", cmp.Source, cmp.Operations, s),
		"the SDK keeps working where its guesses are wrong, and reports where; specdiff, given the base URL, lists every difference")
}

// specSummary sorts the findings of a comparison: operations missing on
// either side, schemas that differ, and the rest.
type specSummary struct {
	lacked   []string // operations of the spec the server's document lacks
	extra    []string // operations of the document the spec lacks
	omitted  []string // known omissions
	schemas  []string // models whose schemas differ
	others   int      // other drift
	examples []string // the other kinds seen
}

func summarise(findings []drift.Finding) specSummary {
	var s specSummary
	for _, f := range findings {
		switch {
		case f.Kind == "known-omission":
			s.omitted = append(s.omitted, f.Operation)
		case !f.Drift:
		case f.Kind == "missing-in-listing":
			s.lacked = append(s.lacked, f.Operation)
		case f.Kind == "extra-in-listing":
			s.extra = append(s.extra, f.Operation)
		case f.Path != "":
			if m := modelOf(f.Path); !slices.Contains(s.schemas, m) {
				s.schemas = append(s.schemas, m)
			}
		default:
			s.others++
			if !slices.Contains(s.examples, f.Kind) {
				s.examples = append(s.examples, f.Kind)
			}
		}
	}
	return s
}

func (s specSummary) empty() bool {
	return len(s.lacked)+len(s.extra)+len(s.schemas)+s.others == 0
}

func (s specSummary) String() string {
	var parts []string
	if n := len(s.lacked); n > 0 {
		parts = append(parts, fmt.Sprintf("it lacks %s of the spec (%s)", plural(n, "operation"), listed(s.lacked, 3)))
	}
	if n := len(s.extra); n > 0 {
		parts = append(parts, fmt.Sprintf("the spec lacks %s of it (%s)", plural(n, "operation"), listed(s.extra, 3)))
	}
	if n := len(s.schemas); n > 0 {
		parts = append(parts, fmt.Sprintf("the schemas of %s differ (%s)", plural(n, "model"), listed(s.schemas, 3)))
	}
	if s.others > 0 {
		parts = append(parts, fmt.Sprintf("%s more (%s)", plural(s.others, "difference"), strings.Join(s.examples, ", ")))
	}
	return strings.Join(parts, "; ")
}

// modelOf is the model a finding's path starts with:
// ApiProjectResponse of ApiProjectResponse.id or ApiPage[].id.
func modelOf(path string) string {
	if i := strings.IndexAny(path, ".[ "); i > 0 {
		return path[:i]
	}
	return path
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSuffix(line, ";")
}
