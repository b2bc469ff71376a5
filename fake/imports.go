package fake

import (
	"context"
	"fmt"
	"mime/multipart"
	"path/filepath"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// databaseScenarios are the scenarios the external database offers.
var databaseScenarios = []string{"DB Scenario A", "DB Scenario B", "DB Scenario C"}

// noTablesFailure is why a job with nothing to import fails.
func noTablesFailure(tables []tableData, filter []string) string {
	if len(tables) > 0 {
		return ""
	}
	if len(filter) > 0 {
		return "no table to import: no sheet matches tableIDsToImport " + strings.Join(filter, ", ")
	}
	return "no table to import: the workbook has no sheets"
}

// workbookUpload is the form of an Excel import with the tables of its
// workbook that tableIDsToImport keeps, and why the import job will fail
// ("" when there are tables to import).
type workbookUpload struct {
	*form
	tables  []tableData
	failure string
}

// readWorkbookUpload streams the form, reads the workbook's tables within
// the limits and removes the spooled file.
func readWorkbookUpload(ctx context.Context, body *multipart.Reader, limits WorkbookLimits) (workbookUpload, error) {
	f, err := readForm(opFrom(ctx), body, true)
	if err != nil {
		return workbookUpload{}, err
	}
	defer f.close()
	filter := f.list("tableIDsToImport")
	tables, err := workbookTables(ctx, f.filePath, filter, limits)
	if err != nil {
		return workbookUpload{}, err
	}
	return workbookUpload{form: f, tables: tables, failure: noTablesFailure(tables, filter)}, nil
}

func (s *service) ImportExcel(ctx context.Context, req genserver.ImportExcelRequestObject) (genserver.ImportExcelResponseObject, error) {
	u, err := readWorkbookUpload(ctx, req.Body, s.w.cfg.workbook)
	if err != nil {
		return nil, err
	}
	w := s.w
	now := w.lock()
	defer w.unlock()
	projectID, name := ids.ProjectID(u.int64("projectId")), u.str("newScenarioName")
	if _, err := w.project(projectID); err != nil {
		return nil, err
	}
	finish := createScenario(projectID, name, u.tables)
	if !u.bool("needToImportExperiments") {
		finish = importNothing
	}
	j := w.startJob(now, u.failure, finish)
	return genserver.ImportExcel200JSONResponse(j.response()), nil
}

// importNothing is the finish of an Excel import without
// needToImportExperiments=true: a real server ended such jobs DONE, and no
// scenario appeared.
func importNothing(*world) (*scenario, error) { return nil, nil }

func (s *service) ImportExcelExisting(ctx context.Context, req genserver.ImportExcelExistingRequestObject) (genserver.ImportExcelExistingResponseObject, error) {
	u, err := readWorkbookUpload(ctx, req.Body, s.w.cfg.workbook)
	if err != nil {
		return nil, err
	}
	w := s.w
	now := w.lock()
	defer w.unlock()
	sc, err := w.scenarioInProject(ids.ScenarioID(u.int64("scenarioId")), ids.ProjectID(u.int64("projectId")))
	if err != nil {
		return nil, err
	}
	finish := addTablesTo(sc.id, u.tables, u.bool("overwriteExistingTables"))
	if !u.bool("needToImportExperiments") {
		finish = importNothing
	}
	j := w.startJob(now, u.failure, finish)
	return genserver.ImportExcelExisting200JSONResponse{j.response()}, nil
}

// createScenario returns a job's finish that makes a SIM scenario holding
// the tables: every scenario a real server was seen to list was a
// simulation scenario (its experiments were SIMULATION, VARIATION,
// COMPARISON, SAFETY_STOCK and RISK_ANALYSIS).
func createScenario(projectID ids.ProjectID, name string, tables []tableData) func(*world) (*scenario, error) {
	return func(w *world) (*scenario, error) {
		return w.newScenario(projectID, name, gen.ScenarioTypeSIM, tables), nil
	}
}

// addTablesTo returns a job's finish that adds the tables' rows to a
// scenario, replacing existing rows when overwrite is set.
func addTablesTo(scenarioID ids.ScenarioID, tables []tableData, overwrite bool) func(*world) (*scenario, error) {
	return func(w *world) (*scenario, error) {
		sc, err := w.scenario(scenarioID)
		if err != nil {
			return nil, fmt.Errorf("the target scenario %d was deleted", scenarioID)
		}
		sc.addTables(tables, overwrite)
		return sc, nil
	}
}

func (w *world) scenarioInProject(scenarioID ids.ScenarioID, projectID ids.ProjectID) (*scenario, error) {
	if _, err := w.project(projectID); err != nil {
		return nil, err
	}
	sc, err := w.scenario(scenarioID)
	if err != nil {
		return nil, err
	}
	if sc.projectID != projectID {
		return nil, failure("scenarioId %d: not in projectId %d", scenarioID, projectID)
	}
	return sc, nil
}

// ImportScenario imports a scenario file synchronously; the new scenario is
// named after the file's base name and holds the catalogue's tables.
func (s *service) ImportScenario(ctx context.Context, req genserver.ImportScenarioRequestObject) (genserver.ImportScenarioResponseObject, error) {
	f, err := readForm(opFrom(ctx), req.Body, false)
	if err != nil {
		return nil, err
	}
	w := s.w
	w.lock()
	defer w.unlock()
	projectID := ids.ProjectID(f.int64("projectId"))
	if _, err := w.project(projectID); err != nil {
		return nil, err
	}
	sc := w.newScenario(projectID, baseName(f.fileName), gen.ScenarioTypeSIM, seededTables())
	return genserver.ImportScenario200JSONResponse(scenarioData(sc)), nil
}

// baseName is an uploaded file's name without its directory and extension,
// the name the real server gives an imported scenario.
func baseName(fileName string) string {
	base := filepath.Base(strings.ReplaceAll(fileName, `\`, "/"))
	name := strings.TrimSuffix(base, filepath.Ext(base))
	if name == "" || name == "." || name == "/" {
		return "Imported scenario"
	}
	return name
}

// ImportScenarioExisting imports a scenario file into a scenario
// synchronously: the catalogue's tables (those of tableIDsToImport) are added,
// replacing the rows with cleanTables, and the scenario takes the file's base
// name, as the real server's answer was named.
func (s *service) ImportScenarioExisting(ctx context.Context, req genserver.ImportScenarioExistingRequestObject) (genserver.ImportScenarioExistingResponseObject, error) {
	f, err := readForm(opFrom(ctx), req.Body, false)
	if err != nil {
		return nil, err
	}
	tables, err := catalogueTables(f.list("tableIDsToImport"))
	if err != nil {
		return nil, err
	}
	w := s.w
	w.lock()
	defer w.unlock()
	sc, err := w.scenarioInProject(ids.ScenarioID(f.int64("scenarioId")), ids.ProjectID(f.int64("projectId")))
	if err != nil {
		return nil, err
	}
	sc.addTables(tables, f.bool("cleanTables"))
	w.renameScenario(sc, baseName(f.fileName))
	return genserver.ImportScenarioExisting200JSONResponse(scenarioData(sc)), nil
}

// catalogueTables returns the catalogue's tables that ids names, all of them
// when ids is empty.
func catalogueTables(ids []string) ([]tableData, error) {
	if len(ids) == 0 {
		return seededTables(), nil
	}
	out := make([]tableData, 0, len(ids))
	for _, id := range ids {
		c, ok := catalogueEntry(id)
		if !ok {
			return nil, failure("tableIDsToImport: %s is not a table (see getTablesMeta)", quoteText(id))
		}
		out = append(out, tableData{id: c.id, rows: c.rows})
	}
	return out, nil
}

func (s *service) GetTablesMeta(_ context.Context, _ genserver.GetTablesMetaRequestObject) (genserver.GetTablesMetaResponseObject, error) {
	out := make(genserver.GetTablesMeta200JSONResponse, len(tableCatalogue))
	for i, t := range tableCatalogue {
		out[i] = tableMeta(tableData{id: t.id, rows: t.rows})
	}
	return out, nil
}

func (s *service) GetScenariosFromImportedDatabase(_ context.Context, req genserver.GetScenariosFromImportedDatabaseRequestObject) (genserver.GetScenariosFromImportedDatabaseResponseObject, error) {
	opts := make([]gen.ApiIdNameObject, len(databaseScenarios))
	for i, n := range databaseScenarios {
		opts[i] = gen.ApiIdNameObject{Id: n, Name: n}
	}
	return genserver.GetScenariosFromImportedDatabase200JSONResponse{List: opts}, nil
}

// databaseFailure is why importing source from the database fails.
func databaseFailure(source string) string {
	if slices.Contains(databaseScenarios, source) {
		return ""
	}
	return "the database offers no scenario " + quoteText(source)
}

// ImportDatabase starts one job per source scenario; a job whose source the
// database does not offer fails.
func (s *service) ImportDatabase(_ context.Context, req genserver.ImportDatabaseRequestObject) (genserver.ImportDatabaseResponseObject, error) {
	p := req.Params
	tables, err := catalogueTables(deref(p.TableIDsToImport))
	if err != nil {
		return nil, err
	}
	w := s.w
	now := w.lock()
	defer w.unlock()
	if _, err := w.project(p.ProjectId); err != nil {
		return nil, err
	}
	out := genserver.ImportDatabase200JSONResponse{}
	for i, source := range p.SourceScenarioNameList {
		name := p.NewScenarioName
		if len(p.SourceScenarioNameList) > 1 {
			name = fmt.Sprintf("%s (%d)", name, i+1)
		}
		j := w.startJob(now, databaseFailure(source), createScenario(p.ProjectId, name, tables))
		out = append(out, j.response())
	}
	return out, nil
}

func (s *service) ImportDatabaseExisting(_ context.Context, req genserver.ImportDatabaseExistingRequestObject) (genserver.ImportDatabaseExistingResponseObject, error) {
	p := req.Params
	tables, err := catalogueTables(deref(p.TableIDsToImport))
	if err != nil {
		return nil, err
	}
	w := s.w
	now := w.lock()
	defer w.unlock()
	sc, err := w.scenarioInProject(p.ScenarioId, p.ProjectId)
	if err != nil {
		return nil, err
	}
	j := w.startJob(now, databaseFailure(p.SourceScenarioName), addTablesTo(sc.id, tables, deref(p.OverwriteExistingTables)))
	return genserver.ImportDatabaseExisting200JSONResponse{j.response()}, nil
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
