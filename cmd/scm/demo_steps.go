package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

func (d *demo) user() error {
	u, err := d.c.User.Current(d.ctx)
	if err != nil {
		return err
	}
	d.me = u
	d.say("Signed in as %s (%s), user %d. A license is requested only when a run needs one.", u.Username, strings.TrimSpace(u.FirstName+" "+u.LastName), u.Id)
	return nil
}

// projects lists the projects and takes the first, noting the one the
// user had open: the end of the session leaves it so.
func (d *demo) projects() error {
	list, err := d.c.Projects.List(d.ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return errors.New("the server lists no projects")
	}
	for _, p := range list {
		open := ""
		if p.CurrentUserId != nil && d.me != nil && *p.CurrentUserId == d.me.Id {
			open, d.openBefore = "  (open: yours)", p.Id
		}
		d.say("Project %d  %s%s", p.Id, p.Name, open)
	}
	d.projectID, d.projectName = list[0].Id, list[0].Name
	return nil
}

func (d *demo) openProject() error {
	opened, err := d.c.Projects.OpenByName(d.ctx, d.projectName, nil)
	if err != nil {
		return err
	}
	d.projectID = opened.Id
	d.say("Opened project %q by its whole name (fullMatch=true): id %d.", opened.Name, opened.Id)
	return nil
}

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
	d.say("Import job %d started (needToImportExperiments=true: without it a real server makes no scenario).", job.JobID)
	if err := d.showJob(d.ctx, job, interactivePoll()); err != nil {
		return err
	}
	final, err := job.Result()
	if err != nil {
		return err
	}
	d.importedID = deref(final.ScenarioId)
	d.created = append(d.created, d.importedID)
	d.say("Import %s: new scenario %d %q.", final.Status, d.importedID, name)
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

// scenarios lists the project's scenarios and takes the first SIM one,
// whose SIMULATION the demo runs. Names need not be unique: ids tell them
// apart.
func (d *demo) scenarios() error {
	list, err := d.c.Scenarios.List(d.ctx, d.projectID)
	if err != nil {
		return err
	}
	for _, s := range list {
		mark := ""
		switch {
		case s.Id == d.importedID:
			mark = "  <- just imported"
		case d.scenarioID == 0 && s.Type == gen.ScenarioTypeSIM:
			d.scenarioID, d.source, mark = s.Id, s, "  <- the one to simulate"
		}
		d.say("Scenario %-5d %-24s %s%s", s.Id, scenarioName(s), s.Type, mark)
	}
	if d.scenarioID == 0 {
		return fmt.Errorf("project %d has no SIM scenario to simulate", d.projectID)
	}
	return nil
}

// copySimulation copies the SIM scenario: the steps that change state work
// on the copy.
func (d *demo) copySimulation() error {
	cp, err := d.copyScenario(d.source)
	if err != nil {
		return err
	}
	d.scenarioID = cp.Id
	return nil
}

// copyScenario copies a scenario as its own type and returns the copy,
// which the demo then counts among those it created.
func (d *demo) copyScenario(src gen.ApiScenarioData) (gen.ApiScenarioData, error) {
	cp, err := d.c.Scenarios.CopySync(d.ctx, src.Id, src.Type, nil)
	if err != nil {
		return gen.ApiScenarioData{}, err
	}
	if cp.Id == 0 {
		return gen.ApiScenarioData{}, fmt.Errorf("the copy of scenario %d answered no scenario id", src.Id)
	}
	d.created = append(d.created, cp.Id)
	d.say("Copied scenario %d %q into new scenario %d (%s): the demo changes the copy, never scenario %d.",
		src.Id, scenarioName(src), cp.Id, cp.Type, src.Id)
	return *cp, nil
}

// experimentOf finds a scenario's experiment of a type.
func (d *demo) experimentOf(scenarioID ids.ScenarioID, t gen.ExperimentType) (ids.RcID, error) {
	list, err := d.c.Experiments.List(d.ctx, d.projectID, scenarioID)
	if err != nil {
		return 0, err
	}
	for _, e := range list {
		if e.Type == t {
			return e.Id, nil
		}
	}
	return 0, fmt.Errorf("scenario %d has no %s experiment", scenarioID, t)
}

