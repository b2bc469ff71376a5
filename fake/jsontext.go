package fake

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkJSONText reads a JSON request body (bounded by limitBody) and
// refuses one that is not valid UTF-8, naming the field of the first string
// that is not: encoding/json, and so kin-openapi, would silently replace
// its bytes. The body is put back for the validation and the handler.
func checkJSONText(r *http.Request) error {
	if r.Body == nil {
		return nil
	}
	b, err := io.ReadAll(r.Body)
	r.Body.Close()
	if err != nil {
		return bodyReadError("request body", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	if utf8.Valid(b) {
		return nil
	}
	if field := invalidUTF8Field(b); field != "" {
		return badRequest("request body field %s: a string that is not valid UTF-8", clip(field))
	}
	return badRequest("request body: not valid UTF-8")
}

// jsonFrame is an object or a list being read: the key or index of the
// value being read in it.
type jsonFrame struct {
	object  bool
	key     string
	index   int
	wantKey bool
}

// invalidUTF8Field names the field (dotted path, list items by index) of
// the first string of a JSON text whose bytes are not valid UTF-8: "" when
// there is none, or when the text stops being JSON before it.
func invalidUTF8Field(b []byte) string {
	dec := json.NewDecoder(bytes.NewReader(b))
	var stack []jsonFrame
	var prev int64
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		raw := b[prev:dec.InputOffset()]
		prev = dec.InputOffset()
		s, isString := tok.(string)
		isKey := isString && len(stack) > 0 && stack[len(stack)-1].wantKey
		if isKey {
			stack[len(stack)-1].key, stack[len(stack)-1].wantKey = s, false
		}
		if isString && !utf8.Valid(raw) {
			return jsonPath(stack, isKey)
		}
		if !isKey {
			stack = step(stack, tok)
		}
	}
}

// step moves past a value token: opens or closes an object or a list, or
// moves to the next key or item.
func step(stack []jsonFrame, tok json.Token) []jsonFrame {
	switch tok {
	case json.Delim('{'):
		return append(stack, jsonFrame{object: true, wantKey: true})
	case json.Delim('['):
		return append(stack, jsonFrame{})
	case json.Delim('}'), json.Delim(']'):
		stack = stack[:len(stack)-1]
	}
	if n := len(stack); n > 0 { // a value is done: on to the next key or item
		stack[n-1].wantKey = stack[n-1].object
		if !stack[n-1].object {
			stack[n-1].index++
		}
	}
	return stack
}

// jsonPath is the dotted path of the value being read; for a key, the
// path of the field it names.
func jsonPath(stack []jsonFrame, isKey bool) string {
	parts := make([]string, 0, len(stack))
	for _, f := range stack {
		if f.object {
			parts = append(parts, f.key)
		} else {
			parts = append(parts, strconv.Itoa(f.index))
		}
	}
	path := strings.ToValidUTF8(strings.Join(parts, "."), "\uFFFD")
	if isKey {
		return path + " (its name)"
	}
	return path
}
