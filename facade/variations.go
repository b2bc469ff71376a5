package facade

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"strconv"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// VariationsService creates, updates, deletes and inspects the variation
// parameters of variation experiments.
type VariationsService struct{ service }

// ParameterRef names a variable parameter: the object type, the object and
// the parameter, as the listing operations return them.
type ParameterRef struct {
	ObjectTypeID string
	ObjectID     ids.ObjectID
	ParameterID  string
}

// Variation is a variation of the parameter r names, of type t, as
// [VariationsService.CreateNew] and [VariationsService.Create] take it: the
// object type, object, parameter and variation type each an {id, name} of
// which the server reads the id (names are left empty). data may be nil.
func (r ParameterRef) Variation(t gen.VariationType, data *gen.ApiVariationData) gen.ApiVariation {
	return gen.ApiVariation{ObjectType: &gen.ApiIdNameObject{Id: r.ObjectTypeID}, Object: &gen.ApiIdNameObject{Id: string(r.ObjectID)},
		Parameter: &gen.ApiIdNameObject{Id: r.ParameterID}, VariationType: &gen.ApiIdNameObject{Id: string(t)}, Data: data}
}

func (v *validator) ref(r ParameterRef) *validator {
	return v.str("objectTypeId", r.ObjectTypeID).str("objectId", string(r.ObjectID)).str("parameterId", r.ParameterID)
}

// ObjectTypes lists the object types of a scenario that have variable
// parameters.
//
//scm:operation getVariableParameterObjectTypes
func (s *VariationsService) ObjectTypes(ctx context.Context, scenarioID ids.ScenarioID) (*gen.ApiOptionList, error) {
	if err := check(gen.OpGetVariableParameterObjectTypes).scenario(scenarioID).done(); err != nil {
		return nil, err
	}
	params := &gen.GetVariableParameterObjectTypesParams{ScenarioId: scenarioID}
	return callPtr[gen.ApiOptionList](ctx, s.c, newCall(gen.OpGetVariableParameterObjectTypes, func(srv string) (*http.Request, error) {
		return gen.NewGetVariableParameterObjectTypesRequest(srv, params)
	}))
}

// ObjectType finds the object type of a parameter by name. opts may be nil.
//
//scm:operation getVariableParameterObjectType
func (s *VariationsService) ObjectType(ctx context.Context, scenarioID ids.ScenarioID, parameterName string, opts *NameMatchOptions) (*gen.ApiIdNameObject, error) {
	if err := check(gen.OpGetVariableParameterObjectType).scenario(scenarioID).str("parameterName", parameterName).done(); err != nil {
		return nil, err
	}
	params := &gen.GetVariableParameterObjectTypeParams{ScenarioId: scenarioID, ParameterName: parameterName, FullMatch: opts.fullMatch()}
	return callPtr[gen.ApiIdNameObject](ctx, s.c, newCall(gen.OpGetVariableParameterObjectType, func(srv string) (*http.Request, error) {
		return gen.NewGetVariableParameterObjectTypeRequest(srv, params)
	}))
}

func (s *VariationsService) objectsSource(scenarioID ids.ScenarioID, objectTypeID string) pageSource[gen.ApiIdNameObject, *gen.ApiOptionList] {
	return pager(s.c, gen.OpGetVariableParameterObjects, func(skip, take int32) call {
		params := &gen.GetVariableParameterObjectsParams{ScenarioId: scenarioID, ObjectTypeId: objectTypeID, Skip: skip, Take: take}
		return newCall(gen.OpGetVariableParameterObjects, func(srv string) (*http.Request, error) {
			return gen.NewGetVariableParameterObjectsRequest(srv, params)
		})
	}, gen.GetVariableParameterObjectsPageItems)
}

// Objects yields the objects of an object type. opts may be nil.
//
//scm:operation getVariableParameterObjects
func (s *VariationsService) Objects(ctx context.Context, scenarioID ids.ScenarioID, objectTypeID string, opts *PageOptions) iter.Seq2[gen.ApiIdNameObject, error] {
	if err := check(gen.OpGetVariableParameterObjects).scenario(scenarioID).str("objectTypeId", objectTypeID).done(); err != nil {
		return failedSeq[gen.ApiIdNameObject](err)
	}
	return itemsSeq(ctx, s.objectsSource(scenarioID, objectTypeID), opts)
}

// ObjectBatches yields the whole pages behind [VariationsService.Objects].
//
//scm:pages getVariableParameterObjects
func (s *VariationsService) ObjectBatches(ctx context.Context, scenarioID ids.ScenarioID, objectTypeID string, opts *PageOptions) iter.Seq2[*gen.ApiOptionList, error] {
	if err := check(gen.OpGetVariableParameterObjects).scenario(scenarioID).str("objectTypeId", objectTypeID).done(); err != nil {
		return failedSeq[*gen.ApiOptionList](err)
	}
	return pagesSeq(ctx, s.objectsSource(scenarioID, objectTypeID), opts)
}

