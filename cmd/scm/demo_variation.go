package main

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// variation follows the reference's rules: a variation with a table can be
// created only once cells are selected, and doesVariableParameterHasSelectedData
// is asked first.
func (d *demo) variation() error {
	rcID, err := d.experiment(gen.ExperimentTypeVARIATION)
	if err != nil {
		return err
	}
	ref, vt, err := d.firstParameter()
	if err != nil {
		return err
	}
	d.say("Parameter %s of %s %s, variation type %s.", ref.ParameterID, ref.ObjectTypeID, ref.ObjectID, vt)
	v := gen.ApiVariation{Name: ptr("Demo variation"), ObjectType: &ref.ObjectTypeID, Object: &ref.ObjectID,
		Parameter: &ref.ParameterID, VariationType: &vt}
	if _, err := d.c.Variations.Create(d.ctx, rcID, v); !errors.Is(err, facade.ErrNothingSelected) {
		return fmt.Errorf("creating with nothing selected: want a refusal, got %v", err)
	}
	d.say("Nothing selected yet: creation refused, as the rules say.")
	sel := gen.ApiBaseIndexSelectionValueRequest{Selections: []gen.ApiIndexColumnSelection{{ColumnIndex: ptr(int32(1)), RowIndexes: []int64{0, 1, 2}}}}
	if _, err := d.c.Variations.UpdateSelection(d.ctx, rcID, facade.NewVariationID, ref, sel); err != nil {
		return err
	}
	objectID, _ := strconv.ParseInt(ref.ObjectID, 10, 64)
	has, err := d.c.Variations.HasSelectedData(d.ctx, rcID, objectID, facade.NewVariationID)
	if err != nil {
		return err
	}
	d.say("Selected 3 cells; doesVariableParameterHasSelectedData now answers %t.", has)
	created, err := d.c.Variations.Create(d.ctx, rcID, v)
	if err != nil {
		return err
	}
	d.variationID = deref(created.Id)
	d.say("Created variation %d %q.", d.variationID, deref(created.Name))
	return nil
}

// firstParameter walks object types, objects, parameters and variation
// types of the scenario and takes the first of each.
func (d *demo) firstParameter() (facade.ParameterRef, gen.VariationType, error) {
	var ref facade.ParameterRef
	types, err := d.c.Variations.ObjectTypes(d.ctx, d.scenarioID)
	if err != nil || len(types.List) == 0 {
		return ref, "", orNone(err, "object types")
	}
	ref.ObjectTypeID = types.List[0].Id
	for o, err := range d.c.Variations.Objects(d.ctx, d.scenarioID, ref.ObjectTypeID, &facade.PageOptions{MaxItems: 1}) {
		if err != nil {
			return ref, "", err
		}
		ref.ObjectID = o.Id
	}
	params, err := d.c.Variations.Parameters(d.ctx, d.scenarioID, ref.ObjectTypeID, ref.ObjectID)
	if err != nil || len(params.List) == 0 {
		return ref, "", orNone(err, "parameters")
	}
	ref.ParameterID = params.List[0].Id
	vts, err := d.c.Variations.VariationTypes(d.ctx, d.scenarioID, ref)
	if err != nil || len(vts.List) == 0 {
		return ref, "", orNone(err, "variation types")
	}
	return ref, gen.VariationType(vts.List[0].Id), nil
}

func orNone(err error, what string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("the server lists no %s", what)
}
