package jsondec

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// unquote decodes a well-formed JSON string. Strings of plain ASCII, or of
// valid UTF-8 without escapes, are their bytes; any other goes through
// encoding/json, so that it decodes exactly as there.
func unquote(quoted []byte) (string, error) {
	s := quoted[1 : len(quoted)-1]
	if isASCII(s) {
		return string(s), nil
	}
	for _, c := range s {
		if c == '\\' {
			return unquoteSlow(quoted)
		}
	}
	if utf8.Valid(s) {
		return string(s), nil
	}
	return unquoteSlow(quoted)
}

func unquoteSlow(quoted []byte) (string, error) {
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return "", &Error{Err: err, malformed: true}
	}
	return s, nil
}

// isASCII reports whether b is ASCII without backslashes.
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf || c == '\\' {
			return false
		}
	}
	return true
}

var errNoName = errors.New("no field name before the value")

// quotedNameBefore returns the quoted field name that precedes the value at
// offset start of data: `"name"`, then white space, a colon and white space.
// A quote inside a well-formed string is escaped: an odd number of
// backslashes precedes it; the opening quote follows a brace or a comma.
func quotedNameBefore(data []byte, start int) ([]byte, error) {
	i := skipSpaceBack(data, start-1)
	if i < 0 || data[i] != ':' {
		return nil, errNoName
	}
	end := skipSpaceBack(data, i-1)
	if end < 0 || data[end] != '"' {
		return nil, errNoName
	}
	for i = end - 1; i >= 0; i-- {
		if data[i] == '"' && backslashesBefore(data, i)%2 == 0 {
			return data[i : end+1], nil
		}
	}
	return nil, errNoName
}

func skipSpaceBack(data []byte, i int) int {
	for i >= 0 && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i--
	}
	return i
}

func backslashesBefore(data []byte, i int) int {
	n := 0
	for i--; i >= 0 && data[i] == '\\'; i-- {
		n++
	}
	return n
}
