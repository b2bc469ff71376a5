package main

import (
	"errors"
	"slices"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// findLastMile finds the first scenario with a last mile optimization
// experiment, among those the demo did not create.
func (d *demo) findLastMile() error {
	list, err := d.c.Scenarios.List(d.ctx, d.projectID)
	if err != nil {
		return err
	}
	for _, s := range list {
		if s.Type == gen.ScenarioTypeSIM || slices.Contains(d.created, s.Id) {
			continue // SIM scenarios have no last mile optimization
		}
		if rcID, err := d.experimentOf(s.Id, gen.ExperimentTypeLASTMILEOPTIMIZATION); err == nil {
			d.lastMileScenario, d.lastMileRcID = s, rcID
			d.say("Scenario %d %q: last mile optimization rcId %d.", s.Id, scenarioName(s), rcID)
			return nil
		}
	}
	return errors.New("no scenario of the project has a last mile optimization experiment")
}

// copyLastMile copies the scenario of the last mile optimization: the
// shipments are added to the copy.
func (d *demo) copyLastMile() error {
	cp, err := d.copyScenario(d.lastMileScenario)
	if err != nil {
		return err
	}
	rcID, err := d.experimentOf(cp.Id, gen.ExperimentTypeLASTMILEOPTIMIZATION)
	if err != nil {
		return err
	}
	d.lastMileScenario, d.lastMileRcID = cp, rcID
	d.say("The copy's last mile optimization: rcId %d.", rcID)
	return nil
}

// lastMileOrders counts the orders of the last mile optimization.
func (d *demo) lastMileOrders() error {
	for _, err := range d.c.LastMile.Orders(d.ctx, d.lastMileRcID, nil) {
		if err != nil {
			return err
		}
		d.orders++
	}
	d.say("%d orders.", d.orders)
	return nil
}

// lastMile selects orders, deselects one of the shipments they generate,
// and adds the selected ones: only those are added.
func (d *demo) lastMile() error {
	rcID := d.lastMileRcID
	picked := []int64{0, 1, 2, 3, 4, 5}[:min(6, d.orders)]
	if _, err := d.c.LastMile.SelectOrders(d.ctx, rcID, picked); err != nil {
		return err
	}
	d.say("Selected %d of the %d orders.", len(picked), d.orders)
	shipments, err := d.shipmentRows(rcID)
	if err != nil {
		return err
	}
	d.generated = len(shipments)
	if len(shipments) == 0 {
		return errors.New("no shipments were generated from the selected orders")
	}
	if _, err := d.c.LastMile.DeselectShipments(d.ctx, rcID, shipments[:1]); err != nil {
		return err
	}
	d.say("%d shipments generated; deselected shipment %d.", len(shipments), shipments[0])
	if err := d.c.LastMile.AddSelectedShipments(d.ctx, rcID, nil); err != nil {
		return err
	}
	d.added = len(shipments) - 1
	d.say("Added the %d selected shipments to the scenario.", d.added)
	return nil
}

func (d *demo) shipmentRows(rcID ids.RcID) ([]int64, error) {
	var rows []int64
	for row, err := range d.c.LastMile.Shipments(d.ctx, rcID, nil) {
		if err != nil {
			return nil, err
		}
		rows = append(rows, row.Index)
	}
	return rows, nil
}
