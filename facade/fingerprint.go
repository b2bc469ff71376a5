package facade

import "hash/maphash"

var pageHashSeed = maphash.MakeSeed()

// itemsFingerprint hashes the items of a page body: the top-level property
// named by the operation's x-paged-items, or the whole body when the
// response is the list itself ("[]") or the property cannot be found. A
// server that repeats its last page past the end is recognised by it even
// when it changes other fields (an echoed skip, a timestamp) between answers.
func itemsFingerprint(body []byte, field string) uint64 {
	items := body
	if field != "[]" {
		if raw := topLevelField(body, field); raw != nil {
			items = raw
		}
	}
	return maphash.Bytes(pageHashSeed, items)
}

// topLevelField returns the raw value of a top-level property of a JSON
// object (the last one, as encoding/json keeps, if the name repeats), or nil
// when the body is not an object, lacks it, or has a key that encoding/json
// might also take for it (another case, escapes).
func topLevelField(b []byte, name string) []byte {
	var found []byte
	whole := walkObject(b, func(key string, val []byte) bool {
		if key == name {
			found = val
			return true
		}
		return !isInexact(key, []string{name})
	})
	if !whole {
		return nil
	}
	return found
}
