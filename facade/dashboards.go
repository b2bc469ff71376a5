package facade

import (
	"context"
	"fmt"
	"net/http"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// DashboardsService reads the dashboard of a result by the
// experimentResultId of a finished run ([ExperimentsService.RunSync]
// answers it, [Run.ResultID] finds it): the dashboard's pages and each
// page's workbook. It belongs to the Results area of the interface; the
// operations keyed by the rcId of an experiment are in [ResultsService].
//
// Here a page is a dashboard page, with an integer id: not a statistics
// page of [ResultsService.StatisticsPages], whose ids are numeric strings. Package
// dashboard merges every page's workbook into one.
type DashboardsService struct{ service }

// Pages lists the dashboard pages of a result. A page whose id cannot be
// one (a negative id) is a [*MalformedError]: no page is handed out
// that exportDashboardPage would refuse as the caller's mistake.
//
//scm:operation getExperimentDashboardPages
func (s *DashboardsService) Pages(ctx context.Context, resultID ids.ExperimentResultID) ([]gen.ApiDashboardPage, error) {
	if err := check(gen.OpGetExperimentDashboardPages).result(resultID).done(); err != nil {
		return nil, err
	}
	params := &gen.GetExperimentDashboardPagesParams{ExperimentResultId: resultID}
	pages, err := callList[gen.ApiDashboardPage](ctx, s.c, newCall(gen.OpGetExperimentDashboardPages, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentDashboardPagesRequest(srv, params)
	}))
	if err == nil {
		err = pageIDs(pages)
	}
	if err != nil {
		return nil, err
	}
	return pages, nil
}

// pageIDs refuses a page whose id cannot be one (negative): each page's id
// is the input of exportDashboardPage.
func pageIDs(pages []gen.ApiDashboardPage) error {
	for i, p := range pages {
		if err := badID(string(gen.OpGetExperimentDashboardPages), "ApiDashboardPage", fmt.Sprintf("[%d].id", i), p.Id, true, nil); err != nil {
			return err
		}
	}
	return nil
}

// Page finds a dashboard page of a result by its name: the whole name, or
// a part of it when opts says PartialMatch. opts may be nil.
//
//scm:operation getExperimentDashboardPage
func (s *DashboardsService) Page(ctx context.Context, resultID ids.ExperimentResultID, name string, opts *NameMatchOptions) (*gen.ApiDashboardPage, error) {
	err := check(gen.OpGetExperimentDashboardPage).result(resultID).str("pageName", name).done()
	if err != nil {
		return nil, err
	}
	params := &gen.GetExperimentDashboardPageParams{ExperimentResultId: resultID, PageName: name, FullMatch: opts.fullMatch()}
	return callPtr[gen.ApiDashboardPage](ctx, s.c, newCall(gen.OpGetExperimentDashboardPage, func(srv string) (*http.Request, error) {
		return gen.NewGetExperimentDashboardPageRequest(srv, params)
	}))
}

// ExportPage streams one dashboard page of a result as a spreadsheet
// workbook: the id of one of the result's [DashboardsService.Pages]. Close
// the download, or call its WriteTo or ReadAll. Package dashboard merges
// every page into one workbook.
//
//scm:operation exportDashboardPage
func (s *DashboardsService) ExportPage(ctx context.Context, resultID ids.ExperimentResultID, pageID ids.PageID) (*Download, error) {
	err := check(gen.OpExportDashboardPage).result(resultID).page(pageID).done()
	if err != nil {
		return nil, err
	}
	params := &gen.ExportDashboardPageParams{ExperimentResultId: resultID, PageId: pageID}
	return s.c.download(ctx, newCall(gen.OpExportDashboardPage, func(srv string) (*http.Request, error) {
		return gen.NewExportDashboardPageRequest(srv, params)
	}))
}
