package jsondec

import (
	"encoding/json"

	"github.com/scmodel/scmgo/drift"
)

// ArraySite is the site of an answer that is an array of elements at elem.
func ArraySite(root string, elem *Site) *Site {
	return &Site{Path: root, At: root, Type: "array of " + elem.Type, Label: "array of " + elem.Label, Elem: elem}
}

// DecodeScalar decodes an answer that is a bool, string, int64, float64 or
// raw value, as the generated decoders do a model; any other v goes to
// json.Unmarshal.
func DecodeScalar(data []byte, v any, root string, note func(drift.Finding)) error {
	site := &Site{Path: root, At: root}
	r := Begin(data)
	var st Status
	switch v := v.(type) {
	case *bool:
		*v, site.Type = false, "boolean"
		st = Bool(r, v)
	case *string:
		*v, site.Type = "", "string"
		st = Str(r, v)
	case *int64:
		*v, site.Type = 0, "integer/int64"
		st = Int(r, v)
	case *float64:
		*v, site.Type = 0, "number/double"
		st = Float64(r, v)
	case *json.RawMessage:
		site.Type = "any"
		st = r.Raw(v)
	default:
		r.release()
		return json.Unmarshal(data, v)
	}
	site.Label = site.Type
	return r.Finish(st, site, note)
}
