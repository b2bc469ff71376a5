package facade

import (
	"context"
	"io"
	"net/http"
	"strconv"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ImportsService imports scenarios from workbooks, scenario files and
// external databases, and follows import jobs.
type ImportsService struct{ service }

// ImportOptions are the optional inputs of the workbook and database
// imports. Fields an operation does not take are ignored by it.
type ImportOptions struct {
	ContainsFormulas bool // workbook imports: the workbook has formulas
	// SkipExperiments sends needToImportExperiments=false. By default it is
	// sent true: without it a real server ended the job DONE and created no
	// scenario.
	SkipExperiments         bool
	OverrideConversionRules bool     // overrideExistingProjectConversionRules
	OverwriteExistingTables bool     // imports into an existing scenario
	Tables                  []string // tableIDsToImport; empty means all
}

// importExperiments is the needToImportExperiments to send.
func (o ImportOptions) importExperiments() bool { return !o.SkipExperiments }

func (o *ImportOptions) orZero() ImportOptions {
	if o == nil {
		return ImportOptions{}
	}
	return *o
}

// Status returns the state and progress of an import or copy job. A [Job]
// polls this for you.
//
//scm:operation getImportStatus
func (s *ImportsService) Status(ctx context.Context, jobID ids.JobID) (*gen.ApiImportScenarioStatus, error) {
	if err := check(gen.OpGetImportStatus).job(jobID).done(); err != nil {
		return nil, err
	}
	return callPtr[gen.ApiImportScenarioStatus](ctx, s.c, newCall(gen.OpGetImportStatus, func(srv string) (*http.Request, error) {
		return gen.NewGetImportStatusRequest(srv, &gen.GetImportStatusParams{JobId: jobID})
	}))
}

// Cancel cancels an import or copy job.
//
//scm:operation importCancel
func (s *ImportsService) Cancel(ctx context.Context, jobID ids.JobID) error {
	if err := check(gen.OpImportCancel).job(jobID).done(); err != nil {
		return err
	}
	body := gen.ApiImportScenarioCancelRequest{JobId: jobID}
	return callEmpty(ctx, s.c, newCall(gen.OpImportCancel, func(srv string) (*http.Request, error) {
		return gen.NewImportCancelRequest(srv, body)
	}).withBody(body))
}

// TablesMeta lists the tables an import can fill.
//
//scm:operation getTablesMeta
func (s *ImportsService) TablesMeta(ctx context.Context) ([]gen.ApiTableMeta, error) {
	return callList[gen.ApiTableMeta](ctx, s.c, newCall(gen.OpGetTablesMeta, gen.NewGetTablesMetaRequest))
}

// DatabaseScenarios lists the scenarios an external database offers for
// import. The password in conn is never logged.
//
//scm:operation getScenariosFromImportedDatabase
func (s *ImportsService) DatabaseScenarios(ctx context.Context, conn gen.DBConnectionProperties) (*gen.ApiOptionList, error) {
	return callPtr[gen.ApiOptionList](ctx, s.c, newCall(gen.OpGetScenariosFromImportedDatabase, func(srv string) (*http.Request, error) {
		return gen.NewGetScenariosFromImportedDatabaseRequest(srv, conn)
	}).withBody(conn))
}

// Database imports scenarios of an external database into a new scenario
// of a project and returns the started jobs. opts may be nil.
//
//scm:operation importDatabase
func (s *ImportsService) Database(ctx context.Context, projectID ids.ProjectID, newScenarioName string, sources []string, conn gen.DBConnectionProperties, opts *ImportOptions) ([]*Job, error) {
	err := check(gen.OpImportDatabase).project(projectID).str("newScenarioName", newScenarioName).
		strs("sourceScenarioNameList", sources).done()
	if err != nil {
		return nil, err
	}
	o := opts.orZero()
	params := &gen.ImportDatabaseParams{ProjectId: projectID, NewScenarioName: newScenarioName, SourceScenarioNameList: sources,
		NeedToImportExperiments: ptr(o.importExperiments()), OverrideExistingProjectConversionRules: optBool(o.OverrideConversionRules),
		TableIDsToImport: optStrings(o.Tables)}
	return s.c.startJobs(ctx, newCall(gen.OpImportDatabase, func(srv string) (*http.Request, error) {
		return gen.NewImportDatabaseRequest(srv, params, conn)
	}).withBody(conn))
}

// DatabaseExisting imports a scenario of an external database into an
// existing scenario and returns the started jobs. opts may be nil.
//
//scm:operation importDatabaseExisting
func (s *ImportsService) DatabaseExisting(ctx context.Context, projectID ids.ProjectID, scenarioID ids.ScenarioID, sourceScenarioName string, conn gen.DBConnectionProperties, opts *ImportOptions) ([]*Job, error) {
	err := check(gen.OpImportDatabaseExisting).project(projectID).scenario(scenarioID).
		str("sourceScenarioName", sourceScenarioName).done()
	if err != nil {
		return nil, err
	}
	o := opts.orZero()
	params := &gen.ImportDatabaseExistingParams{ProjectId: projectID, ScenarioId: scenarioID, SourceScenarioName: sourceScenarioName,
		NeedToImportExperiments: ptr(o.importExperiments()), OverrideExistingProjectConversionRules: optBool(o.OverrideConversionRules),
		OverwriteExistingTables: optBool(o.OverwriteExistingTables), TableIDsToImport: optStrings(o.Tables)}
	return s.c.startJobs(ctx, newCall(gen.OpImportDatabaseExisting, func(srv string) (*http.Request, error) {
		return gen.NewImportDatabaseExistingRequest(srv, params, conn)
	}).withBody(conn))
}

func excelForm(projectID ids.ProjectID, newScenarioName string, o ImportOptions) form {
	return form{}.addID("projectId", projectID).add("newScenarioName", newScenarioName).
		addBool("containsFormulas", o.ContainsFormulas).add("needToImportExperiments", strconv.FormatBool(o.importExperiments())).
		addBool("overrideExistingProjectConversionRules", o.OverrideConversionRules).addAll("tableIDsToImport", o.Tables)
}

// Excel starts importing a workbook as a new scenario of a project and
// returns the job. The file is streamed under a name ending in .xlsx (see
// [UploadReader]). opts may be nil. See also [Client.ImportExcelAndWait].
//
//scm:operation importExcel
func (s *ImportsService) Excel(ctx context.Context, projectID ids.ProjectID, newScenarioName string, file Upload, opts *ImportOptions) (*Job, error) {
	err := file.validate(check(gen.OpImportExcel).project(projectID).str("newScenarioName", newScenarioName)).done()
	if err != nil {
		return nil, err
	}
	fields := excelForm(projectID, newScenarioName, opts.orZero())
	return s.c.startJob(ctx, multipartCall(gen.OpImportExcel, fields, file.workbook(),
		func(srv, ct string, body io.Reader) (*http.Request, error) {
			return gen.NewImportExcelRequestWithBody(srv, ct, body)
		}))
}

// ExcelExisting starts importing a workbook into an existing scenario and
// returns the jobs. The file is streamed under a name ending in .xlsx.
// opts may be nil.
//
//scm:operation importExcelExisting
func (s *ImportsService) ExcelExisting(ctx context.Context, projectID ids.ProjectID, scenarioID ids.ScenarioID, newScenarioName string, file Upload, opts *ImportOptions) ([]*Job, error) {
	v := check(gen.OpImportExcelExisting).project(projectID).scenario(scenarioID).str("newScenarioName", newScenarioName)
	if err := file.validate(v).done(); err != nil {
		return nil, err
	}
	o := opts.orZero()
	fields := excelForm(projectID, newScenarioName, o).addID("scenarioId", scenarioID).addBool("overwriteExistingTables", o.OverwriteExistingTables)
	return s.c.startJobs(ctx, multipartCall(gen.OpImportExcelExisting, fields, file.workbook(),
		func(srv, ct string, body io.Reader) (*http.Request, error) {
			return gen.NewImportExcelExistingRequestWithBody(srv, ct, body)
		}))
}

// Scenario imports a scenario file into a project and returns the new
// scenario when done. The file is streamed.
//
//scm:operation importScenario
func (s *ImportsService) Scenario(ctx context.Context, projectID ids.ProjectID, file Upload) (*gen.ApiScenarioData, error) {
	if err := file.validate(check(gen.OpImportScenario).project(projectID)).done(); err != nil {
		return nil, err
	}
	fields := form{}.addID("projectId", projectID)
	return callPtr[gen.ApiScenarioData](ctx, s.c, multipartCall(gen.OpImportScenario, fields, file,
		func(srv, ct string, body io.Reader) (*http.Request, error) {
			return gen.NewImportScenarioRequestWithBody(srv, ct, body)
		}))
}

// ScenarioImportOptions are the optional inputs of ScenarioExisting.
type ScenarioImportOptions struct {
	CleanTables bool     // clear the matching tables before import
	Tables      []string // tableIDsToImport; empty means all
}

// ScenarioExisting imports a scenario file into an existing scenario and
// returns it when done. The file is streamed. opts may be nil.
//
//scm:operation importScenarioExisting
func (s *ImportsService) ScenarioExisting(ctx context.Context, projectID ids.ProjectID, scenarioID ids.ScenarioID, file Upload, opts *ScenarioImportOptions) (*gen.ApiScenarioData, error) {
	if err := file.validate(check(gen.OpImportScenarioExisting).project(projectID).scenario(scenarioID)).done(); err != nil {
		return nil, err
	}
	var o ScenarioImportOptions
	if opts != nil {
		o = *opts
	}
	fields := form{}.addID("projectId", projectID).addID("scenarioId", scenarioID).addBool("cleanTables", o.CleanTables).addAll("tableIDsToImport", o.Tables)
	return callPtr[gen.ApiScenarioData](ctx, s.c, multipartCall(gen.OpImportScenarioExisting, fields, file,
		func(srv, ct string, body io.Reader) (*http.Request, error) {
			return gen.NewImportScenarioExistingRequestWithBody(srv, ct, body)
		}))
}
