package jsondec

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"sync"

	"github.com/go-faster/jx"
)

// Reader reads one JSON document held in memory. Generated decoders walk
// objects and arrays with D and read values with the functions of this
// package.
type Reader struct {
	D    jx.Decoder
	data []byte
	// names of unknown fields already seen, so that the name repeated on
	// every row of a page is allocated once
	names map[string]string
}

var readers = sync.Pool{New: func() any { return &Reader{names: make(map[string]string)} }}

// Decode reads the document data with decode, which reads one value of type
// T, and checks that only white space follows the value. Errors are *Error.
func Decode[T any](data []byte, decode func(r *Reader) error) error {
	r := readers.Get().(*Reader)
	defer r.release()
	r.D.ResetBytes(data)
	r.data = data
	var typeErr error
	if err := decode(r); err != nil {
		e, goOn := at("", err)
		if !goOn {
			return e
		}
		typeErr = e
	}
	if end := r.D.Skip(); end != io.EOF {
		return &Error{Err: errors.New("data after the top-level value"), malformed: true}
	}
	return typeErr
}

func (r *Reader) release() {
	r.D.ResetBytes(nil)
	r.data = nil
	readers.Put(r)
}

// Expect checks the type of the next value, of Go type T. It reports true
// when the value is of type want and is to be read. Otherwise the value has
// been read: null, which leaves the target as it is, or a value of another
// type, a type error.
func Expect[T any](r *Reader, want jx.Type) (bool, error) {
	switch got := r.D.Next(); got {
	case want:
		return true, nil
	case jx.Null:
		return false, r.D.Null()
	default:
		return false, r.mismatch(got, reflect.TypeFor[T]())
	}
}

// raw reads the next value and returns its text.
func (r *Reader) raw() ([]byte, error) {
	raw, err := r.D.Raw()
	for len(raw) > 0 && (raw[0] == ' ' || raw[0] == '\t' || raw[0] == '\n' || raw[0] == '\r') {
		raw = raw[1:] // white space before the document's value
	}
	return raw, err
}

// mismatch skips a value of type got that cannot be decoded into t.
func (r *Reader) mismatch(got jx.Type, t reflect.Type) error {
	raw, err := r.raw()
	if err != nil {
		return err
	}
	return typeError(kinds[got], t, r.end(raw))
}

var kinds = map[jx.Type]string{jx.String: "string", jx.Number: "number", jx.Bool: "bool", jx.Array: "array", jx.Object: "object"}

// start is the offset in the document of raw, a value the decoder returned.
func (r *Reader) start(raw []byte) int { return cap(r.data) - cap(raw) }

func (r *Reader) end(raw []byte) int { return r.start(raw) + len(raw) }

// Zero sets *p to the zero value: a field read again starts afresh.
func Zero[T any](p *T) {
	var zero T
	*p = zero
}

// Raw reads any value verbatim into v, as json.RawMessage does: null is
// kept as the text null.
func (r *Reader) Raw(v *json.RawMessage) error {
	raw, err := r.raw()
	if err != nil {
		return err
	}
	*v = append(json.RawMessage(nil), raw...)
	return nil
}

// Unknown reads the value of a field the model does not name into m, under
// the name encoding/json gives key.
func (r *Reader) Unknown(m *map[string]json.RawMessage, key []byte) error {
	raw, err := r.raw()
	if err != nil {
		e, _ := at(string(key), err)
		return e
	}
	name, err := r.name(key, raw)
	if err != nil {
		return err
	}
	if *m == nil {
		*m = make(map[string]json.RawMessage)
	}
	(*m)[name] = append(json.RawMessage(nil), raw...)
	return nil
}

// maxNames bounds the names a pooled Reader remembers, and maxNameLen
// their length.
const maxNames, maxNameLen = 64, 64

// name returns the field name key as encoding/json decodes it. The decoder
// has unescaped key; when that gave bytes beyond ASCII, the name is decoded
// again from the document, from its quoted text just before the value raw.
func (r *Reader) name(key, raw []byte) (string, error) {
	if !isASCII(key) {
		quoted, err := quotedNameBefore(r.data, r.start(raw))
		if err != nil {
			return "", err
		}
		return unquote(quoted)
	}
	if name, ok := r.names[string(key)]; ok {
		return name, nil
	}
	name := string(key)
	if len(r.names) < maxNames && len(name) <= maxNameLen {
		r.names[name] = name
	}
	return name, nil
}

// Fallback reads a value with encoding/json into v, a pointer to a field of
// a type the generated decoders do not read themselves.
func (r *Reader) Fallback(v any) error {
	raw, err := r.raw()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return &Error{Err: err}
	}
	return nil
}
