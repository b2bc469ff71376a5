package resultdata_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/limits"
	"github.com/scmodel/scmgo/resultdata"
)

// Every field of Limits is enforced where it is declared: for each, the
// smallest value the test result (two sheets, merged cells, shared strings
// and a text of 20,000 bytes) reads within is found, and one less ends
// the reading with a *limits.Error naming the field (NotesPerSheet, which
// cuts notes rather than the reading, adds the note that counts the
// rest). The fields are walked by reflection, so a field without a case
// here fails the test.
func TestEveryLimitIsEnforced(t *testing.T) {
	data := workbook(t, func(f *excelize.File) {
		require.NoError(t, f.MergeCell("Costs", "C7", "D7"))
		require.NoError(t, f.MergeCell("Costs", "C8", "D8"))
	}, sheetRows{name: "Costs", rows: rowsOf(meta("Table", "Costs", "Cost"), [][]any{{"Site", "Cost"}, {"Rome", 1}, {"Oslo", 2}})},
		sheetRows{name: "More", rows: rowsOf(meta("Table", "More", "Cost"), [][]any{{"Site", "Cost"}, {strings.Repeat("Bern", 5000), 3}})})
	c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/dashboard-pages"):
			fmt.Fprint(w, `[{"id":1,"name":"Data"}]`)
		case strings.HasSuffix(r.URL.Path, "/export-page"):
			_, _ = w.Write(data)
		default:
			http.NotFound(w, r)
		}
	})
	// read reads the result with one field of Limits set; it returns the
	// error and whether a note counted notes past NotesPerSheet.
	read := func(t *testing.T, field string, v int64) (error, bool) {
		var l resultdata.Limits
		reflect.ValueOf(&l).Elem().FieldByName(field).SetInt(v)
		cut := false
		opts := &resultdata.ResultOptions{Options: resultdata.Options{Limits: l, Notes: func(n resultdata.Note) { cut = cut || n.Kind == resultdata.TooManyNotes }}}
		for _, err := range resultdata.Result(testCtx(t), c, 5, opts) {
			if err != nil {
				return err, cut
			}
		}
		return nil, cut
	}
	defaults := reflect.ValueOf(resultdata.DefaultLimits())
	typ := defaults.Type()
	for i := range typ.NumField() {
		field := typ.Field(i).Name
		t.Run(field, func(t *testing.T) {
			fails := func(v int64) bool {
				err, cut := read(t, field, v)
				if field == "NotesPerSheet" {
					require.NoError(t, err)
					return cut
				}
				return err != nil
			}
			def := defaults.Field(i).Int()
			require.False(t, fails(def), "the test result reads within the default")
			lo, hi := int64(1), def // fails(lo-1) is unknown, fails(hi) is false
			if fails(lo) {
				for lo+1 < hi {
					if mid := lo + (hi-lo)/2; fails(mid) {
						lo = mid
					} else {
						hi = mid
					}
				}
			} else {
				hi = lo
			}
			require.Greater(t, hi, int64(1), "the test result must go past %s = %d for the limit to be tested", field, hi-1)
			err, cut := read(t, field, hi-1)
			if field == "NotesPerSheet" {
				assert.True(t, cut, "notes past %d counted", hi-1)
				return
			}
			var le *limits.Error
			require.ErrorAs(t, err, &le, "%s = %d", field, hi-1)
			assert.Equal(t, "Limits."+field, le.Limit)
			assert.ErrorIs(t, err, limits.ErrLimit)
			assert.Contains(t, err.Error(), "Limits."+field)
			t.Logf("%s: %d reads, %d fails: %v", field, hi, hi-1, err)
		})
	}
}
