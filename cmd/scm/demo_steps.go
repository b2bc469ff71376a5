package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

func (d *demo) importWorkbook() error {
	path, err := writeDemoWorkbook(os.TempDir())
	if err != nil {
		return err
	}
	defer os.Remove(path)
	d.say("Wrote a workbook: %s.", sheetSummary())
	name := "Demo import " + time.Now().Format("15:04:05")
	job, err := d.c.Imports.Excel(d.ctx, d.projectID, name, facade.UploadFile(path), nil)
	if err != nil {
		return err
	}
	d.say("Import job %d started.", job.JobID)
	if err := d.showJob(d.ctx, job, interactivePoll()); err != nil {
		return err
	}
	final, err := job.Result()
	if err != nil {
		return err
	}
	d.scenarioID = deref(final.ScenarioId)
	d.say("Import %s: new scenario %d %q.", final.Status, d.scenarioID, name)
	return nil
}

// demoSheets are the tables of the demo workbook and their row counts.
var demoSheets = []struct {
	name string
	rows int
}{{"Customers", 8}, {"Sites", 4}, {"Products", 5}, {"Orders", 12}}

func sheetSummary() string {
	var parts []string
	for _, s := range demoSheets {
		parts = append(parts, fmt.Sprintf("%s (%d rows)", s.name, s.rows))
	}
	return strings.Join(parts, ", ")
}

// writeDemoWorkbook writes a small supply-chain workbook, a sheet per table.
func writeDemoWorkbook(dir string) (string, error) {
	f := excelize.NewFile()
	defer f.Close()
	for i, sheet := range demoSheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", sheet.name); err != nil {
				return "", err
			}
		} else if _, err := f.NewSheet(sheet.name); err != nil {
			return "", err
		}
		if err := f.SetSheetRow(sheet.name, "A1", &[]any{"Id", "Name", "Quantity"}); err != nil {
			return "", err
		}
		for r := 1; r <= sheet.rows; r++ {
			row := []any{r, fmt.Sprintf("%s %d", sheet.name, r), r * 10}
			if err := f.SetSheetRow(sheet.name, "A"+strconv.Itoa(r+1), &row); err != nil {
				return "", err
			}
		}
	}
	path := filepath.Join(dir, fmt.Sprintf("scm-demo-import-%d.xlsx", os.Getpid()))
	return path, f.SaveAs(path)
}

// experiment finds the scenario's experiment of a type.
func (d *demo) experiment(t gen.ExperimentType) (int64, error) {
	list, err := d.c.Experiments.List(d.ctx, d.projectID, d.scenarioID)
	if err != nil {
		return 0, err
	}
	for _, e := range list {
		if e.Type == t {
			return e.Id, nil
		}
	}
	return 0, fmt.Errorf("scenario %d has no %s experiment", d.scenarioID, t)
}

func (d *demo) experiments() error {
	list, err := d.c.Experiments.List(d.ctx, d.projectID, d.scenarioID)
	if err != nil {
		return err
	}
	for _, e := range list {
		d.say("Experiment %-6d %s", e.Id, e.Type)
	}
	rcID, err := d.experiment(gen.ExperimentTypeSIMULATION)
	if err != nil {
		return err
	}
	d.rcID = rcID
	return d.changeReplications(rcID)
}

// changeReplications reads the simulation's run configuration, changes one
// field and writes it back whole: fields the SDK does not model are kept.
func (d *demo) changeReplications(rcID int64) error {
	wrapper, err := d.c.Experiments.RunConfiguration(d.ctx, rcID)
	if err != nil {
		return err
	}
	if wrapper.RunConfiguration == nil {
		return fmt.Errorf("run configuration %d has no settings", rcID)
	}
	sim, err := wrapper.RunConfiguration.AsApiSimulationRunConfiguration()
	if err != nil {
		return err
	}
	before := deref(sim.Replications)
	sim.Replications = ptr(before + 1)
	if err := wrapper.RunConfiguration.FromApiSimulationRunConfiguration(sim); err != nil {
		return err
	}
	updated, err := d.c.Experiments.UpdateRunConfiguration(d.ctx, rcID, *wrapper)
	if err != nil {
		return err
	}
	after, err := updated.RunConfiguration.AsApiSimulationRunConfiguration()
	if err != nil {
		return err
	}
	d.say("Simulation rcId %d: replications %d -> %d, written back with every other field kept.", rcID, before, deref(after.Replications))
	return nil
}

func ptr[T any](v T) *T { return &v }

// run runs the simulation synchronously: the call returns when the run is
// done, with the experimentResultId its results are read by.
func (d *demo) run() error {
	d.say("Running the simulation %d; the call returns when the run is done.", d.rcID)
	start := time.Now()
	out, err := d.c.Experiments.RunSync(d.ctx, d.rcID)
	if err != nil {
		return err
	}
	d.resultID = out.ExperimentResultId
	d.say("Run of rcId %d finished after %s: experimentResultId %d.", d.rcID, time.Since(start).Round(100*time.Millisecond), d.resultID)
	return nil
}
