package main

import "fmt"

// diffListing matches a listing against the spec, by name in either style
// and then by method and path, and reports each difference once.
func diffListing(s *Spec, l *Listing) ([]Finding, error) {
	d := differ{spec: s, listing: l, matched: map[int]bool{}}
	var unnamed []Entry
	for _, e := range l.Entries {
		if i, ok := s.byName[e.Name]; ok {
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
	sortFindings(d.findings)
	return d.findings, nil
}

type differ struct {
	spec     *Spec
	listing  *Listing
	matched  map[int]bool
	pairs    []pair // matched operations of an OpenAPI listing, for the schema diff
	findings []Finding
}

func (d *differ) add(k, op, detail string, at location) {
	d.findings = append(d.findings, newFinding(k, op, detail, at))
}

// at is the place of an entry in the listing.
func (d *differ) at(e Entry) location {
	return location{file: d.listing.File, line: e.Line}
}

func (d *differ) matchByName(i int, e Entry) {
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

func (d *differ) matchByRoute(e Entry) {
	i, ok := d.spec.byRoute[e.Method+" "+e.Path]
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

func (d *differ) compare(i int, e Entry) {
	if e.op != nil {
		d.pairs = append(d.pairs, pair{spec: i, entry: e})
	}
	if e.Details != nil {
		d.findings = append(d.findings, compareDetails(d.spec.Ops[i].ID, d.spec.details[i], e.Details, d.at(e))...)
	}
}

// unmatched reports the spec operations no entry matched.
func (d *differ) unmatched() {
	for i, op := range d.spec.Ops {
		switch {
		case d.matched[i]:
		case d.spec.omissions[op.ID]:
			d.add("known-omission", op.ID, fmt.Sprintf("%s %s is not in the listing (a reviewed omission)", op.Method, op.Path), d.spec.at(i))
		default:
			d.add("missing-in-listing", op.ID, fmt.Sprintf("%s %s is not in the listing", op.Method, op.Path), d.spec.at(i))
		}
	}
}

func nameOrNone(name string) string {
	if name == "" {
		return "unnamed"
	}
	return name
}

func nameOrRoute(e Entry) string {
	if e.Name == "" {
		return e.Method + " " + e.Path
	}
	return e.Name
}
