package facade

// A small scanner of JSON value boundaries: it finds where keys and values
// start and end without decoding them, for the page fingerprint and the
// fast table-page check.

// walkObject calls fn with each key and raw value of the JSON object b
// while fn returns true. It reports whether it walked the whole object: a
// body that is not one is walked as far as it goes, and the decoder reports
// what is wrong with it.
func walkObject(b []byte, fn func(key string, val []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		keyEnd := skipString(b, i)
		if keyEnd < 0 {
			return false
		}
		key := string(b[i+1 : keyEnd-1])
		if i = skipSpace(b, keyEnd); i >= len(b) || b[i] != ':' {
			return false
		}
		start := skipSpace(b, i+1)
		end := skipValue(b, start)
		if end <= start || !fn(key, b[start:end]) {
			return false
		}
		switch i = skipSpace(b, end); {
		case i < len(b) && b[i] == '}':
			return true
		case i >= len(b) || b[i] != ',':
			return false
		}
		i = skipSpace(b, i+1)
	}
}

// eachElement calls fn with each raw element of the JSON array b until fn
// returns false.
func eachElement(b []byte, fn func(elem []byte) bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return
	}
	for i++; ; i++ {
		start := skipSpace(b, i)
		end := skipValue(b, start)
		if end <= start || !fn(b[start:end]) {
			return
		}
		if i = skipSpace(b, end); i >= len(b) || b[i] != ',' {
			return
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