// Parameters lists the variable parameters of an object.
//
//scm:operation getVariableParameterParameters
func (s *VariationsService) Parameters(ctx context.Context, scenarioID ids.ScenarioID, objectTypeID string, objectID ids.ObjectID) (*gen.ApiOptionList, error) {
	err := check(gen.OpGetVariableParameterParameters).scenario(scenarioID).str("objectTypeId", objectTypeID).str("objectId", string(objectID)).done()
	if err != nil {
		return nil, err
	}
	params := &gen.GetVariableParameterParametersParams{ScenarioId: scenarioID, ObjectTypeId: objectTypeID, ObjectId: objectID}
	return callPtr[gen.ApiOptionList](ctx, s.c, newCall(gen.OpGetVariableParameterParameters, func(srv string) (*http.Request, error) {
		return gen.NewGetVariableParameterParametersRequest(srv, params)
	}))
}

// VariationTypes lists the variation types a parameter allows.
//
//scm:operation getVariableParameterVariationTypes
func (s *VariationsService) VariationTypes(ctx context.Context, scenarioID ids.ScenarioID, ref ParameterRef) (*gen.ApiOptionList, error) {
	if err := check(gen.OpGetVariableParameterVariationTypes).scenario(scenarioID).ref(ref).done(); err != nil {
		return nil, err
	}
	params := &gen.GetVariableParameterVariationTypesParams{ScenarioId: scenarioID, ObjectTypeId: ref.ObjectTypeID, ObjectId: ref.ObjectID, ParameterId: ref.ParameterID}
	return callPtr[gen.ApiOptionList](ctx, s.c, newCall(gen.OpGetVariableParameterVariationTypes, func(srv string) (*http.Request, error) {
		return gen.NewGetVariableParameterVariationTypesRequest(srv, params)
	}))
}

func (s *VariationsService) newTableSource(rcID ids.RcID, ref ParameterRef, vt gen.VariationType) pageSource[gen.Row, *gen.ApiStrictTableData] {
	return pager(s.c, gen.OpGetNewVariableParameterTableData, func(skip, take int32) call {
		params := &gen.GetNewVariableParameterTableDataParams{RcId: rcID, ObjectTypeId: ref.ObjectTypeID, ObjectId: ref.ObjectID,
			ParameterId: ref.ParameterID, VariationType: vt, Skip: skip, Take: take}
		return newCall(gen.OpGetNewVariableParameterTableData, func(srv string) (*http.Request, error) {
			return gen.NewGetNewVariableParameterTableDataRequest(srv, params)
		})
	}, gen.GetNewVariableParameterTableDataPageItems)
}

// NewTableRows yields the table rows of a variation not yet created.
// opts may be nil.
//
//scm:operation getNewVariableParameterTableData
func (s *VariationsService) NewTableRows(ctx context.Context, rcID ids.RcID, ref ParameterRef, vt gen.VariationType, opts *PageOptions) iter.Seq2[gen.Row, error] {
	if err := check(gen.OpGetNewVariableParameterTableData).rc(rcID).ref(ref).variationType("variationType", vt).done(); err != nil {
		return failedSeq[gen.Row](err)
	}
	return itemsSeq(ctx, s.newTableSource(rcID, ref, vt), opts)
}

// NewTableBatches yields the pages behind [VariationsService.NewTableRows].
//
//scm:pages getNewVariableParameterTableData
func (s *VariationsService) NewTableBatches(ctx context.Context, rcID ids.RcID, ref ParameterRef, vt gen.VariationType, opts *PageOptions) iter.Seq2[*gen.ApiStrictTableData, error] {
	if err := check(gen.OpGetNewVariableParameterTableData).rc(rcID).ref(ref).variationType("variationType", vt).done(); err != nil {
		return failedSeq[*gen.ApiStrictTableData](err)
	}
	return pagesSeq(ctx, s.newTableSource(rcID, ref, vt), opts)
}

func (s *VariationsService) existingTableSource(rcID ids.RcID, variationID ids.VariationID, ref ParameterRef, vt gen.VariationType) pageSource[gen.Row, *gen.ApiStrictTableData] {
	return pager(s.c, gen.OpGetExistingVariableParameterTableData, func(skip, take int32) call {
		params := &gen.GetExistingVariableParameterTableDataParams{RcId: rcID, VariationId: variationID, ObjectTypeId: ref.ObjectTypeID,
			ObjectId: ref.ObjectID, ParameterId: ref.ParameterID, VariationType: vt, Skip: skip, Take: take}
		return newCall(gen.OpGetExistingVariableParameterTableData, func(srv string) (*http.Request, error) {
			return gen.NewGetExistingVariableParameterTableDataRequest(srv, params)
		})
	}, gen.GetExistingVariableParameterTableDataPageItems)
}

