package dashboard

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// The sheet names made from hostile page names pass the workbook library's
// own check (excelize's, through SetSheetName and NewSheet: at most 31
// UTF-16 code units, no apostrophe first or last, none of :\/?*[]), stay
// unique ignoring case as excelize compares them, and keep what can be
// kept of the page's name.
func TestSheetNamesPassTheLibrarysCheck(t *testing.T) {
	emoji := strings.Repeat("😀", 20)
	for name, tc := range map[string]struct {
		pages []string
		want  []string // nil: only checked against the library
	}{
		"16 emoji and more":              {[]string{emoji}, []string{strings.Repeat("😀", 15)}},
		"an emoji cut in two":            {[]string{strings.Repeat("x", 30) + "😀"}, []string{strings.Repeat("x", 30)}},
		"an apostrophe at the cut":       {[]string{strings.Repeat("a", 30) + "'bc"}, []string{strings.Repeat("a", 30)}},
		"apostrophes around":             {[]string{"'Costs'", "''", " ' "}, []string{"Costs", "Page 2", "Page 3"}},
		"apostrophes inside":             {[]string{"Bob's costs"}, []string{"Bob's costs"}},
		"forbidden characters":           {[]string{`a:b\c/d?e*f[g]h`}, []string{"a_b_c_d_e_f_g_h"}},
		"control characters":             {[]string{"a\x00b\tc\nd\x7f"}, []string{"a_b_c_d_"}},
		"not UTF-8":                      {[]string{"a\xffb"}, []string{"a_b"}},
		"duplicates ignoring case":       {[]string{"Costs", "COSTS", "costs"}, []string{"Costs", "COSTS (2)", "costs (3)"}},
		"duplicates after the cut":       {[]string{strings.Repeat("x", 40), strings.Repeat("x", 35)}, []string{strings.Repeat("x", 31), strings.Repeat("x", 27) + " (2)"}},
		"emoji duplicates after the cut": {[]string{emoji, emoji + "!"}, []string{strings.Repeat("😀", 15), strings.Repeat("😀", 13) + " (2)"}},
		"apostrophe before the suffix":   {[]string{strings.Repeat("b", 26) + "'bbbb", strings.Repeat("b", 26) + "'bbbbxyz"}, []string{strings.Repeat("b", 26) + "'bbbb", strings.Repeat("b", 26) + " (2)"}},
		"case folding beyond ASCII":      {[]string{"Straße", "STRASSE", "ǅ", "ǆ", "Ω", "ω", "K", "k", "σ", "ς"}, nil},
		"a taken suffix":                 {[]string{"A", "A (2)", "a"}, []string{"A", "A (2)", "a (3)"}},
		"empty and spaces":               {[]string{"", "   "}, []string{"Page 1", "Page 2"}},
	} {
		t.Run(name, func(t *testing.T) {
			var pages []gen.ApiDashboardPage
			for i, n := range tc.pages {
				pages = append(pages, gen.ApiDashboardPage{Id: ids.PageID(i + 1), Name: n})
			}
			names := sheetNames(pages)
			if tc.want != nil {
				assert.Equal(t, tc.want, names)
			}
			for _, n := range names {
				assert.LessOrEqual(t, len(utf16.Encode([]rune(n))), 31, "%q", n)
			}
			f := excelize.NewFile()
			defer f.Close()
			require.NoError(t, f.SetSheetName("Sheet1", names[0]), "%q", names[0])
			for _, n := range names[1:] {
				_, err := f.NewSheet(n)
				require.NoError(t, err, "%q", n)
			}
			assert.Equal(t, names, f.GetSheetList(), "every name a sheet of its own")
			_, err := skeleton(names)
			assert.NoError(t, err, "the skeleton of the workbook takes them")
		})
	}
}
