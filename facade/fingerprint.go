package facade

import (
	"hash/maphash"
	"strings"
)

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
// might also take for it (another case, escapes). It only finds where values
// start and end, which costs a fraction of decoding them; the body is
// decoded in full anyway.
func topLevelField(b []byte, name string) []byte {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	var found []byte
	for i++; ; i++ {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return nil
		}
		keyEnd := skipString(b, i)
		if keyEnd < 0 {
			return nil
		}
		key := b[i+1 : keyEnd-1]
		i = skipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return nil
		}
		start := skipSpace(b, i+1)
		end := skipValue(b, start)
		if end <= start {
			return nil
		}
		switch k := string(key); {
		case k == name:
			found = b[start:end]
		case strings.EqualFold(k, name) || strings.Contains(k, `\`):
			// encoding/json matches keys case-insensitively and after
			// unescaping: which value it keeps is not certain here.
			return nil
		}
		if i = skipSpace(b, end); i < len(b) && b[i] == '}' {
			return found
		}
		if i >= len(b) || b[i] != ',' {
			return nil
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i], or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the value that starts at b[i], or -1
// when it does not end.
func skipValue(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			k := skipString(b, j)
			if k < 0 || depth == 0 {
				return k
			}
			j = k - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j // a scalar ended by its object's close
			}
			if depth--; depth == 0 {
				return j + 1
			}
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	if depth == 0 {
		return len(b)
	}
	return -1
}
