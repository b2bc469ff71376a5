package dashboard

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scmodel/scmgo/gen"
)

// maxSheetName is Excel's limit on the length of a sheet name.
const maxSheetName = 31

// noPages names the one sheet of a result without pages.
const noPages = "No pages"

// sheetNames names a sheet per page, in order; a result without pages
// gets one sheet.
func sheetNames(pages []gen.ApiDashboardPage) []string {
	if len(pages) == 0 {
		return []string{noPages}
	}
	namer := sheetNamer{}
	names := make([]string, len(pages))
	for i, p := range pages {
		names[i] = namer.name(p.Name, p.Id)
	}
	return names
}

// sheetNamer gives each page a sheet name Excel accepts: without the
// characters it forbids, at most 31 characters, and unique ignoring case.
type sheetNamer map[string]bool

func (n sheetNamer) name(pageName string, pageID int64) string {
	base := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`:\/?*[]`, r) {
			return '_'
		}
		return r
	}, strings.Trim(strings.TrimSpace(pageName), "'"))
	if base == "" {
		base = "Page " + strconv.FormatInt(pageID, 10)
	}
	name := truncateRunes(base, maxSheetName)
	for i := 2; n[strings.ToLower(name)]; i++ {
		suffix := " (" + strconv.Itoa(i) + ")"
		name = truncateRunes(base, maxSheetName-utf8.RuneCountInString(suffix)) + suffix
	}
	n[strings.ToLower(name)] = true
	return name
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
