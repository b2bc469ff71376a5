package facade

import (
	"bytes"
	"iter"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

const variationRC = 10105 // the VARIATION experiment of Baseline

var siteCapacity = ParameterRef{ObjectTypeID: "SiteData_SIM_FULL", ObjectID: "103", ParameterID: "period"}

func TestCreateVariableParameterNeedsASelection(t *testing.T) {
	srv, c := newFake(t)
	sitePeriod := siteCapacity.Variation(gen.VariationTypeLINKLIST, nil)
	_, err := c.Variations.Create(testCtx(t), variationRC, sitePeriod)
	assert.ErrorIs(t, err, ErrConflict)
	assert.Contains(t, err.Error(), "createVariableParameter")
	assert.Zero(t, srv.Calls("createVariableParameter"), "refused before the create call")

	sel := gen.ApiBaseIndexSelectionValueRequest{Selected: ptr(true), Selections: []gen.ApiIndexColumnSelection{{RowIndexes: []int64{0, 2}}}}
	_, err = c.Variations.UpdateSelection(testCtx(t), variationRC, ids.NewVariation, siteCapacity, sel)
	require.NoError(t, err)
	v, err := c.Variations.Create(testCtx(t), variationRC, sitePeriod)
	require.NoError(t, err)
	require.NotNil(t, v.Id)
	require.NoError(t, c.Variations.Delete(testCtx(t), variationRC, *v.Id))
}

func TestCreateNewVariableParameterChecksTheSelection(t *testing.T) {
	srv, c := newFake(t)
	req := gen.ApiVariationCreateRequest{RcId: variationRC, ApiVariation: siteCapacity.Variation(gen.VariationTypeLINKLIST, nil)}
	_, err := c.Variations.CreateNew(testCtx(t), req)
	assert.ErrorIs(t, err, ErrConflict)
	assert.Equal(t, 1, srv.Calls("doesVariableParameterHasSelectedData"))
	assert.Zero(t, srv.Calls("createNewVariableParameter"))

	req.TableSelection = &[]gen.ApiIndexColumnSelection{{RowIndexes: []int64{1}}}
	v, err := c.Variations.CreateNew(testCtx(t), req)
	require.NoError(t, err)
	assert.NotNil(t, v.Id)
}

func TestVariationListingsAndTables(t *testing.T) {
	_, c := newFake(t)
	types, err := c.Variations.ObjectTypes(testCtx(t), 101)
	require.NoError(t, err)
	assert.Len(t, types.List, 3)
	var ids []string
	for o, err := range c.Variations.Objects(testCtx(t), 101, "DemandData_SIM_FULL", &PageOptions{PageSize: 6, Prefetch: 2}) {
		require.NoError(t, err)
		ids = append(ids, o.Id)
	}
	assert.Len(t, ids, 20)
	rows := 0
	for _, err := range c.Variations.NewTableRows(testCtx(t), variationRC, siteCapacity, gen.VariationTypeLINKLIST, nil) {
		require.NoError(t, err)
		rows++
	}
	assert.Equal(t, 10, rows)
}

func TestLastMileAddOnlyTheGivenShipments(t *testing.T) {
	srv, c, _ := newVirtualFake(t, 5*time.Second)
	const rc = 10109
	_, err := c.LastMile.SelectOrders(testCtx(t), rc, []int64{0, 1, 2, 3, 4, 5})
	require.NoError(t, err)
	_, err = c.RunAndWait(testCtx(t), rc, nil)
	require.NoError(t, err)
	require.Greater(t, len(selectedRows(t, c.LastMile.Shipments(testCtx(t), rc, nil))), 2, "generated shipments start selected")
	require.Zero(t, scenarioTableRows(t, srv, 101, "Shipments"))

	require.NoError(t, c.LastMile.AddOnlyShipments(testCtx(t), rc, []int64{0, 2}, nil))
	assert.Equal(t, []int64{0, 2}, selectedRows(t, c.LastMile.Shipments(testCtx(t), rc, nil)))
	assert.EqualValues(t, 2, scenarioTableRows(t, srv, 101, "Shipments"))
}

// selectedRows returns the indexes of the selected rows of a table.
func selectedRows(t *testing.T, rows iter.Seq2[gen.Row, error]) []int64 {
	t.Helper()
	var selected []int64
	for row, err := range rows {
		require.NoError(t, err)
		if row.Selected != nil && *row.Selected {
			selected = append(selected, row.Index)
		}
	}
	return selected
}

// scenarioTableRows returns the row count of a table of a scenario of the
// fake (no operation answers it), failing the test when there is none.
func scenarioTableRows(t *testing.T, srv *fake.Server, scenarioID ids.ScenarioID, tableID string) int64 {
	t.Helper()
	tables, ok := srv.ScenarioTables(scenarioID)
	require.True(t, ok, "scenario %d", scenarioID)
	rows, ok := tables[tableID]
	require.True(t, ok, "scenario %d has no table %s", scenarioID, tableID)
	return rows
}

func TestExportPageStreamsAWorkbook(t *testing.T) {
	_, c := newFake(t, fake.WithRunDuration(0))
	out, err := c.Experiments.RunSync(testCtx(t), 10101)
	require.NoError(t, err)
	pages, err := c.Dashboards.Pages(testCtx(t), out.ExperimentResultId)
	require.NoError(t, err)
	d, err := c.Dashboards.ExportPage(testCtx(t), out.ExperimentResultId, pages[0].Id)
	require.NoError(t, err)
	var buf bytes.Buffer
	n, err := d.WriteTo(&buf)
	require.NoError(t, err)
	assert.Positive(t, n)
	book, err := excelize.OpenReader(&buf)
	require.NoError(t, err)
	defer book.Close()
	assert.NotEmpty(t, book.GetSheetList())
}

func TestImportExcelFromPathAndReader(t *testing.T) {
	_, c, _ := newVirtualFake(t, 5*time.Second)
	book := excelize.NewFile()
	require.NoError(t, book.SetSheetName("Sheet1", "Customers"))
	require.NoError(t, book.SetSheetRow("Customers", "A1", &[]any{"id", "name"}))
	require.NoError(t, book.SetSheetRow("Customers", "A2", &[]any{1, "Acme"}))
	path := filepath.Join(t.TempDir(), "in.xlsx")
	require.NoError(t, book.SaveAs(path))
	status, err := c.ImportExcelAndWait(testCtx(t), 1, "From path", UploadFile(path), nil, nil)
	require.NoError(t, err)
	assert.NotNil(t, status.ScenarioId)

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	job, err := c.Imports.Excel(testCtx(t), 1, "From reader", UploadReader("in.xlsx", f), &ImportOptions{Tables: []string{"Customers"}})
	require.NoError(t, err)
	_, err = job.Wait(testCtx(t), nil)
	require.NoError(t, err)

	_, err = c.Imports.Excel(testCtx(t), 1, "Missing", UploadFile(filepath.Join(t.TempDir(), "nope.xlsx")), nil)
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied, "a file that cannot be opened is never sent")
}

