package facade

import (
	"context"
	"iter"
	"slices"

	"github.com/scmodel/scmgo/gen"
)

// exactSelection makes rows the only selected records of a table: it
// deselects every other selected record, then selects rows.
func exactSelection(ctx context.Context, table iter.Seq2[gen.Row, error], rows []int64,
	deselect, sel func(context.Context, []int64) error) error {
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
		if err := deselect(ctx, extra); err != nil {
			return err
		}
	}
	return sel(ctx, rows)
}

// AddOnlyShipments adds exactly the shipments at the given row indexes to
// the scenario: it deselects every other selected shipment, selects these,
// then adds the selection. opts may be nil.
//
//scm:helper
func (s *LastMileService) AddOnlyShipments(ctx context.Context, rcID int64, rows []int64, opts *AddOptions) error {
	if err := check("addLastMileOptimizationShipmentsToScenario").id("rcId", rcID).rows("rowIndexes", rows).done(); err != nil {
		return err
	}
	err := exactSelection(ctx, s.Shipments(ctx, rcID, nil), rows,
		func(ctx context.Context, r []int64) error { _, err := s.DeselectShipments(ctx, rcID, r); return err },
		func(ctx context.Context, r []int64) error { _, err := s.SelectShipments(ctx, rcID, r); return err })
	if err != nil {
		return err
	}
	return s.AddSelectedShipments(ctx, rcID, opts)
}

// AddOnlyMilkRuns adds exactly the milk runs at the given row indexes to
// the scenario: it deselects every other selected milk run, selects these,
// then adds the selection. opts may be nil.
//
//scm:helper
func (s *LastMileService) AddOnlyMilkRuns(ctx context.Context, rcID int64, rows []int64, opts *AddOptions) error {
	if err := check("addLastMileOptimizationMilkRunsToScenario").id("rcId", rcID).rows("rowIndexes", rows).done(); err != nil {
		return err
	}
	err := exactSelection(ctx, s.MilkRuns(ctx, rcID, nil), rows,
		func(ctx context.Context, r []int64) error { _, err := s.DeselectMilkRuns(ctx, rcID, r); return err },
		func(ctx context.Context, r []int64) error { _, err := s.SelectMilkRuns(ctx, rcID, r); return err })
	if err != nil {
		return err
	}
	return s.AddSelectedMilkRuns(ctx, rcID, opts)
}
