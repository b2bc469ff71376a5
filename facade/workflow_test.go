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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/excelize/v2"
)

const variationRC = 10105 // the VARIATION experiment of Baseline

var siteCapacity = ParameterRef{ObjectTypeID: "SITE", ObjectID: "3", ParameterID: "capacity"}

func TestCreateVariableParameterNeedsASelection(t *testing.T) {
	srv, c := newFake(t)
	_, err := c.Variations.Create(ctxBG, variationRC, gen.ApiVariation{ObjectId: ptr("3"), ObjectTypeId: ptr("SITE"), ParameterId: ptr("capacity"),
		VariationType: ptr(gen.VariationTypeNUMBERRANGE)})
	assert.ErrorIs(t, err, ErrNothingSelected)
	assert.Contains(t, err.Error(), "createVariableParameter")
	assert.Zero(t, srv.Calls("createVariableParameter"), "refused before the create call")

	sel := gen.ApiBaseIndexSelectionValueRequest{Selected: ptr(true), Selections: []gen.ApiIndexColumnSelection{{RowIndexes: []int64{0, 2}}}}
	_, err = c.Variations.UpdateSelection(ctxBG, variationRC, NewVariationID, siteCapacity, sel)
	require.NoError(t, err)
	v, err := c.Variations.Create(ctxBG, variationRC, gen.ApiVariation{ObjectId: ptr("3"), ObjectTypeId: ptr("SITE"), ParameterId: ptr("capacity"),
		VariationType: ptr(gen.VariationTypeNUMBERRANGE)})
	require.NoError(t, err)
	require.NotNil(t, v.Id)
	require.NoError(t, c.Variations.Delete(ctxBG, variationRC, *v.Id))
}

func TestCreateNewVariableParameterChecksTheSelection(t *testing.T) {
	srv, c := newFake(t)
	req := gen.ApiVariationCreateRequest{RcId: variationRC, ObjectTypeId: "SITE", ObjectId: "3", ParameterId: "capacity", VariationType: gen.VariationTypeNUMBERRANGE}
	_, err := c.Variations.CreateNew(ctxBG, req)
	assert.ErrorIs(t, err, ErrNothingSelected)
	assert.Equal(t, 1, srv.Calls("doesVariableParameterHasSelectedData"))
	assert.Zero(t, srv.Calls("createNewVariableParameter"))

	req.TableSelection = &[]gen.ApiIndexColumnSelection{{RowIndexes: []int64{1}}}
	v, err := c.Variations.CreateNew(ctxBG, req)
	require.NoError(t, err)
	assert.NotNil(t, v.Id)
}

func TestVariationListingsAndTables(t *testing.T) {
	_, c := newFake(t)
	types, err := c.Variations.ObjectTypes(ctxBG, 101)
	require.NoError(t, err)
	assert.Len(t, types.Options, 3)
	var ids []string
	for o, err := range c.Variations.Objects(ctxBG, 101, "SITE", &PageOptions{PageSize: 6, Prefetch: 2}) {
		require.NoError(t, err)
		ids = append(ids, o.Id)
	}
	assert.Len(t, ids, 20)
	rows := 0
	for _, err := range c.Variations.NewTableRows(ctxBG, variationRC, siteCapacity, gen.VariationTypeNUMBERRANGE, nil) {
		require.NoError(t, err)
		rows++
	}
	assert.Equal(t, 10, rows)
}

func TestLastMileAddOnlyTheGivenShipments(t *testing.T) {
	_, c, _ := newVirtualFake(t, 5*time.Second)
	const rc = 10109
	_, err := c.LastMile.SelectOrders(ctxBG, rc, []int64{0, 1, 2, 3, 4, 5})
	require.NoError(t, err)
	_, err = c.RunAndWait(ctxBG, rc, nil)
	require.NoError(t, err)
	require.Greater(t, len(selectedRows(t, c.LastMile.Shipments(ctxBG, rc, nil))), 2, "generated shipments start selected")
	require.Zero(t, scenarioTableRows(t, c, 1, 101, "Shipments"))

	require.NoError(t, c.LastMile.AddOnlyShipments(ctxBG, rc, []int64{0, 2}, nil))
	assert.Equal(t, []int64{0, 2}, selectedRows(t, c.LastMile.Shipments(ctxBG, rc, nil)))
	assert.EqualValues(t, 2, scenarioTableRows(t, c, 1, 101, "Shipments"))
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

// scenarioTableRows returns the row count getScenarios reports for a table
// of a scenario, failing the test when the table is not listed.
func scenarioTableRows(t *testing.T, c *Client, projectID, scenarioID int64, tableID string) int64 {
	t.Helper()
	scenarios, err := c.Scenarios.List(ctxBG, projectID)
	require.NoError(t, err)
	for _, s := range scenarios {
		if s.Id != scenarioID || s.Tables == nil {
			continue
		}
		for _, tb := range *s.Tables {
			if tb.Id == tableID {
				require.NotNil(t, tb.RowCount, "row count of table %s", tableID)
				return *tb.RowCount
			}
		}
	}
	require.Failf(t, "table not listed", "scenario %d of project %d has no table %s", scenarioID, projectID, tableID)
	return 0
}

func TestExportPageStreamsAWorkbook(t *testing.T) {
	_, c := newFake(t, fake.WithRunDuration(0))
	out, err := c.Experiments.RunSync(ctxBG, 10101)
	require.NoError(t, err)
	d, err := c.Results.ExportPage(ctxBG, out.ExperimentResultId, 1)
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
	status, err := c.ImportExcelAndWait(ctxBG, 1, "From path", UploadFile(path), nil, nil)
	require.NoError(t, err)
	assert.NotNil(t, status.ScenarioId)

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	job, err := c.Imports.Excel(ctxBG, 1, "From reader", UploadReader("in.xlsx", f), &ImportOptions{Tables: []string{"Customers"}})
	require.NoError(t, err)
	_, err = job.Wait(ctxBG, nil)
	require.NoError(t, err)

	_, err = c.Imports.Excel(ctxBG, 1, "Missing", UploadFile(filepath.Join(t.TempDir(), "nope.xlsx")), nil)
	require.Error(t, err)
	assert.NotErrorIs(t, err, ErrMayHaveBeenApplied, "a file that cannot be opened is never sent")
}

func TestRedactionOfSensitiveBodyFields(t *testing.T) {
	srv, _ := newFake(t)
	guard := newGuard(t)
	c := newTestClient(t, srv.URL, WithLogger(sloggerFor(guard)))
	_, err := c.Imports.DatabaseScenarios(ctxBG, testDB())
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
				_, err = c.Projects.List(ctxBG)
			case 1:
				_, err = c.Scenarios.List(ctxBG, 1)
			case 2:
				_, err = c.Experiments.List(ctxBG, 1, 101)
			case 3:
				for _, e := range c.Variations.Objects(ctxBG, 101, "PRODUCT", &PageOptions{PageSize: 4, Prefetch: 3}) {
					if e != nil {
						err = e
					}
				}
			case 4:
				_, err = c.User.Current(ctxBG)
			case 5:
				_, err = c.Imports.TablesMeta(ctxBG)
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
