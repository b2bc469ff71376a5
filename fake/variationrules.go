package fake

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/scmodel/scmgo/fake/internal/genserver"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// applySelection selects (or deselects) cells of a table of rows×cols cells;
// a selection without columnIndex takes whole rows. It answers the counts.
func applySelection(sel map[cellRef]bool, selections []gen.ApiIndexColumnSelection, on bool, rows int64, cols int32) (gen.ApiCheckUncheckResponse, error) {
	if err := checkSelections(selections, rows, cols); err != nil {
		return gen.ApiCheckUncheckResponse{}, err
	}
	var changed int64
	for _, s := range selections {
		for _, ref := range selectionCells(s, cols) {
			if sel[ref] != on {
				changed++
			}
			if on {
				sel[ref] = true
			} else {
				delete(sel, ref)
			}
		}
	}
	return gen.ApiCheckUncheckResponse{SelectedCount: int64(len(sel)), TotalCount: ptr(rows * int64(cols)), Changed: &changed}, nil
}

func checkSelections(selections []gen.ApiIndexColumnSelection, rows int64, cols int32) error {
	for i, s := range selections {
		if s.ColumnIndex != nil && (*s.ColumnIndex < 0 || *s.ColumnIndex >= cols) {
			return failure("body selections[%d].columnIndex: %d is outside 0..%d", i, *s.ColumnIndex, cols-1)
		}
		for _, r := range s.RowIndexes {
			if r < 0 || r >= rows {
				return failure("body selections[%d].rowIndexes: %d is outside 0..%d", i, r, rows-1)
			}
		}
	}
	return nil
}

func selectionCells(s gen.ApiIndexColumnSelection, cols int32) []cellRef {
	var out []cellRef
	for _, r := range s.RowIndexes {
		if s.ColumnIndex != nil {
			out = append(out, cellRef{r, *s.ColumnIndex})
			continue
		}
		for c := int32(0); c < cols; c++ {
			out = append(out, cellRef{r, c})
		}
	}
	return out
}

func (w *world) selection(key selectionKey) map[cellRef]bool {
	sel := w.selections.get(key)
	if sel == nil {
		sel = map[cellRef]bool{}
		w.selections.set(key, sel)
	}
	return sel
}

// UpdateExistingVariableParameterTableDataByIndex stores a selection of a
// variation table: variationId is a variation's id or "new".
func (s *service) UpdateExistingVariableParameterTableDataByIndex(_ context.Context, req genserver.UpdateExistingVariableParameterTableDataByIndexRequestObject) (genserver.UpdateExistingVariableParameterTableDataByIndexResponseObject, error) {
	p := req.Params
	w := s.w
	w.lock()
	defer w.unlock()
	if _, err := w.runConfigOfType(p.RcId, gen.ExperimentTypeVARIATION); err != nil {
		return nil, err
	}
	if err := linkParam(p.ObjectTypeId, p.ObjectId, p.ParameterId); err != nil {
		return nil, err
	}
	if err := w.checkVariationID(p.RcId, p.VariationId); err != nil {
		return nil, err
	}
	on := req.Body.Selected == nil || *req.Body.Selected
	sel := w.selection(selectionKey{p.RcId, p.VariationId, p.ObjectId, p.ParameterId})
	out, err := applySelection(sel, req.Body.Selections, on, variationTableRows, int32(len(variationColumns)))
	if err != nil {
		return nil, err
	}
	return genserver.UpdateExistingVariableParameterTableDataByIndex200JSONResponse(out), nil
}

func (w *world) checkVariationID(rcID ids.RcID, id string) error {
	if id == "new" {
		return nil
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return failure("parameter variationId: %s is neither a variation id nor new", quoteText(id))
	}
	_, err = w.variation(rcID, ids.VariationID(n))
	return err
}

// DoesVariableParameterHasSelectedData tells whether any table of the object
// in the variation (or "new") has selected cells.
func (s *service) DoesVariableParameterHasSelectedData(_ context.Context, req genserver.DoesVariableParameterHasSelectedDataRequestObject) (genserver.DoesVariableParameterHasSelectedDataResponseObject, error) {
	p := req.Params
	w := s.w
	w.lock()
	defer w.unlock()
	if _, err := w.runConfigOfType(p.RcId, gen.ExperimentTypeVARIATION); err != nil {
		return nil, err
	}
	if err := w.checkVariationID(p.RcId, p.VariationId); err != nil {
		return nil, err
	}
	for _, key := range w.selections.tables(p.RcId, p.VariationId) {
		if key.object == p.ObjectId && len(w.selections.get(key)) > 0 {
			return genserver.DoesVariableParameterHasSelectedData200JSONResponse(true), nil
		}
	}
	return genserver.DoesVariableParameterHasSelectedData200JSONResponse(false), nil
}

