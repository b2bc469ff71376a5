package facade

import (
	"context"
	"errors"
	"iter"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

// tableReaders are the facade's readers of every paged table, by the
// operation they page.
var tableReaders = map[gen.OperationID]func(ctx context.Context, c *Client) iter.Seq2[gen.Row, error]{
	gen.OpGetExperimentRunResultChartTableData: func(ctx context.Context, c *Client) iter.Seq2[gen.Row, error] {
		return c.Results.ChartTableRows(ctx, 10101, 7, nil)
	},
	gen.OpGetLastMileOptimizationOrdersTableData: func(ctx context.Context, c *Client) iter.Seq2[gen.Row, error] {
		return c.LastMile.Orders(ctx, 10101, nil)
	},
	gen.OpGetLastMileOptimizationShipmentsTableData: func(ctx context.Context, c *Client) iter.Seq2[gen.Row, error] {
		return c.LastMile.Shipments(ctx, 10101, nil)
	},
	gen.OpGetLastMileOptimizationMilkRunsTableData: func(ctx context.Context, c *Client) iter.Seq2[gen.Row, error] {
		return c.LastMile.MilkRuns(ctx, 10101, nil)
	},
	gen.OpGetNewVariableParameterTableData: func(ctx context.Context, c *Client) iter.Seq2[gen.Row, error] {
		return c.Variations.NewTableRows(ctx, 10101, ParameterRef{"Customer", "3", "demand"}, gen.VariationTypeNUMBERRANGE, nil)
	},
	gen.OpGetExistingVariableParameterTableData: func(ctx context.Context, c *Client) iter.Seq2[gen.Row, error] {
		return c.Variations.ExistingTableRows(ctx, 10101, 4, ParameterRef{"Customer", "3", "demand"}, gen.VariationTypeNUMBERRANGE, nil)
	},
}

// tablePage is a one-row page of any table model, with the rows under
// field (none when it is "").
func tablePage(field string) string {
	page := `"id":1,"totalEntityCount":2,"totalTechnicalRowCount":2,"type":"TABLE","columns":[],"totalRows":2`
	if field == "" {
		return "{" + page + "}"
	}
	return `{"` + field + `":[{"index":0,"cells":[]},{"index":1,"cells":[]}],` + page + "}"
}

// TestTablePagesReadTheFieldTheSpecNames pages every table operation under
// three shapes of its page: the rows under the field its x-paged-items
// names are read; under another field, or missing, the table is a
// *MalformedError naming the field, never an empty table.
func TestTablePagesReadTheFieldTheSpecNames(t *testing.T) {
	paged := 0
	for _, op := range gen.Operations() {
		if op.Paged && op.Response.Schema != "" && strings.Contains(op.Response.Schema, "Table") {
			paged++
			assert.Contains(t, tableReaders, gen.OperationID(op.ID), "a table operation without a reader in tableReaders")
		}
	}
	require.Equal(t, len(tableReaders), paged)
	for id, read := range tableReaders {
		op, _ := gen.LookupOperation(id)
		other := map[bool]string{true: "rows", false: "entityList"}[op.PagedItems == "entityList"]
		for shape, field := range map[string]string{"named": op.PagedItems, "other": other, "missing": ""} {
			t.Run(op.ID+"/"+shape, func(t *testing.T) {
				_, c := newStub(t, serveBody(tablePage(field)))
				var rows []gen.Row
				var err error
				for row, e := range read(testCtx(t), c) {
					if err = e; e != nil {
						break
					}
					rows = append(rows, row)
				}
				if shape == "named" {
					require.NoError(t, err)
					assert.Len(t, rows, 2)
					return
				}
				var missing *MalformedError
				require.True(t, errors.As(err, &missing), "%d rows and error %v, want a *MalformedError", len(rows), err)
				assert.Equal(t, op.PagedItems, missing.Field)
				assert.Empty(t, rows)
			})
		}
	}
}
