package xlsxpage

import (
	"encoding/xml"
	"strings"
	"testing"
)

// A relationship's target resolves against the folder of the part whose
// relationships name it, or the root when it begins with a slash, and
// never climbs above the root.
func TestResolvePart(t *testing.T) {
	for name, tc := range map[string]struct{ from, target, want string }{
		"the package's":           {"", "xl/workbook.xml", "xl/workbook.xml"},
		"relative to the part":    {"xl/workbook.xml", "worksheets/sheet1.xml", "xl/worksheets/sheet1.xml"},
		"absolute":                {"xl/workbook.xml", "/xl/worksheets/sheet2.xml", "xl/worksheets/sheet2.xml"},
		"up a folder":             {"xl/worksheets/sheet1.xml", "../sharedStrings.xml", "xl/sharedStrings.xml"},
		"above the root":          {"xl/workbook.xml", "../../../etc/passwd", "etc/passwd"},
		"absolute above the root": {"xl/workbook.xml", "/../x.xml", "x.xml"},
		"dots within":             {"xl/workbook.xml", "./worksheets/./sheet1.xml", "xl/worksheets/sheet1.xml"},
	} {
		if got := ResolvePart(tc.from, tc.target); got != tc.want {
			t.Errorf("%s: ResolvePart(%q, %q) = %q, want %q", name, tc.from, tc.target, got, tc.want)
		}
	}
}

func TestRelsPart(t *testing.T) {
	for part, want := range map[string]string{"": "_rels/.rels", "xl/workbook.xml": "xl/_rels/workbook.xml.rels"} {
		if got := RelsPart(part); got != want {
			t.Errorf("RelsPart(%q) = %q, want %q", part, got, want)
		}
	}
}

// startElements decodes the start elements of doc.
func startElements(t *testing.T, doc string) []xml.StartElement {
	t.Helper()
	var out []xml.StartElement
	dec := xml.NewDecoder(strings.NewReader(doc))
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		if el, ok := tok.(xml.StartElement); ok {
			out = append(out, el.Copy())
		}
	}
}

// A sheet's name is its unprefixed attribute and its r:id the id of the
// relationships' namespace, whatever prefix the workbook gives it; an
// attribute of another namespace is not taken for an unprefixed one.
func TestAttrAndRelationshipID(t *testing.T) {
	els := startElements(t, `<sheets xmlns:x="urn:rels" xmlns:o="urn:other"><sheet o:name="no" name="Costs" x:id="rId7"/><sheet o:name="only prefixed"/></sheets>`)
	if len(els) != 3 {
		t.Fatalf("decoded %d start elements, want 3", len(els))
	}
	if got := Attr(els[1], "name"); got != "Costs" {
		t.Errorf("Attr(name) = %q, want Costs", got)
	}
	if got := RelationshipID(els[1]); got != "rId7" {
		t.Errorf("RelationshipID = %q, want rId7", got)
	}
	if got := Attr(els[2], "name"); got != "" {
		t.Errorf("Attr(name) of a prefixed attribute only = %q, want none", got)
	}
}

// The package's relationships are recorded by id and by type, and name
// the workbook part; without one of type officeDocument, it is the usual
// part.
func TestOfficeDocument(t *testing.T) {
	rels := map[string]string{}
	for _, el := range startElements(t, `<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="/book/main.xml"/><Relationship Id="rId2" Type="http://x/thumbnail" Target="docProps/t.jpeg"/></Relationships>`)[1:] {
		AddRelationship(rels, el, true)
	}
	if rels["rId2"] != "docProps/t.jpeg" {
		t.Errorf("by id: %v", rels)
	}
	if got := OfficeDocument(rels); got != "book/main.xml" {
		t.Errorf("OfficeDocument = %q, want book/main.xml", got)
	}
	byID := map[string]string{}
	AddRelationship(byID, startElements(t, `<Relationship Id="rId1" Type="http://x/officeDocument" Target="w.xml"/>`)[0], false)
	if got := OfficeDocument(byID); got != UsualWorkbookPart {
		t.Errorf("OfficeDocument of relationships by id only = %q, want %q", got, UsualWorkbookPart)
	}
}
