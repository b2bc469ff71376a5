package dashboard

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// maxSheetName is the longest sheet name a workbook takes, in UTF-16 code
// units: Excel's limit, measured as excelize measures it.
const maxSheetName = 31

// sheetNames names a sheet per page, in order.
func sheetNames(pages []gen.ApiDashboardPage) []string {
	namer := sheetNamer{}
	names := make([]string, len(pages))
	for i, p := range pages {
		names[i] = namer.name(p.Name, p.Id)
	}
	return names
}

// sheetNamer gives each page a sheet name a workbook takes: without the
// characters Excel forbids (:\/?*[]) or XML cannot carry (control
// characters), not starting or ending with an apostrophe, at most 31
// UTF-16 code units, and unique ignoring case.
type sheetNamer map[string]bool

func (n sheetNamer) name(pageName string, pageID ids.PageID) string {
	base := trimName(strings.Map(sheetNameRune, pageName))
	if base == "" {
		base = "Page " + pageID.String()
	}
	name := cutName(base, maxSheetName)
	for i := 2; n[foldKey(name)]; i++ {
		suffix := " (" + strconv.Itoa(i) + ")"
		name = cutName(base, maxSheetName-len(suffix)) + suffix
	}
	n[foldKey(name)] = true
	return name
}

// sheetNameRune replaces a character a sheet name cannot hold with '_'.
func sheetNameRune(r rune) rune {
	if strings.ContainsRune(`:\/?*[]`, r) || unicode.IsControl(r) || r == unicode.ReplacementChar ||
		r == 0xFFFE || r == 0xFFFF {
		return '_'
	}
	return r
}

// trimName drops the spaces and apostrophes that begin or end s: a sheet
// name must not begin or end with an apostrophe.
func trimName(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r == '\'' || unicode.IsSpace(r) })
}

// cutName cuts s to at most max UTF-16 code units, never within a
// character, and trims what the cut leaves at its end. s begins with a
// character that is kept, so the result is never empty when max >= 2.
func cutName(s string, max int) string {
	units := 0
	for i, r := range s {
		units += utf16.RuneLen(r)
		if units > max {
			return trimName(s[:i])
		}
	}
	return s
}

// foldKey is s with every character replaced by the smallest of its case
// folding orbit, so two names have the same key exactly when
// strings.EqualFold says they are equal, as excelize compares them.
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