// ExistingTableRows yields the table rows of an existing variation, with
// their selection. opts may be nil.
//
//scm:operation getExistingVariableParameterTableData
func (s *VariationsService) ExistingTableRows(ctx context.Context, rcID ids.RcID, variationID ids.VariationID, ref ParameterRef, vt gen.VariationType, opts *PageOptions) iter.Seq2[gen.Row, error] {
	err := check(gen.OpGetExistingVariableParameterTableData).rc(rcID).variation(variationID).ref(ref).variationType("variationType", vt).done()
	if err != nil {
		return failedSeq[gen.Row](err)
	}
	return itemsSeq(ctx, s.existingTableSource(rcID, variationID, ref, vt), opts)
}

// ExistingTableBatches yields the pages behind
// [VariationsService.ExistingTableRows].
//
//scm:pages getExistingVariableParameterTableData
func (s *VariationsService) ExistingTableBatches(ctx context.Context, rcID ids.RcID, variationID ids.VariationID, ref ParameterRef, vt gen.VariationType, opts *PageOptions) iter.Seq2[*gen.ApiStrictTableData, error] {
	err := check(gen.OpGetExistingVariableParameterTableData).rc(rcID).variation(variationID).ref(ref).variationType("variationType", vt).done()
	if err != nil {
		return failedSeq[*gen.ApiStrictTableData](err)
	}
	return pagesSeq(ctx, s.existingTableSource(rcID, variationID, ref, vt), opts)
}

// UpdateSelection selects or deselects cells of a variation's table by
// index. variationID is a variation's id or [ids.NewVariation], sent as
// new. The stored selection is what [VariationsService.Create] needs.
//
//scm:operation updateExistingVariableParameterTableDataByIndex
func (s *VariationsService) UpdateSelection(ctx context.Context, rcID ids.RcID, variationID ids.VariationID, ref ParameterRef, sel gen.ApiBaseIndexSelectionValueRequest) (*gen.ApiCheckUncheckResponse, error) {
	err := check(gen.OpUpdateExistingVariableParameterTableDataByIndex).rc(rcID).newOrVariation(variationID).ref(ref).
		ok("selections", len(sel.Selections) > 0, "needs at least one selection").done()
	if err != nil {
		return nil, err
	}
	params := &gen.UpdateExistingVariableParameterTableDataByIndexParams{RcId: rcID, VariationId: variationID.String(),
		ObjectTypeId: ref.ObjectTypeID, ObjectId: ref.ObjectID, ParameterId: ref.ParameterID}
	return callPtr[gen.ApiCheckUncheckResponse](ctx, s.c, newCall(gen.OpUpdateExistingVariableParameterTableDataByIndex, func(srv string) (*http.Request, error) {
		return gen.NewUpdateExistingVariableParameterTableDataByIndexRequest(srv, params, sel)
	}).withBody(sel))
}

// HasSelectedData reports whether a variation's table has selected cells.
// variationID is a variation's id or [ids.NewVariation], sent as new.
// rcID and objectID are sent as 32-bit integers, as the operation defines
// them: objectID must be one's decimal form, as the object listings give
// it.
//
//scm:operation doesVariableParameterHasSelectedData
func (s *VariationsService) HasSelectedData(ctx context.Context, rcID ids.RcID, objectID ids.ObjectID, variationID ids.VariationID) (bool, error) {
	err := check(gen.OpDoesVariableParameterHasSelectedData).int32ID("rcId", int64(rcID)).int32Text("objectId", string(objectID)).
		newOrVariation(variationID).done()
	if err != nil {
		return false, err
	}
	params := &gen.DoesVariableParameterHasSelectedDataParams{RcId: rcID, ObjectId: objectID, VariationId: variationID.String()}
	return callJSON[bool](ctx, s.c, newCall(gen.OpDoesVariableParameterHasSelectedData, func(srv string) (*http.Request, error) {
		return gen.NewDoesVariableParameterHasSelectedDataRequest(srv, params)
	}))
}

// requireSelection asks the server whether the variation's table has
// selected cells, as the reference requires before creation.
func (s *VariationsService) requireSelection(ctx context.Context, op gen.OperationID, rcID ids.RcID, objectID ids.ObjectID, variationID ids.VariationID, inRequest bool) error {
	if _, err := strconv.ParseInt(string(objectID), 10, 32); err != nil {
		return &ValidationError{Operation: string(op), Field: "objectId", Reason: fmt.Sprintf("%q is not the 32-bit integer %s takes", objectID, gen.OpDoesVariableParameterHasSelectedData)}
	}
	has, err := s.HasSelectedData(ctx, rcID, objectID, variationID)
	if err != nil || has || inRequest {
		return err
	}
	return fmt.Errorf("facade: %s: %w: nothing is selected in the table of object %s (rcId %d, variation %s): select cells with UpdateSelection first",
		op, ErrConflict, objectID, rcID, variationID)
}

