package spec

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// PagedItems is where the items of a paged operation's page are, as its
// x-paged-items says: a property of the response model, an array of a
// named schema.
type PagedItems struct {
	Operation string // operationId
	Model     string // the response's schema name
	Property  string // the x-paged-items property
	Item      string // the schema name of an item
}

// PagedItemsOf reads where the items of every paged operation of doc are,
// except those whose response is itself the list (x-paged-items '[]'). It
// fails naming the operation when x-paged-items names no array property
// of a named schema in the response model.
func PagedItemsOf(doc *openapi3.T) ([]PagedItems, error) {
	var out []PagedItems
	for _, o := range documentOperations(doc) {
		items, err := pagedItems(o)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.where(), err)
		}
		if items != nil {
			out = append(out, *items)
		}
	}
	return out, nil
}

// pagedItems is where o's page holds its items; nil when o is not paged or
// its response is the list.
func pagedItems(o docOperation) (*PagedItems, error) {
	name, err := stringExt(o.op.Extensions, "x-paged-items")
	if err != nil || name == "[]" {
		return nil, nil // not paged; an x-paging without it is checkPaging's
	}
	model := jsonResponse(o.op)
	if model == nil || model.Ref == "" || model.Value == nil {
		return nil, fmt.Errorf("x-paged-items %s: the response is not a named schema", name)
	}
	prop := model.Value.Properties[name]
	switch {
	case prop == nil || prop.Value == nil:
		return nil, fmt.Errorf("x-paged-items %s: the response model %s has no such property", name, refName(model.Ref))
	case !prop.Value.Type.Is("array") || prop.Value.Items == nil || prop.Value.Items.Ref == "":
		return nil, fmt.Errorf("x-paged-items %s: %s.%s is not an array of a named schema", name, refName(model.Ref), name)
	}
	return &PagedItems{Operation: o.op.OperationID, Model: refName(model.Ref), Property: name, Item: refName(prop.Value.Items.Ref)}, nil
}

// jsonResponse is the schema of o's 200 application/json response, nil
// when there is none.
func jsonResponse(op *openapi3.Operation) *openapi3.SchemaRef {
	if op.Responses == nil {
		return nil
	}
	r := op.Responses.Value("200")
	if r == nil || r.Value == nil {
		return nil
	}
	if mt := r.Value.Content.Get("application/json"); mt != nil {
		return mt.Schema
	}
	return nil
}
