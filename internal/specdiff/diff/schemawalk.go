package diff

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	oasdiff "github.com/oasdiff/oasdiff/diff"

	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/oas"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// schemaCollector turns oasdiff's schema diffs into findings. Each finding
// names the spec's model and the property path (ApiProjectResponse.projectId)
// and is reported once, at the first operation that shows it: a model many
// operations share is one thing to fix.
type schemaCollector struct {
	spec, listing oas.Models
	findings      []report.Finding
	reported      map[string]bool // kind and detail
	op            string
	at            report.Location
	stack         map[*oasdiff.SchemaDiff]bool // the diffs being walked, against cycles
	// noComposition is set for Swagger 2.0 listings, which cannot write
	// allOf alternatives, anyOf or oneOf: their absence is not drift.
	noComposition bool
}

func newSchemaCollector(spec, listing oas.Models) *schemaCollector {
	return &schemaCollector{spec: spec, listing: listing, reported: map[string]bool{}, stack: map[*oasdiff.SchemaDiff]bool{}}
}

func (c *schemaCollector) add(k, path, format string, args ...any) {
	detail := fmt.Sprintf(format, args...)
	if c.reported[k+" "+detail] {
		return
	}
	c.reported[k+" "+detail] = true
	f := report.New(k, c.op, detail, c.at)
	f.Path = path
	c.findings = append(c.findings, f)
}

// operation walks the request body and the responses of one operation.
func (c *schemaCollector) operation(id string, at report.Location, md *oasdiff.MethodDiff) {
	c.op, c.at = id, at
	if rb := md.RequestBodyDiff; rb != nil && rb.ContentDiff != nil {
		c.content(id+" request body", rb.ContentDiff)
	}
	if md.ResponsesDiff == nil {
		return
	}
	for _, code := range slices.Sorted(maps.Keys(md.ResponsesDiff.Modified)) {
		if r := md.ResponsesDiff.Modified[code]; r.ContentDiff != nil {
			c.content(id+" "+code+" response", r.ContentDiff)
		}
	}
}

func (c *schemaCollector) content(root string, cd *oasdiff.ContentDiff) {
	for _, mt := range slices.Sorted(maps.Keys(cd.MediaTypeModified)) {
		c.schema(root, cd.MediaTypeModified[mt].SchemaDiff)
	}
}

// schema walks one schema diff found at path.
func (c *schemaCollector) schema(path string, d *oasdiff.SchemaDiff) {
	if d == nil || c.stack[d] {
		return
	}
	c.stack[d] = true
	defer delete(c.stack, d)
	if d.SchemaAdded || d.SchemaDeleted {
		c.add("property-type", path, "%s has %s; listing has %s", path, schemaWord(d.SchemaDeleted), schemaWord(d.SchemaAdded))
		return
	}
	path = c.spec.At(path, d.Base)
	if d.TypeDiff != nil || d.FormatDiff != nil {
		c.add("property-type", path, "%s is %s; listing has %s", path, c.spec.Label(d.Base), c.listing.Label(d.Revision))
	}
	c.enum(path, d)
	if nd := d.NullableDiff; nd != nil {
		c.add("property-nullable", path, "%s is %s; listing has it %s", path, nullableWord(nd.From), nullableWord(nd.To))
	}
	c.properties(path, d)
	c.schema(oas.Elements(path), d.ItemsDiff)
	for _, sd := range []*oasdiff.SubschemasDiff{d.AllOfDiff, d.AnyOfDiff, d.OneOfDiff} {
		c.subschemas(path, sd)
	}
}

func schemaWord(present bool) string {
	if present {
		return "a schema"
	}
	return "none"
}

func nullableWord(v any) string {
	if b, _ := v.(bool); b {
		return "nullable"
	}
	return "not nullable"
}

