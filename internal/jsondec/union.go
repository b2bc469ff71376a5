package jsondec

// Discriminator looks ahead at the object that comes next for the string
// field name, which tells which variant of a oneOf the object is, without
// moving: the generated decoder of the variant then reads the object. It
// returns the field's value and true, or "" and false when the object lacks
// the field or holds another type there; st is OK then. When the next value
// is not an object it is read as Object reads one (Null, or Kept for a
// value of another type) and st says so; st is Failed for malformed JSON.
func (r *Reader) Discriminator(name string) (value string, found bool, st Status) {
	c := r.ws()
	if c != '{' {
		return "", false, r.other(c)
	}
	pos, depth := r.pos, r.depth
	value, found = r.scanFor(name)
	failed := r.err != nil
	r.pos, r.depth, r.err = pos, depth, nil
	if failed {
		// the variant's decoder finds the same fault at the same offset
		return "", false, OK
	}
	return value, found, OK
}

// scanFor reads the object that comes next, skipping every value but that
// of the field name, and returns that value when it is a string.
func (r *Reader) scanFor(name string) (string, bool) {
	if r.Object() != OK {
		return "", false
	}
	value, found := "", false
	for key, ok := r.FirstKey(); ok; key, ok = r.NextKey() {
		if string(key) != name || r.ws() != '"' {
			if r.skip() == Failed {
				return "", false
			}
			continue
		}
		s, ok := r.readString()
		if !ok {
			return "", false
		}
		value, found = s, true // of repeated keys the last, as encoding/json
	}
	return value, found
}

// Unmatched reports an object of a oneOf whose discriminator, at s, names
// no variant (found) or is missing (!found). The object is kept whole by
// the caller.
func (r *Reader) Unmatched(s *Site, value string, found bool) {
	if !found {
		r.note(kindMissing, s, "", s.Path+" ("+s.Label+") is required; the answer lacks it")
		return
	}
	r.Enum(s, value)
}
