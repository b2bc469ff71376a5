package xlsxpage

import (
	"encoding/xml"
	"path"
	"strings"
)

// UsualWorkbookPart is the workbook part when the package's
// relationships do not name one.
const UsualWorkbookPart = "xl/workbook.xml"

// Attr is the value of el's attribute named local without a namespace
// prefix; "" when there is none.
func Attr(el xml.StartElement, local string) string {
	for _, a := range el.Attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value
		}
	}
	return ""
}

// RelationshipID is a sheet's r:id, in whichever namespace the workbook
// uses for relationships; "" when it has none.
func RelationshipID(el xml.StartElement) string {
	for _, a := range el.Attr {
		if a.Name.Local == "id" && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}

// ResolvePart turns a relationship target of the part from ("" for the
// package) into a part's name: absolute from the package's root, else
// relative to from's folder, cleaned, and never above the root (a target
// of ../../x is x).
func ResolvePart(from, target string) string {
	if !strings.HasPrefix(target, "/") {
		target = "/" + path.Join(path.Dir(from), target)
	}
	return strings.TrimPrefix(path.Clean(target), "/")
}

// RelsPart is the name of the part that holds the relationships of part
// ("" for the package's own).
func RelsPart(part string) string {
	dir, base := path.Split(part)
	return dir + "_rels/" + base + ".rels"
}

// AddRelationship records the target of el, a Relationship element of a
// .rels part, by its Id; byType records it by its Type too, as the
// package's relationships are looked up ([OfficeDocument]).
func AddRelationship(rels map[string]string, el xml.StartElement, byType bool) {
	rels[Attr(el, "Id")] = Attr(el, "Target")
	if byType {
		rels[Attr(el, "Type")] = Attr(el, "Target")
	}
}

// OfficeDocument is the workbook part that the package's relationships,
// recorded by type, name; the usual one when they name none.
func OfficeDocument(pkgRels map[string]string) string {
	for typ, target := range pkgRels {
		if strings.HasSuffix(typ, "/officeDocument") {
			return ResolvePart("", target)
		}
	}
	return UsualWorkbookPart
}