func (d *demo) experiments() error {
	list, err := d.c.Experiments.List(d.ctx, d.projectID, d.scenarioID)
	if err != nil {
		return err
	}
	for _, e := range list {
		d.say("rcId %-6d %-22s %s", e.Id, e.Type, e.Name)
		if e.Type == gen.ExperimentTypeSIMULATION {
			d.rcID = e.Id
		}
	}
	if d.rcID == 0 {
		return fmt.Errorf("scenario %d has no SIMULATION experiment", d.scenarioID)
	}
	return nil
}

// changeReplications reads the simulation's run configuration, changes one
// field and writes it back whole: fields the SDK does not model are kept.
func (d *demo) changeReplications() error {
	wrapper, err := d.c.Experiments.RunConfiguration(d.ctx, d.rcID)
	if err != nil {
		return err
	}
	if wrapper.RunConfiguration == nil {
		return fmt.Errorf("run configuration %d has no settings", d.rcID)
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
	updated, err := d.c.Experiments.UpdateRunConfiguration(d.ctx, d.rcID, *wrapper)
	if err != nil {
		return err
	}
	after, err := updated.RunConfiguration.AsApiSimulationRunConfiguration()
	if err != nil {
		return err
	}
	d.say("Simulation rcId %d: replications %d -> %d, written back with every other field kept.", d.rcID, before, deref(after.Replications))
	return nil
}

func ptr[T any](v T) *T { return &v }

// run runs the simulation synchronously: the call returns when the run is
// done, with the experimentResultId its results are read by. A server that
// refuses for want of a license gets a license request, and the run is
// sent again; the demo then drops that license at the end.
func (d *demo) run() error {
	out, err := d.runSync()
	if errors.Is(err, facade.ErrForbidden) && !d.tookLicense {
		d.say("Refused: %s. The user holds no license: requesting one.", serverMessage(err))
		if err := d.requestLicense(); err != nil {
			return err
		}
		out, err = d.runSync()
	}
	if err != nil {
		return err
	}
	d.resultID = out.ExperimentResultId
	return nil
}

func (d *demo) runSync() (*gen.ApiExperimentResult, error) {
	d.say("Running the simulation %d; the call returns when the run is done.", d.rcID)
	start := time.Now()
	out, err := d.runC.Experiments.RunSync(d.ctx, d.rcID)
	if err == nil {
		d.say("Run of rcId %d finished after %s: %s, experimentResultId %d.", d.rcID,
			time.Since(start).Round(100*time.Millisecond), out.ValidationStatus, out.ExperimentResultId)
	}
	return out, err
}

func (d *demo) requestLicense() error {
	lic, err := d.c.User.RequestLicense(d.ctx)
	if err != nil {
		return err
	}
	d.tookLicense = lic.Granted
	d.say("Requested a license: granted=%t, type %s; the demo drops it at the end.", lic.Granted, orDash(deref(lic.LicenseType)))
	return nil
}

// latestRun finds, without running anything, the simulation's latest run
// and whether it finished: its id is the result the next steps read.
func (d *demo) latestRun() error {
	latest, err := d.c.Experiments.LatestRun(d.ctx, d.rcID)
	if err != nil {
		return err
	}
	if latest == nil {
		d.say("rcId %d never ran: there is no result to read, and a read-only demo starts no run.", d.rcID)
		return nil
	}
	st, err := d.c.Experiments.Status(d.ctx, d.rcID)
	if err != nil {
		return err
	}
	state := facade.RunStateValue(st)
	d.say("Latest run of rcId %d: %q (run %d), %s.", d.rcID, latest.Name, latest.Id, state)
	if state == facade.RunFinished {
		d.resultID = latest.RcId // a listed run's rcId is its experimentResultId
	}
	return nil
}

// serverMessage is the server's message of an API error, else the error.
func serverMessage(err error) string {
	var apiErr *facade.APIError
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		return fmt.Sprintf("%q (%d)", apiErr.Message, apiErr.StatusCode)
	}
	return err.Error()
}
