package dashboard

import (
	"bytes"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/dashboard/dashboardtest"
	scmlimits "github.com/scmodel/scmgo/limits"
)

// Every limit of Options is enforced where it is declared: for each, the
// smallest value the test page merges within is found, and one less ends
// the export with a *scmlimits.Error naming the option. The fields are walked
// by reflection: a new limit is tested as it is added, and a field that is
// no limit (Progress) must be named here.
func TestEveryOptionLimitIsEnforced(t *testing.T) {
	sst := `<sst ` + dashboardtest.MainNS + `><si><t>shared</t></si></sst>`
	page := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(5) +
		`<row r="6"><c r="A6" t="s"><v>0</v></c></row>`)}}, SST: sst}.Bytes(t)
	c := onePage(t, page)
	export := func(field string, v int64) error {
		var o Options
		reflect.ValueOf(&o).Elem().FieldByName(field).SetInt(v)
		var out bytes.Buffer
		return Export(testCtx(t), c, 5, &out, &o)
	}
	notLimits := map[string]bool{"Progress": true, "NoFollow": true}
	defaults := reflect.ValueOf(DefaultOptions())
	typ := defaults.Type()
	for i := range typ.NumField() {
		field := typ.Field(i).Name
		if notLimits[field] {
			continue
		}
		t.Run(field, func(t *testing.T) {
			def := defaults.Field(i).Int()
			require.NoError(t, export(field, def), "the test page merges within the default")
			lo, hi := int64(1), def // export(hi) succeeds
			if export(field, lo) != nil {
				for lo+1 < hi {
					if mid := lo + (hi-lo)/2; export(field, mid) != nil {
						lo = mid
					} else {
						hi = mid
					}
				}
			} else {
				hi = lo
			}
			require.Greater(t, hi, int64(1), "the test page must go past %s = %d for the limit to be tested", field, hi-1)
			err := export(field, hi-1)
			var le *scmlimits.Error
			require.ErrorAs(t, err, &le, "%s = %d", field, hi-1)
			assert.Equal(t, "Options."+field, le.Limit)
			assert.Equal(t, hi-1, le.Max)
			t.Logf("%s: %d merges, %d fails: %v", field, hi, hi-1, err)
		})
	}
}

// The budget of rows and cells counts every page of the export: three
// pages of five rows go past MaxResultRows 12 on the third page.
func TestResultBudgetSpansPages(t *testing.T) {
	page := dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(5))}}}.Bytes(t)
	c := bookStub(t, `[{"id":1,"name":"One"},{"id":2,"name":"Two"},{"id":3,"name":"Three"}]`, func(w http.ResponseWriter, _ string) {
		_, _ = w.Write(page)
	})
	var out bytes.Buffer
	err := Export(testCtx(t), c, 5, &out, &Options{MaxResultRows: 12})
	var le *scmlimits.Error
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "Options.MaxResultRows", le.Limit)
	assert.Contains(t, err.Error(), "page 3 (Three)")
	require.NoError(t, Export(testCtx(t), c, 5, &out, &Options{MaxResultRows: 15, MaxResultCells: 30}), "a budget the export fits")
}