// CreateNew creates a variation in one call: req.ApiVariation names the
// object type, object, parameter and variation type, each an {id, name} as
// the listing operations answer them (only the id is checked), and its data (for NUMBER_RANGE, data.body
// with min, max and step). A variation of a table type (every type but
// NUMBER_RANGE) needs selected cells: CreateNew first checks
// doesVariableParameterHasSelectedData for the new variation and fails with
// an error matching ErrConflict when the server has no selection and
// req.TableSelection selects no row.
//
//scm:operation createNewVariableParameter
func (s *VariationsService) CreateNew(ctx context.Context, req gen.ApiVariationCreateRequest) (*gen.ApiVariation, error) {
	const op = gen.OpCreateNewVariableParameter
	v := req.ApiVariation
	err := check(op).rc(req.RcId).str("apiVariation.objectType.id", idOf(v.ObjectType)).str("apiVariation.object.id", idOf(v.Object)).
		str("apiVariation.parameter.id", idOf(v.Parameter)).variationType("apiVariation.variationType.id", gen.VariationType(idOf(v.VariationType))).done()
	if err != nil {
		return nil, err
	}
	if gen.VariationType(idOf(v.VariationType)) != gen.VariationTypeNUMBERRANGE {
		if err := s.requireSelection(ctx, op, req.RcId, ids.ObjectID(idOf(v.Object)), ids.NewVariation, selectsRows(req.TableSelection)); err != nil {
			return nil, err
		}
	}
	return callPtr[gen.ApiVariation](ctx, s.c, newCall(op, func(srv string) (*http.Request, error) {
		return gen.NewCreateNewVariableParameterRequest(srv, req)
	}).withBody(req))
}

// idOf is the id of one of a variation's {id, name} fields, "" when unset.
func idOf(o *gen.ApiIdNameObject) string {
	if o == nil {
		return ""
	}
	return o.Id
}

func selectsRows(sel *[]gen.ApiIndexColumnSelection) bool {
	if sel == nil {
		return false
	}
	for _, s := range *sel {
		if len(s.RowIndexes) > 0 {
			return true
		}
	}
	return false
}

// Create creates a variation from the selection stored earlier with
// [VariationsService.UpdateSelection]. It first checks
// doesVariableParameterHasSelectedData and fails with an error matching
// ErrConflict when nothing is selected.
//
//scm:operation createVariableParameter
func (s *VariationsService) Create(ctx context.Context, rcID ids.RcID, v gen.ApiVariation) (*gen.ApiVariation, error) {
	const op = gen.OpCreateVariableParameter
	err := check(op).rc(rcID).ok("object.id", idOf(v.Object) != "", "is required").done()
	if err != nil {
		return nil, err
	}
	variationID := ids.NewVariation
	if v.Id != nil {
		variationID = *v.Id
	}
	if err := s.requireSelection(ctx, op, rcID, ids.ObjectID(idOf(v.Object)), variationID, false); err != nil {
		return nil, err
	}
	params := &gen.CreateVariableParameterParams{RcId: rcID}
	return callPtr[gen.ApiVariation](ctx, s.c, newCall(op, func(srv string) (*http.Request, error) {
		return gen.NewCreateVariableParameterRequest(srv, params, v)
	}).withBody(v))
}

// Update stores a changed variation.
//
//scm:operation updateVariableParameter
func (s *VariationsService) Update(ctx context.Context, rcID ids.RcID, v gen.ApiVariation) (*gen.ApiVariation, error) {
	err := check(gen.OpUpdateVariableParameter).rc(rcID).ok("id", v.Id != nil, "is required to update (the variationId)").done()
	if err != nil {
		return nil, err
	}
	params := &gen.UpdateVariableParameterParams{RcId: rcID}
	return callPtr[gen.ApiVariation](ctx, s.c, newCall(gen.OpUpdateVariableParameter, func(srv string) (*http.Request, error) {
		return gen.NewUpdateVariableParameterRequest(srv, params, v)
	}).withBody(v))
}

// Delete deletes a variation.
//
//scm:operation deleteVariableParameter
func (s *VariationsService) Delete(ctx context.Context, rcID ids.RcID, variationID ids.VariationID) error {
	if err := check(gen.OpDeleteVariableParameter).rc(rcID).variation(variationID).done(); err != nil {
		return err
	}
	params := &gen.DeleteVariableParameterParams{RcId: rcID, VariationId: variationID}
	return callEmpty(ctx, s.c, newCall(gen.OpDeleteVariableParameter, func(srv string) (*http.Request, error) {
		return gen.NewDeleteVariableParameterRequest(srv, params)
	}))
}
