package jsondec

import "slices"

// Keys reads a JSON document that is an object, and returns the names of
// its properties, sorted (a repeated name once), and the text of the value
// of the property name (nil when it has none; of repeated keys the last).
// ok is false when the document is not an object or not JSON.
func Keys(doc []byte, name string) (keys []string, value []byte, ok bool) {
	keys, value, ok = objectKeys(doc, name)
	slices.Sort(keys)
	return slices.Compact(keys), value, ok
}

// objectKeys is Keys with the names in the order of the document, a
// repeated name each time it comes.
func objectKeys(doc []byte, name string) (keys []string, value []byte, ok bool) {
	r := newReader(doc, nil)
	defer r.release()
	if r.Object() != OK {
		return nil, nil, false
	}
	for key, more := r.FirstKey(); more; key, more = r.NextKey() {
		keys = append(keys, string(key))
		start := r.Start()
		if r.skip() == Failed {
			return nil, nil, false
		}
		if string(key) == name {
			value = doc[start:r.pos]
		}
	}
	if r.end(); r.Failed() {
		return nil, nil, false
	}
	return keys, value, true
}