func TestRedactionOfSensitiveBodyFields(t *testing.T) {
	srv, _ := newFake(t)
	guard := newGuard(t)
	c := newTestClient(t, srv.URL, WithLogger(sloggerFor(guard)))
	_, err := c.Imports.DatabaseScenarios(testCtx(t), testDB())
	require.NoError(t, err)
	lines := guard.Lines()
	require.Len(t, lines, 1)
	for _, want := range []string{"operation=getScenariosFromImportedDatabase", "method=POST", "path=/api/v1/open/import/scenarios-available-for-import", "status=200", "attempt=1", "duration=", redacted} {
		assert.Contains(t, lines[0], want)
	}
}

// TestOneClientManyGoroutines shares a client among 64 goroutines across
// areas; run it with -race.
func TestOneClientManyGoroutines(t *testing.T) {
	_, c, _ := newVirtualFake(t, time.Second)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			switch i % 6 {
			case 0:
				_, err = c.Projects.List(testCtx(t))
			case 1:
				_, err = c.Scenarios.List(testCtx(t), 1)
			case 2:
				_, err = c.Experiments.List(testCtx(t), 1, 101)
			case 3:
				for _, e := range c.Variations.Objects(testCtx(t), 101, "ProductData_SIM_FULL", &PageOptions{PageSize: 4, Prefetch: 3}) {
					if e != nil {
						err = e
					}
				}
			case 4:
				_, err = c.User.Current(testCtx(t))
			case 5:
				_, err = c.Imports.TablesMeta(testCtx(t))
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
}
