package fake

import (
	"context"
	"slices"
	"strconv"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// objectType is a kind of object with variable parameters. Its objects have
// numeric string ids, idBase+1 to idBase+count, unique across types.
type objectType struct {
	id, name, object string // object: the name of one object, before its number
	idBase, count    int
	params           []variableParam
}

// variableParam is a parameter of an object type. Only a parameter of a
// link data type has a table of values to select; it varies by the table
// variation types, any other by NUMBER_RANGE.
type variableParam struct {
	id, name string
	link     bool
}

func (p variableParam) types() []gen.VariationType {
	if p.link {
		return []gen.VariationType{gen.VariationTypeLINKLIST, gen.VariationTypeMULTIPLELINKLIST}
	}
	return []gen.VariationType{gen.VariationTypeNUMBERRANGE}
}

// objectTypes have the ids and parameters a real server was seen to offer
// (DemandData_SIM_FULL; period, quantity, revenue, minSplitRatio,
// expectedLeadTime); how they are spread over the types, and which is a link
// type, is the fake's choice.
var objectTypes = []objectType{
	{"DemandData_SIM_FULL", "Demand", "Demand", 0, 20, []variableParam{
		{"period", "Period", true}, {"quantity", "Quantity", false}, {"revenue", "Revenue", false}}},
	{"SiteData_SIM_FULL", "Sites", "Site", 100, 12, []variableParam{
		{"expectedLeadTime", "Expected lead time", false}, {"period", "Period", true}}},
	{"ProductData_SIM_FULL", "Products", "Product", 200, 30, []variableParam{
		{"minSplitRatio", "Minimal split ratio", false}, {"revenue", "Revenue", false}}},
}

// variationTableRows is the row count of every variation table.
const variationTableRows = 10

var variationColumns = []column{{"option", "Option", "STRING"}, {"value", "Value", "DOUBLE"}}

type variation struct {
	id                    ids.VariationID
	rcID                  ids.RcID
	name                  string
	objectType, parameter string
	object                ids.ObjectID
	typ                   gen.VariationType
	data                  *gen.ApiVariationData
}

// selectionKey names a variation table: variation is "new" for a variation
// not yet created.
type selectionKey struct {
	rcID      ids.RcID
	variation string
	object    ids.ObjectID
	parameter string
}

type cellRef struct {
	row int64
	col int32
}

func findObjectType(id string) (objectType, error) {
	for _, t := range objectTypes {
		if t.id == id {
			return t, nil
		}
	}
	return objectType{}, notFound("objectTypeId %s: no such object type", quoteText(id))
}

// findParam resolves an object type, one of its objects and a parameter.
func findParam(typeID string, objectID ids.ObjectID, paramID string) (variableParam, error) {
	t, err := findObjectType(typeID)
	if err != nil {
		return variableParam{}, err
	}
	n, err := strconv.Atoi(string(objectID))
	if err != nil || n <= t.idBase || n > t.idBase+t.count {
		return variableParam{}, notFound("objectId %s: no such %s object", quoteText(string(objectID)), t.name)
	}
	for _, p := range t.params {
		if p.id == paramID {
			return p, nil
		}
	}
	return variableParam{}, notFound("parameterId %s: no such parameter of %s", quoteText(paramID), t.name)
}

func findParamOfType(typeID string, objectID ids.ObjectID, paramID string, vt gen.VariationType) (variableParam, error) {
	p, err := findParam(typeID, objectID, paramID)
	if err != nil {
		return p, err
	}
	if !slices.Contains(p.types(), vt) {
		return p, failure("variationType: %s does not apply to parameter %s", vt, paramID)
	}
	return p, nil
}

// linkParam finds a parameter that has a table: one of a link data type.
func linkParam(typeID string, objectID ids.ObjectID, paramID string) error {
	p, err := findParam(typeID, objectID, paramID)
	if err == nil && !p.link {
		err = failure(msgNotLinkType)
	}
	return err
}

func options(items []gen.ApiIdNameObject) gen.ApiOptionList {
	return gen.ApiOptionList{List: items}
}

func (w *world) checkScenario(id ids.ScenarioID) error {
	w.lock()
	defer w.unlock()
	_, err := w.scenario(id)
	return err
}

func (s *service) GetVariableParameterObjectTypes(_ context.Context, req genserver.GetVariableParameterObjectTypesRequestObject) (genserver.GetVariableParameterObjectTypesResponseObject, error) {
	if err := s.w.checkScenario(req.Params.ScenarioId); err != nil {
		return nil, err
	}
	var items []gen.ApiIdNameObject
	for _, t := range objectTypes {
		items = append(items, gen.ApiIdNameObject{Id: t.id, Name: t.name})
	}
	return genserver.GetVariableParameterObjectTypes200JSONResponse(options(items)), nil
}

// GetVariableParameterObjectType finds the object type that has a parameter
// named parameterName (its id or name; with fullMatch=false a part of it).
func (s *service) GetVariableParameterObjectType(_ context.Context, req genserver.GetVariableParameterObjectTypeRequestObject) (genserver.GetVariableParameterObjectTypeResponseObject, error) {
	if err := s.w.checkScenario(req.Params.ScenarioId); err != nil {
		return nil, err
	}
	full := req.Params.FullMatch
	for _, t := range objectTypes {
		for _, p := range t.params {
			if nameMatches(p.name, req.Params.ParameterName, full) || nameMatches(p.id, req.Params.ParameterName, full) {
				return genserver.GetVariableParameterObjectType200JSONResponse{Id: t.id, Name: t.name}, nil
			}
		}
	}
	return nil, notFound("parameterName %s: no object type has such a parameter (fullMatch=%t)", quoteText(req.Params.ParameterName), full)
}

func (s *service) GetVariableParameterObjects(_ context.Context, req genserver.GetVariableParameterObjectsRequestObject) (genserver.GetVariableParameterObjectsResponseObject, error) {
	if err := s.w.checkScenario(req.Params.ScenarioId); err != nil {
		return nil, err
	}
	t, err := findObjectType(req.Params.ObjectTypeId)
	if err != nil {
		return nil, err
	}
	items := make([]gen.ApiIdNameObject, t.count)
	for i := range items {
		items[i] = gen.ApiIdNameObject{Id: strconv.Itoa(t.idBase + i + 1), Name: t.object + " " + strconv.Itoa(i+1)}
	}
	return genserver.GetVariableParameterObjects200JSONResponse{List: pageOf(items, req.Params.Skip, req.Params.Take)}, nil
}

func (s *service) GetVariableParameterParameters(_ context.Context, req genserver.GetVariableParameterParametersRequestObject) (genserver.GetVariableParameterParametersResponseObject, error) {
	if err := s.w.checkScenario(req.Params.ScenarioId); err != nil {
		return nil, err
	}
	t, err := findObjectType(req.Params.ObjectTypeId)
	if err != nil {
		return nil, err
	}
	if _, err := findParam(t.id, req.Params.ObjectId, t.params[0].id); err != nil {
		return nil, err
	}
	var items []gen.ApiIdNameObject
	for _, p := range t.params {
		items = append(items, gen.ApiIdNameObject{Id: p.id, Name: p.name})
	}
	return genserver.GetVariableParameterParameters200JSONResponse(options(items)), nil
}

func (s *service) GetVariableParameterVariationTypes(_ context.Context, req genserver.GetVariableParameterVariationTypesRequestObject) (genserver.GetVariableParameterVariationTypesResponseObject, error) {
	if err := s.w.checkScenario(req.Params.ScenarioId); err != nil {
		return nil, err
	}
	p, err := findParam(req.Params.ObjectTypeId, req.Params.ObjectId, req.Params.ParameterId)
	if err != nil {
		return nil, err
	}
	var items []gen.ApiIdNameObject
	for _, t := range p.types() {
		items = append(items, *variationTypeRef(t))
	}
	return genserver.GetVariableParameterVariationTypes200JSONResponse(options(items)), nil
}

// variationTable generates a page of a variation table with its selection.
func (w *world) variationTable(key selectionKey, skip, take int32) gen.ApiStrictTableData {
	sel := w.selections.get(key)
	from, to := pageBounds(skip, take, variationTableRows)
	rows := make([]gen.Row, 0, to-from)
	for i := from; i < to; i++ {
		h := mix(w.cfg.seed, int64(key.rcID), int64(len(key.object)), i)
		r := gen.Row{Index: i, Cells: []gen.Cell{cell("STRING", "Option "+itoa(i+1)), cell("DOUBLE", round2(unit(h)*1000))}}
		r.Selected = ptr(sel[cellRef{i, 0}] || sel[cellRef{i, 1}])
		rows = append(rows, r)
	}
	return gen.ApiStrictTableData{Columns: columnsOf(variationColumns), Rows: rows, TotalRows: variationTableRows}
}

func (s *service) GetNewVariableParameterTableData(_ context.Context, req genserver.GetNewVariableParameterTableDataRequestObject) (genserver.GetNewVariableParameterTableDataResponseObject, error) {
	p := req.Params
	w := s.w
	w.lock()
	defer w.unlock()
	if _, err := w.runConfigOfType(p.RcId, gen.ExperimentTypeVARIATION); err != nil {
		return nil, err
	}
	if err := variationTableParam(p.ObjectTypeId, p.ObjectId, p.ParameterId, p.VariationType); err != nil {
		return nil, err
	}
	key := selectionKey{p.RcId, "new", p.ObjectId, p.ParameterId}
	return genserver.GetNewVariableParameterTableData200JSONResponse(w.variationTable(key, p.Skip, p.Take)), nil
}

func (s *service) GetExistingVariableParameterTableData(_ context.Context, req genserver.GetExistingVariableParameterTableDataRequestObject) (genserver.GetExistingVariableParameterTableDataResponseObject, error) {
	p := req.Params
	w := s.w
	w.lock()
	defer w.unlock()
	v, err := w.variation(p.RcId, p.VariationId)
	if err != nil {
		return nil, err
	}
	if err := variationTableParam(p.ObjectTypeId, p.ObjectId, p.ParameterId, p.VariationType); err != nil {
		return nil, err
	}
	key := selectionKey{p.RcId, itoa(v.id), p.ObjectId, p.ParameterId}
	return genserver.GetExistingVariableParameterTableData200JSONResponse(w.variationTable(key, p.Skip, p.Take)), nil
}

// variationTableParam checks the parameter of a variation table: it must be
// of a link data type, and the variation type must apply to it.
func variationTableParam(typeID string, objectID ids.ObjectID, paramID string, vt gen.VariationType) error {
	if err := linkParam(typeID, objectID, paramID); err != nil {
		return err
	}
	_, err := findParamOfType(typeID, objectID, paramID, vt)
	return err
}

func (w *world) variation(rcID ids.RcID, id ids.VariationID) (*variation, error) {
	if _, err := w.runConfigOfType(rcID, gen.ExperimentTypeVARIATION); err != nil {
		return nil, err
	}
	v, ok := w.variations[id]
	if !ok || v.rcID != rcID {
		return nil, notFound("variationId %d: no such variation of rcId %d", id, rcID)
	}
	return v, nil
}
