package oas

// PairRenames pairs missing names with unknown ones where same holds and
// the pair is the only candidate either way: a property the spec has and
// a document lacks, and one the document has in its place. The listing
// diff pairs properties of the same type, the probe fields of a compatible
// JSON type.
func PairRenames(missing, unknown []string, same func(old, nu string) bool) map[string]string {
	out := map[string]string{}
	for _, old := range missing {
		var candidates []string
		for _, nu := range unknown {
			if same(old, nu) {
				candidates = append(candidates, nu)
			}
		}
		if len(candidates) != 1 {
			continue
		}
		rivals := 0
		for _, o := range missing {
			if same(o, candidates[0]) {
				rivals++
			}
		}
		if rivals == 1 {
			out[old] = candidates[0]
		}
	}
	return out
}

// CompatibleJSONType reports whether a value of JSON type value (as
// jsondec.TypeOf names it) has the JSON type a schema asks for: the same,
// or an integer where a number is asked. An empty schema type (any) is
// compatible with nothing: nothing can be said of it.
func CompatibleJSONType(schema, value string) bool {
	return schema != "" && (schema == value || (schema == "number" && value == "integer"))
}
