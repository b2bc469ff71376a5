package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

func (d *demo) results() error {
	rcID := d.rcID
	var statPage string
	for p, err := range d.c.Results.Result(d.ctx, rcID, &facade.PageOptions{MaxItems: 3}) {
		if err != nil {
			return err
		}
		d.say("Result page %-8s %-24s (%d charts)", p.Page.Id, p.Page.Name, len(p.Charts))
		if statPage == "" {
			statPage = p.Page.Id
		}
	}
	pages, err := d.c.Results.DashboardPages(d.ctx, d.resultID)
	if err != nil {
		return err
	}
	for _, p := range pages {
		d.say("Dashboard page %d  %s (%d charts)", p.Id, p.Name, len(deref(p.Charts)))
	}
	if len(pages) == 0 {
		return errors.New("the result has no dashboard pages")
	}
	return d.charts(rcID, statPage)
}

func (d *demo) charts(rcID int64, pageID string) error {
	charts, err := d.c.Results.PageCharts(d.ctx, rcID, pageID)
	if err != nil {
		return err
	}
	for _, ch := range charts {
		d.say("Chart %d  %-28s %s", ch.Id, ch.Name, deref(ch.ChartType))
		switch deref(ch.ChartType) {
		case "GRAPH":
			err = d.graph(rcID, ch.Id)
		case "TABLE":
			err = d.table(rcID, ch.Id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *demo) graph(rcID, chartID int64) error {
	g, err := d.c.Results.ChartGraph(d.ctx, rcID, chartID)
	if err != nil {
		return err
	}
	points := 0
	for _, s := range g.Graphs {
		points += len(deref(s.Points))
	}
	d.say("  %d series, %d points.", len(g.Graphs), points)
	return nil
}

// table pages through a table chart with the iterator, 20 rows a request.
func (d *demo) table(rcID, chartID int64) error {
	n := 0
	for row, err := range d.c.Results.ChartTableRows(d.ctx, rcID, chartID, &facade.PageOptions{PageSize: 20}) {
		if err != nil {
			return err
		}
		if n < 2 {
			d.say("  row %d: %s", row.Index, cellsText(row.Cells))
		}
		n++
	}
	d.rows += n
	d.say("  %d rows, read 20 at a time.", n)
	return nil
}

func cellsText(cells []gen.Cell) string {
	var out []string
	for _, c := range cells {
		out = append(out, string(deref(c.Value)))
	}
	return fmt.Sprint(out)
}

// export writes every dashboard page of the result into one workbook in
// the working directory, a sheet per page.
func (d *demo) export() error {
	name := "scm-demo-dashboard-" + strconv.FormatInt(d.resultID, 10) + ".xlsx"
	if err := d.exportDashboard(d.ctx, d.c, d.resultID, name); err != nil {
		return err
	}
	abs, _ := filepath.Abs(name)
	d.exported = abs
	sheets, err := workbookSheets(abs)
	if err != nil {
		return err
	}
	d.pages = len(sheets)
	d.say("Wrote %s: a sheet per dashboard page %v.", abs, sheets)
	return nil
}

// workbookSheets opens a workbook and lists its sheets: proof it is one.
func workbookSheets(path string) ([]string, error) {
	f, err := excelize.OpenFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s is not a workbook: %w", path, err)
	}
	defer f.Close()
	return f.GetSheetList(), nil
}

func (d *demo) lastMile() error {
	rcID, err := d.experiment(gen.ExperimentTypeLASTMILEOPTIMIZATION)
	if err != nil {
		return err
	}
	orders := 0
	for _, err := range d.c.LastMile.Orders(d.ctx, rcID, nil) {
		if err != nil {
			return err
		}
		orders++
	}
	picked := []int64{0, 1, 2, 3, 4, 5}
	if _, err := d.c.LastMile.SelectOrders(d.ctx, rcID, picked); err != nil {
		return err
	}
	d.say("%d orders; selected %d of them.", orders, len(picked))
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
	return d.addShipments(rcID, len(shipments)-1)
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

// addShipments adds the selected shipments to the scenario.
func (d *demo) addShipments(rcID int64, want int) error {
	if err := d.c.LastMile.AddSelectedShipments(d.ctx, rcID, nil); err != nil {
		return err
	}
	d.added = want
	d.say("Added the %d selected shipments to the scenario.", want)
	return nil
}

func (d *demo) finish() error {
	drop, err := d.c.User.DropLicense(d.ctx)
	if err != nil {
		return err
	}
	d.say("License dropped: %t.", drop.Dropped)
	closed, err := d.c.Projects.Close(d.ctx)
	if err != nil {
		return err
	}
	d.say("Closed project %d.", closed.Id)
	return nil
}
