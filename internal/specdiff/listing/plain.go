package listing

import (
	"bufio"
	"bytes"
	"strings"
)

// parsePlain reads a plain list: one operation name per line, in either
// style, optionally followed by METHOD and PATH. Blank lines and # comments
// (whole-line or trailing) are ignored.
func parsePlain(src string, data []byte) ([]Entry, error) {
	var entries []Entry
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(data, utf8BOM)))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		e, ok, err := parsePlainLine(src, n, sc.Text())
		if err != nil {
			return nil, err
		}
		if ok {
			entries = append(entries, e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, lineError(src, n+1, "reading: %v", err)
	}
	return entries, nil
}

func parsePlainLine(src string, n int, text string) (Entry, bool, error) {
	if i := strings.Index(text, "#"); i >= 0 {
		text = text[:i]
	}
	fields := strings.Fields(text)
	switch len(fields) {
	case 0:
		return Entry{}, false, nil
	case 1, 3:
	default:
		return Entry{}, false, lineError(src, n, "want NAME or NAME METHOD PATH, have %d fields", len(fields))
	}
	if !operationName.MatchString(fields[0]) {
		return Entry{}, false, lineError(src, n, "%q is not an operation name", fields[0])
	}
	e := Entry{Name: fields[0], Line: n}
	if len(fields) == 3 {
		var err error
		if e.Method, e.Path, err = parseRoute(src, n, fields[1], fields[2]); err != nil {
			return Entry{}, false, err
		}
	}
	return e, true, nil
}
