package facade

import (
	"context"
	"iter"
	"slices"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// selectOnly makes rows the only selected records of a table: it deselects
// every other selected record, then selects rows. addOp names the add
// operation the selection is for, in validation errors.
func (s *LastMileService) selectOnly(ctx context.Context, addOp gen.OperationID, table iter.Seq2[gen.Row, error], ops selectionOps, rcID ids.RcID, rows []int64) error {
	if err := check(addOp).rc(rcID).rows("rowIndexes", rows).done(); err != nil {
		return err
	}
	var extra []int64
	for row, err := range table {
		if err != nil {
			return err
		}
		if row.Selected != nil && *row.Selected && !slices.Contains(rows, row.Index) {
			extra = append(extra, row.Index)
		}
	}
	if len(extra) > 0 {
		if _, err := s.selection(ctx, ops.deselectRows, rcID, extra); err != nil {
			return err
		}
	}
	_, err := s.selection(ctx, ops.selectRows, rcID, rows)
	return err
}

// AddOnlyShipments adds exactly the shipments at the given row indexes to
// the scenario: it deselects every other selected shipment, selects these,
// then adds the selection. opts may be nil.
//
//scm:helper
func (s *LastMileService) AddOnlyShipments(ctx context.Context, rcID ids.RcID, rows []int64, opts *AddOptions) error {
	const op = gen.OpAddLastMileOptimizationShipmentsToScenario
	if err := s.selectOnly(ctx, op, s.Shipments(ctx, rcID, nil), shipmentSelection, rcID, rows); err != nil {
		return err
	}
	return s.AddSelectedShipments(ctx, rcID, opts)
}

// AddOnlyMilkRuns adds exactly the milk runs at the given row indexes to
// the scenario: it deselects every other selected milk run, selects these,
// then adds the selection. opts may be nil.
//
//scm:helper
func (s *LastMileService) AddOnlyMilkRuns(ctx context.Context, rcID ids.RcID, rows []int64, opts *AddOptions) error {
	const op = gen.OpAddLastMileOptimizationMilkRunsToScenario
	if err := s.selectOnly(ctx, op, s.MilkRuns(ctx, rcID, nil), milkRunSelection, rcID, rows); err != nil {
		return err
	}
	return s.AddSelectedMilkRuns(ctx, rcID, opts)
}
