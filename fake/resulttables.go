package fake

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ExportDashboardPage exports one dashboard page of a result as a workbook:
// a sheet per chart (table charts with all their rows, graph charts with
// their points). As the real server answered: an id that names no run (the
// rcId a synchronous run answers with HAS_ERRORS) fails with a Java
// exception text, and a variation's result with "Dashboard is empty".
func (s *service) ExportDashboardPage(_ context.Context, req genserver.ExportDashboardPageRequestObject) (genserver.ExportDashboardPageResponseObject, error) {
	d, err := s.w.resultByID(req.Params.ExperimentResultId)
	if err != nil {
		return nil, err
	}
	r := d.run
	switch {
	case r == nil:
		return nil, failure(msgRunIsNull)
	case r.typ == gen.ExperimentTypeVARIATION:
		return nil, failure(msgDashboardEmpty)
	}
	page, err := s.w.dashboardPageNumber(r, req.Params.PageId)
	if err != nil {
		return nil, err
	}
	var sheets []sheet
	for _, c := range s.w.charts(page) {
		sheets = append(sheets, s.w.chartSheet(r.rcID, c))
	}
	f, n, err := writeWorkbook(sheets)
	if err != nil {
		return nil, err
	}
	return genserver.ExportDashboardPage200ApplicationvndOpenxmlformatsOfficedocumentSpreadsheetmlSheetResponse{Body: f, ContentLength: n}, nil
}

// chartSheet is a chart's sheet of a page workbook, laid out as the real
// product's (see chartMeta): a graph chart as statistics, a row per point
// under "Statistics name | Time | Value" (its series, the week of its x
// from graphWeek1 as a date, its y), a table chart with its columns.
func (w *world) chartSheet(rcID ids.RcID, c chart) sheet {
	meta := &chartMeta{typ: string(c.kind()), statistics: resultKeys[c.id%int64(len(resultKeys))].name, name: c.name()}
	if !c.table() {
		return sheet{name: c.name(), meta: meta, header: []string{"Statistics name", "Time", "Value"}, rows: graphRows(w.graphs(rcID, c))}
	}
	header := make([]string, len(chartColumns))
	for i, col := range chartColumns {
		header[i] = col.name
	}
	seed, key, total := w.cfg.seed, chartTableKey(rcID, c), w.cfg.rowsPerTable
	return sheet{name: c.name(), meta: meta, header: header, rows: func(yield func([]any) bool) {
		for i := int64(0); i < total; i++ {
			if !yield(genValues(seed, chartColumns, key, i)) {
				return
			}
		}
	}}
}

// graphWeek1 is the date of week 1 of a graph's points in a workbook.
var graphWeek1 = time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)

func graphRows(graphs []gen.Graph) iter.Seq[[]any] {
	return func(yield func([]any) bool) {
		for _, g := range graphs {
			for _, p := range *g.Points {
				week := graphWeek1.AddDate(0, 0, 7*(int(*p.X)-1))
				if !yield([]any{*g.Name, week, *p.Y}) {
					return
				}
			}
		}
	}
}

func rowValues(r gen.Row) []any {
	out := make([]any, len(r.Cells))
	for i, c := range r.Cells {
		out[i] = cellValue(c)
	}
	return out
}

// comparedScenarios reads comparedScenarioIds from a comparison's run
// configuration.
func comparedScenarios(rc *runConfig) []ids.ScenarioID {
	var cfg struct {
		ComparedScenarioIds []ids.ScenarioID `json:"comparedScenarioIds"`
	}
	if rc.wrapper.RunConfiguration != nil {
		raw, _ := rc.wrapper.RunConfiguration.MarshalJSON()
		_ = json.Unmarshal(raw, &cfg)
	}
	return append([]ids.ScenarioID{rc.scenarioID}, cfg.ComparedScenarioIds...)
}

// GetComparisonResultData answers a row per compared scenario: the
// experiment's own and those of comparedScenarioIds in its run configuration.
func (s *service) GetComparisonResultData(_ context.Context, req genserver.GetComparisonResultDataRequestObject) (genserver.GetComparisonResultDataResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	rc, err := w.runConfigOfType(req.Params.RcId, gen.ExperimentTypeCOMPARISON)
	if err != nil {
		return nil, err
	}
	if _, err := w.finishedRun(rc, now); err != nil {
		return nil, err
	}
	var rows []gen.Row
	for i, id := range comparedScenarios(rc) {
		h := mix(w.cfg.seed, int64(rc.id), int64(id))
		rows = append(rows, gen.Row{Index: int64(i), Cells: []gen.Cell{cell("INTEGER", id),
			cell("DOUBLE", round2(unit(h)*1e6)), cell("DOUBLE", round2(90+unit(h>>7)*10))}})
	}
	n := int64(len(rows))
	return genserver.GetComparisonResultData200JSONResponse{EntityList: rows, Id: int64(rc.id), TotalEntityCount: n, TotalTechnicalRowCount: n, Type: "TABLE"}, nil
}

// GetVariationResultData answers the table of a variation's result as the
// real server answered it right after a variation run: no entities, totals
// 0, and the rcId as id.
func (s *service) GetVariationResultData(_ context.Context, req genserver.GetVariationResultDataRequestObject) (genserver.GetVariationResultDataResponseObject, error) {
	w := s.w
	now := w.lock()
	defer w.unlock()
	rc, err := w.runConfigOfType(req.Params.RcId, gen.ExperimentTypeVARIATION)
	if err != nil {
		return nil, err
	}
	if _, err := w.finishedRun(rc, now); err != nil {
		return nil, err
	}
	return genserver.GetVariationResultData200JSONResponse(emptyTable(int64(rc.id))), nil
}
