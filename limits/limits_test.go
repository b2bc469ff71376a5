package limits_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/dashboard/dashboardtest"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/limits"
	"github.com/scmodel/scmgo/resultdata"
)

// refusal is a real refusal of one package, driven through its public API,
// and the limit it must name.
type refusal struct {
	refuse func(t *testing.T) error
	want   limits.Error // Package, Operation, Limit, Max, Unit, Fixed
}

// threeRows is a page workbook of one sheet, "Data", of three rows.
func threeRows(t *testing.T) []byte {
	return dashboardtest.Book{Sheets: []dashboardtest.Sheet{{Name: "Data", XML: dashboardtest.SheetXML(dashboardtest.NumberRows(3))}}}.Bytes(t)
}

var refusals = map[string]refusal{
	"facade: a body past MaxBodyBytes": {
		refuse: func(t *testing.T) error {
			c := stub(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{"name":"a user"}`) },
				facade.WithLimits(facade.Limits{MaxBodyBytes: 1}))
			_, err := c.User.Current(testCtx(t))
			return err
		},
		want: limits.Error{Package: "facade", Operation: "getCurrentUser", Limit: "Limits.MaxBodyBytes", Max: 1, Unit: "bytes"},
	},
	"dashboard: a row past MaxRows": {
		refuse: func(t *testing.T) error {
			data := threeRows(t)
			c := stub(t, func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/dashboard-pages") {
					_, _ = io.WriteString(w, `[{"id":1,"name":"Data"}]`)
					return
				}
				w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
				_, _ = w.Write(data)
			})
			return dashboard.Export(testCtx(t), c, 7, io.Discard, &dashboard.Options{MaxRows: 1})
		},
		want: limits.Error{Package: "dashboard", Limit: "Options.MaxRows", Max: 1, Seen: 2, Unit: "rows"},
	},
	"resultdata: a row past RowsPerSheet": {
		refuse: func(t *testing.T) error {
			return readPage(t, &resultdata.Options{Limits: resultdata.Limits{RowsPerSheet: 1}})
		},
		want: limits.Error{Package: "resultdata", Limit: "Limits.RowsPerSheet", Max: 1, Seen: 2, Unit: "rows"},
	},
	"resultdata: a result past ResultRows": {
		refuse: func(t *testing.T) error {
			return readPage(t, &resultdata.Options{Limits: resultdata.Limits{ResultRows: 1}})
		},
		want: limits.Error{Package: "resultdata", Limit: "Limits.ResultRows", Max: 1, Unit: "rows"},
	},
}

// A refusal of each package is one *limits.Error, found with errors.As,
// naming the package, the limit by its option and its value, and matching
// the one sentinel under each of its names.
func TestEveryPackageRefusesWithOneError(t *testing.T) {
	for name, tc := range refusals {
		t.Run(name, func(t *testing.T) {
			err := tc.refuse(t)
			var le *limits.Error
			require.ErrorAs(t, err, &le, "the refusal: %v", err)
			got := limits.Error{Package: le.Package, Operation: le.Operation, Limit: le.Limit, Max: le.Max, Seen: le.Seen, Unit: le.Unit, Fixed: le.Fixed}
			assert.Equal(t, tc.want, got)
			assert.NotEmpty(t, le.What, "what went past the limit")
			assert.ErrorIs(t, err, limits.ErrLimit)
			assert.Contains(t, err.Error(), le.What+" exceeds "+tc.want.Package+"'s "+tc.want.Limit+fmt.Sprintf(" (%d %s): raise it", tc.want.Max, tc.want.Unit))
		})
	}
}

// The budget of a result is resultdata's narrower sentinel: only its
// limits match it.
func TestOnlyTheBudgetMatchesErrResultTooLarge(t *testing.T) {
	for name, tc := range refusals {
		t.Run(name, func(t *testing.T) {
			budget := tc.want.Limit == "Limits.ResultRows"
			assert.Equal(t, budget, errors.Is(tc.refuse(t), resultdata.ErrResultTooLarge))
		})
	}
}

// A limit no option raises says so, without a package's Go name.
func TestFixedLimitSaysItCannotGoHigher(t *testing.T) {
	err := &limits.Error{Package: "dashboard", Limit: "Options.MaxCellChars", Max: 32767, Unit: "characters", What: "the value of cell A1", Fixed: true}
	assert.Equal(t, "the value of cell A1 exceeds 32767, the most a workbook holds (Options.MaxCellChars cannot go higher)", err.Error())
}

func readPage(t *testing.T, opts *resultdata.Options) error {
	data := threeRows(t)
	for _, err := range resultdata.ReadPage(testCtx(t), bytes.NewReader(data), int64(len(data)), resultdata.Page{ResultID: 7, ID: 1, Name: "Data"}, opts) {
		if err != nil {
			return err
		}
	}
	return nil
}

// stub is a client of a server that answers every request with handler.
func stub(t *testing.T, handler http.HandlerFunc, opts ...facade.Option) *facade.Client {
	mux := http.NewServeMux()
	mux.Handle("/api/v1/", handler)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	c, err := facade.New(srv.URL+"/api/v1", append([]facade.Option{facade.WithAPIKey("k"), facade.WithClock(faketest.NewInstantClock())}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}