// enum reports enumeration values one side allows and the other lacks.
func (c *schemaCollector) enum(path string, d *oasdiff.SchemaDiff) {
	ed := d.EnumDiff
	if ed == nil {
		return
	}
	where := path
	if name := c.spec[d.Base]; name != "" && !oas.ObjectLike(d.Base) {
		where = fmt.Sprintf("%s (%s)", path, name)
	}
	switch {
	case ed.EnumAdded:
		c.add("enum-added", path, "%s: listing restricts it to %s; spec has no enumeration", where, enumList(d.Revision.Enum))
	case ed.EnumDeleted:
		c.add("enum-removed", path, "%s: listing has no enumeration; spec allows %s", where, enumList(d.Base.Enum))
	}
	if len(ed.Added) > 0 && !ed.EnumAdded {
		c.add("enum-added", path, "%s: listing allows %s, which the spec does not", where, enumList(ed.Added))
	}
	if len(ed.Deleted) > 0 && !ed.EnumDeleted {
		c.add("enum-removed", path, "%s: listing lacks %s", where, enumList(ed.Deleted))
	}
}

func enumList(values []any) string {
	var out []string
	for _, v := range values {
		out = append(out, fmt.Sprint(v))
	}
	return strings.Join(out, ", ")
}

// properties reports properties added, removed, renamed and retyped, and
// changes of required-ness of properties both sides have. A property that
// disappears while exactly one of the same type appears (and no other of
// that type does) is reported as renamed.
func (c *schemaCollector) properties(path string, d *oasdiff.SchemaDiff) {
	pd := d.PropertiesDiff
	var added, deleted []string
	if pd != nil {
		added, deleted = slices.Sorted(slices.Values(pd.Added)), slices.Sorted(slices.Values(pd.Deleted))
	}
	renamed := oas.PairRenames(deleted, added, func(old, nu string) bool { return typeOfRef(pd.Base[old]) == typeOfRef(pd.Revision[nu]) })
	for _, old := range deleted {
		s := oas.SchemaOf(pd.Base[old])
		if nu, ok := renamed[old]; ok {
			c.add("property-renamed", oas.Child(path, old), "%s (%s) is %s in the listing", oas.Child(path, old), c.spec.Label(s), nu)
			continue
		}
		c.add("property-removed", oas.Child(path, old), "%s (%s) is not in the listing", oas.Child(path, old), c.describe(c.spec, s, d.Base, old))
	}
	for _, nu := range added {
		if slices.Contains(slices.Collect(maps.Values(renamed)), nu) {
			continue
		}
		c.add("property-added", oas.Child(path, nu), "%s (%s) is in the listing, not in the spec", oas.Child(path, nu), c.describe(c.listing, oas.SchemaOf(pd.Revision[nu]), d.Revision, nu))
	}
	c.required(path, d)
	if pd == nil {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(pd.Modified)) {
		c.schema(oas.Child(path, name), pd.Modified[name])
	}
}

// describe is a property's type, with ", required" when its object
// requires it.
func (c *schemaCollector) describe(m oas.Models, s, object *openapi3.Schema, name string) string {
	if object != nil && slices.Contains(object.Required, name) {
		return m.Label(s) + ", required"
	}
	return m.Label(s)
}

// required reports required-ness changes of properties both sides have;
// those of added, removed and renamed properties are in their findings.
func (c *schemaCollector) required(path string, d *oasdiff.SchemaDiff) {
	rd := d.RequiredDiff
	if rd == nil || d.Base == nil || d.Revision == nil {
		return
	}
	both := func(name string) bool { return d.Base.Properties[name] != nil && d.Revision.Properties[name] != nil }
	for _, name := range slices.Sorted(slices.Values(rd.Added)) {
		if both(name) {
			c.add("property-required", oas.Child(path, name), "%s is optional; listing requires it", oas.Child(path, name))
		}
	}
	for _, name := range slices.Sorted(slices.Values(rd.Deleted)) {
		if both(name) {
			c.add("property-required", oas.Child(path, name), "%s is required; listing has it optional", oas.Child(path, name))
		}
	}
}

func (c *schemaCollector) subschemas(path string, sd *oasdiff.SubschemasDiff) {
	if sd == nil {
		return
	}
	for _, m := range sd.Modified {
		c.schema(path, m.Diff)
	}
	if (len(sd.Added) > 0 || len(sd.Deleted) > 0) && !c.noComposition {
		c.add("property-type", path, "%s: the alternatives differ: listing adds %d, lacks %d", path, len(sd.Added), len(sd.Deleted))
	}
}

func typeOfRef(ref *openapi3.SchemaRef) string {
	if ref == nil || ref.Value == nil {
		return "unspecified"
	}
	return spec.TypeName(ref.Value)
}
