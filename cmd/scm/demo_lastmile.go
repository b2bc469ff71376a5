package main

import (
	"errors"

	"github.com/scmodel/scmgo/gen"
)

// lastMileOrders finds the first scenario with a last mile optimization
// experiment and counts its orders.
func (d *demo) lastMileOrders() error {
	list, err := d.c.Scenarios.List(d.ctx, d.projectID)
	if err != nil {
		return err
	}
	for _, s := range list {
		if s.Type == gen.ScenarioTypeSIM {
			continue // SIM scenarios have no last mile optimization
		}
		if rcID, err := d.experimentOf(s.Id, gen.ExperimentTypeLASTMILEOPTIMIZATION); err == nil {
			d.lastMileRcID = rcID
			d.say("Scenario %d %q: last mile optimization rcId %d.", s.Id, scenarioName(s), rcID)
			break
		}
	}
	if d.lastMileRcID == 0 {
		return errors.New("no scenario of the project has a last mile optimization experiment")
	}
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

func (d *demo) shipmentRows(rcID int64) ([]int64, error) {
	var rows []int64
	for row, err := range d.c.LastMile.Shipments(d.ctx, rcID, nil) {
		if err != nil {
			return nil, err
		}
		rows = append(rows, row.Index)
	}
	return rows, nil
}
