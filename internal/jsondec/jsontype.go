package jsondec

// TypeOf names the JSON type of a value's text as drift findings name it
// (the JSONType of a drift.Finding): string, integer (a number without a
// fraction or an exponent), number, boolean, null, object or array; "" for
// no text. raw is the text of one JSON value: TypeOf reads its first byte,
// and a number's text to its end. It is the one namer of JSON types of the
// drift contract: the generated decoders, the facade's errors and
// specdiff's probe all use it.
func TypeOf(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '{':
		return "object"
	case '[':
		return "array"
	}
	for _, c := range raw {
		if c == '.' || c == 'e' || c == 'E' {
			return "number"
		}
	}
	return "integer"
}
