package main

import (
	"errors"
	"fmt"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// maxParameterTypes bounds the object types parameters searches: the
// first object of each.
const maxParameterTypes = 3

// parameters walks the variable parameters of the simulated scenario:
// object types, an object of each, its parameters and their variation
// types, and takes the first parameter that varies by NUMBER_RANGE.
func (d *demo) parameters() error {
	types, err := d.c.Variations.ObjectTypes(d.ctx, d.scenarioID)
	if err != nil {
		return err
	}
	for i, t := range types.List {
		if i == maxParameterTypes {
			break
		}
		found, err := d.numberRangeOf(t)
		if err != nil || found {
			return err
		}
	}
	return fmt.Errorf("scenario %d: none of the first %d object types has a parameter that varies by NUMBER_RANGE", d.scenarioID, maxParameterTypes)
}

// numberRangeOf looks through the parameters of an object type's first
// object for one that varies by NUMBER_RANGE.
func (d *demo) numberRangeOf(t gen.ApiIdNameObject) (bool, error) {
	ref := facade.ParameterRef{ObjectTypeID: t.Id}
	for o, err := range d.c.Variations.Objects(d.ctx, d.scenarioID, t.Id, &facade.PageOptions{MaxItems: 1}) {
		if err != nil {
			return false, err
		}
		ref.ObjectID = ids.ObjectID(o.Id)
	}
	if ref.ObjectID == "" {
		return false, nil
	}
	params, err := d.c.Variations.Parameters(d.ctx, d.scenarioID, t.Id, ref.ObjectID)
	if err != nil {
		return false, err
	}
	for _, p := range params.List {
		ref.ParameterID = p.Id
		vts, err := d.c.Variations.VariationTypes(d.ctx, d.scenarioID, ref)
		if err != nil {
			return false, err
		}
		d.say("%s (%s), object %s: parameter %s varies by %v.", t.Name, t.Id, ref.ObjectID, p.Id, optionIDs(vts.List))
		for _, vt := range vts.List {
			if vt.Id == string(gen.VariationTypeNUMBERRANGE) {
				d.param = ref
				return true, nil
			}
		}
	}
	return false, nil
}

func optionIDs(list []gen.ApiIdNameObject) []string {
	ids := make([]string, len(list))
	for i, o := range list {
		ids[i] = o.Id
	}
	return ids
}

// variation creates a NUMBER_RANGE variation of the scenario's VARIATION
// experiment in one call (createNewVariableParameter), with min, max and
// step in data.body, as real clients do: it needs no table selection.
func (d *demo) variation() error {
	if d.param.ParameterID == "" {
		return errors.New("no parameter that varies by NUMBER_RANGE was found")
	}
	rcID, err := d.experimentOf(d.scenarioID, gen.ExperimentTypeVARIATION)
	if err != nil {
		return err
	}
	req := gen.ApiVariationCreateRequest{RcId: rcID, ApiVariation: gen.ApiVariation{
		ObjectType: &gen.ApiIdNameObject{Id: d.param.ObjectTypeID}, Object: &gen.ApiIdNameObject{Id: string(d.param.ObjectID)},
		Parameter: &gen.ApiIdNameObject{Id: d.param.ParameterID}, VariationType: &gen.ApiIdNameObject{Id: string(gen.VariationTypeNUMBERRANGE)},
		Data: &gen.ApiVariationData{Body: &gen.ApiVariationDataObject{Min: ptr(100.0), Max: ptr(200.0), Step: ptr(50.0)}},
	}}
	created, err := d.c.Variations.CreateNew(d.ctx, req)
	if err != nil {
		return err
	}
	d.variationID = deref(created.Id)
	d.say("Created variation %d of rcId %d: %s of %s %s from 100 to 200 in steps of 50.",
		d.variationID, rcID, d.param.ParameterID, d.param.ObjectTypeID, d.param.ObjectID)
	return nil
}