// CreateNewVariableParameter creates a variation from the request a real
// client sends, {rcId, apiVariation}. A NUMBER_RANGE needs no table; a table
// variation type needs the selected cells in tableSelection.
func (s *service) CreateNewVariableParameter(_ context.Context, req genserver.CreateNewVariableParameterRequestObject) (genserver.CreateNewVariableParameterResponseObject, error) {
	if req.Body == nil {
		return nil, badRequest("request body: an ApiVariationCreateRequest body is required")
	}
	b := *req.Body
	w := s.w
	w.lock()
	defer w.unlock()
	if err := w.checkCreate(b.RcId, b.ApiVariation); err != nil {
		return nil, err
	}
	sel := map[cellRef]bool{}
	if vt := variationTypeOf(b.ApiVariation); vt != gen.VariationTypeNUMBERRANGE {
		if _, err := applySelection(sel, deref(b.TableSelection), true, variationTableRows, int32(len(variationColumns))); err != nil {
			return nil, err
		}
		if len(sel) == 0 {
			return nil, failure("body tableSelection: no cells are selected; a %s variation can be created only with selected cells", vt)
		}
	}
	v := w.addVariation(b.RcId, b.ApiVariation)
	if len(sel) > 0 {
		w.selections.set(selectionKey{v.rcID, itoa(v.id), v.object, v.parameter}, sel)
	}
	return genserver.CreateNewVariableParameter200JSONResponse(v.api()), nil
}

// CreateVariableParameter creates a variation; one of a table variation
// type takes the selection stored before with variationId=new, and without
// one it is refused.
func (s *service) CreateVariableParameter(_ context.Context, req genserver.CreateVariableParameterRequestObject) (genserver.CreateVariableParameterResponseObject, error) {
	if req.Body == nil {
		return nil, badRequest("request body: an ApiVariation body is required")
	}
	b, rcID := *req.Body, req.Params.RcId
	w := s.w
	w.lock()
	defer w.unlock()
	if err := w.checkCreate(rcID, b); err != nil {
		return nil, err
	}
	newKey := selectionKey{rcID, "new", ids.ObjectID(b.Object.Id), b.Parameter.Id}
	table := variationTypeOf(b) != gen.VariationTypeNUMBERRANGE
	if table && len(w.selections.get(newKey)) == 0 {
		return nil, failure("no cells are selected: select cells with updateExistingVariableParameterTableDataByIndex (variationId=new) first")
	}
	v := w.addVariation(rcID, b)
	if table {
		w.selections.set(selectionKey{v.rcID, itoa(v.id), v.object, v.parameter}, w.selections.get(newKey))
		w.selections.remove(newKey)
	}
	return genserver.CreateVariableParameter200JSONResponse(v.api()), nil
}

// checkCreate checks a variation to create: a variation experiment, the
// object type, object, parameter and variation type given and fitting, and
// a NUMBER_RANGE's body with min at most max and a positive step.
func (w *world) checkCreate(rcID ids.RcID, v gen.ApiVariation) error {
	if _, err := w.runConfigOfType(rcID, gen.ExperimentTypeVARIATION); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    *gen.ApiIdNameObject
	}{{"objectType", v.ObjectType}, {"object", v.Object}, {"parameter", v.Parameter}, {"variationType", v.VariationType}} {
		if f.v == nil || f.v.Id == "" {
			return failure("body %s.id: is required", f.name)
		}
	}
	if _, err := findParamOfType(v.ObjectType.Id, ids.ObjectID(v.Object.Id), v.Parameter.Id, variationTypeOf(v)); err != nil {
		return err
	}
	return checkRange(v.Data)
}

func checkRange(data *gen.ApiVariationData) error {
	if data == nil || data.Body == nil {
		return nil
	}
	b := data.Body
	if b.Min != nil && b.Max != nil && *b.Min > *b.Max {
		return failure("body data.body: min %v is above max %v", *b.Min, *b.Max)
	}
	if b.Step != nil && *b.Step <= 0 {
		return failure("body data.body.step: %v is not positive", *b.Step)
	}
	return nil
}

