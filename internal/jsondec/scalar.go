package jsondec

import "encoding/json"

// root names the answer in the paths of values outside a model.
func (o *Options) root() string {
	if o == nil || o.Root == "" {
		return "answer"
	}
	return o.Root
}

// ArraySite is the site of an answer that is an array of elements at
// elem, named as o names the answer.
func ArraySite(o *Options, elem *Site) *Site {
	root := o.root()
	return &Site{Path: root, At: root, Type: "array of " + elem.Type, Label: "array of " + elem.Label, Elem: elem}
}

// DecodeScalar decodes an answer that is a bool, string, int64, float64 or
// raw value, as the generated decoders do a model; any other v goes to
// json.Unmarshal.
func DecodeScalar(data []byte, v any, o *Options) error {
	root := o.root()
	site := &Site{Path: root, At: root}
	r := Begin(data, o)
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
	return r.Finish(st, site)
}