func (w *world) addVariation(rcID ids.RcID, a gen.ApiVariation) *variation {
	v := &variation{id: w.nextVariation, rcID: rcID, name: deref(a.Name), objectType: a.ObjectType.Id, object: ids.ObjectID(a.Object.Id),
		parameter: a.Parameter.Id, typ: variationTypeOf(a), data: a.Data}
	if v.name == "" {
		v.name = v.parameter + " of " + string(v.object)
	}
	w.nextVariation++
	w.variations[v.id] = v
	return v
}

func (v *variation) api() gen.ApiVariation {
	return gen.ApiVariation{Id: ptr(v.id), RcId: ptr(v.rcID), Name: ptr(v.name), ObjectType: objectTypeRef(v.objectType),
		Object: objectRef(v.objectType, v.object), Parameter: parameterRef(v.objectType, v.parameter),
		VariationType: variationTypeRef(v.typ), Data: v.data}
}

// UpdateVariableParameter changes a variation's name, data and variation
// type; the variation is named by the body's variationId.
func (s *service) UpdateVariableParameter(_ context.Context, req genserver.UpdateVariableParameterRequestObject) (genserver.UpdateVariableParameterResponseObject, error) {
	b := *req.Body
	if b.Id == nil {
		return nil, failure("body id: is required (the variationId)")
	}
	w := s.w
	w.lock()
	defer w.unlock()
	v, err := w.variation(req.Params.RcId, *b.Id)
	if err != nil {
		return nil, err
	}
	if b.VariationType != nil {
		if _, err := findParamOfType(v.objectType, v.object, v.parameter, variationTypeOf(b)); err != nil {
			return nil, err
		}
		v.typ = variationTypeOf(b)
	}
	if err := checkRange(b.Data); err != nil {
		return nil, err
	}
	if b.Name != nil {
		v.name = *b.Name
	}
	if b.Data != nil {
		v.data = b.Data
	}
	return genserver.UpdateVariableParameter200JSONResponse(v.api()), nil
}

func (s *service) DeleteVariableParameter(_ context.Context, req genserver.DeleteVariableParameterRequestObject) (genserver.DeleteVariableParameterResponseObject, error) {
	w := s.w
	w.lock()
	defer w.unlock()
	v, err := w.variation(req.Params.RcId, req.Params.VariationId)
	if err != nil {
		return nil, err
	}
	delete(w.variations, v.id)
	for _, key := range w.selections.tables(v.rcID, itoa(v.id)) {
		w.selections.remove(key)
	}
	return genserver.DeleteVariableParameterdefaultResponse{StatusCode: http.StatusOK}, nil
}

// variationTypeOf is the variation type a variation's {id, name} names.
func variationTypeOf(v gen.ApiVariation) gen.VariationType {
	if v.VariationType == nil {
		return ""
	}
	return gen.VariationType(v.VariationType.Id)
}

// The {id, name} of a variation's fields, named as the listing operations
// name them.
func objectTypeRef(typeID string) *gen.ApiIdNameObject {
	t, _ := findObjectType(typeID)
	return &gen.ApiIdNameObject{Id: typeID, Name: t.name}
}

func objectRef(typeID string, objectID ids.ObjectID) *gen.ApiIdNameObject {
	t, _ := findObjectType(typeID)
	n, _ := strconv.Atoi(string(objectID))
	return &gen.ApiIdNameObject{Id: string(objectID), Name: t.object + " " + strconv.Itoa(n-t.idBase)}
}

func parameterRef(typeID, paramID string) *gen.ApiIdNameObject {
	t, _ := findObjectType(typeID)
	for _, p := range t.params {
		if p.id == paramID {
			return &gen.ApiIdNameObject{Id: paramID, Name: p.name}
		}
	}
	return &gen.ApiIdNameObject{Id: paramID, Name: paramID}
}

func variationTypeRef(t gen.VariationType) *gen.ApiIdNameObject {
	return &gen.ApiIdNameObject{Id: string(t), Name: variationTypeName(t)}
}

// variationTypeName is the i18n key a real server names a variation type
// with: NUMBER_RANGE is i18n-Variation_NumberRange.
func variationTypeName(t gen.VariationType) string {
	var b strings.Builder
	b.WriteString("i18n-Variation_")
	for _, word := range strings.Split(strings.ToLower(string(t)), "_") {
		if word != "" {
			b.WriteString(strings.ToUpper(word[:1]) + word[1:])
		}
	}
	return b.String()
}
