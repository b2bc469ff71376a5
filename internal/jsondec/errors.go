package jsondec

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
)

// Error is a decoding error at Path, the JSON path of the value from the top
// of the document: field names and array indexes joined by dots
// ("rows.3.index"). Err is a *json.UnmarshalTypeError for a value of the
// wrong type (its Field is the path too, its Struct the innermost model), the
// error of encoding/json for a value decoded through it, or the reader's
// error for malformed JSON.
type Error struct {
	Path      string
	Err       error
	malformed bool
}

func (e *Error) Error() string {
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(e.Err, &te):
		return te.Error()
	case e.malformed && e.Path != "":
		return "json: malformed at " + e.Path + ": " + e.Err.Error()
	case e.malformed:
		return "json: malformed: " + e.Err.Error()
	case e.Path != "":
		return "json: " + e.Path + ": " + e.Err.Error()
	}
	return "json: " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Malformed reports whether the document is not well-formed JSON.
func (e *Error) Malformed() bool { return e.malformed }

// at prefixes the path of err with step, wrapping an error of the reader as
// malformed JSON, and reports whether decoding may go on (a type error).
func at(step string, err error) (*Error, bool) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Err: err, malformed: true}
	}
	e.Path = join(step, e.Path)
	var te *json.UnmarshalTypeError
	if errors.As(e.Err, &te) {
		te.Field = join(step, te.Field)
	}
	return e, !e.malformed
}

func join(step, path string) string {
	switch {
	case step == "":
		return path
	case path == "":
		return step
	}
	return step + "." + path
}

func typeError(value string, t reflect.Type, offset int) *Error {
	return &Error{Err: &json.UnmarshalTypeError{Value: value, Type: t, Offset: int64(offset)}}
}

// Fields keeps the type errors of the fields of an object of Model, by
// field number. A field read again replaces its earlier value and so its
// earlier error: encoding/json decodes only the last of repeated keys.
type Fields struct {
	Model  string
	failed map[int]*Error
}

// Note records the outcome of reading field number i, named name. It
// returns the error that must stop decoding (malformed JSON), or nil.
func (f *Fields) Note(i int, name string, err error) error {
	if err == nil {
		if f.failed != nil {
			delete(f.failed, i)
		}
		return nil
	}
	return f.fail(i, name, err)
}

func (f *Fields) fail(i int, name string, err error) error {
	e, goOn := at(name, err)
	if !goOn {
		return e
	}
	var te *json.UnmarshalTypeError
	if errors.As(e.Err, &te) && te.Struct == "" {
		te.Struct = f.Model
	}
	if f.failed == nil {
		f.failed = make(map[int]*Error)
	}
	f.failed[i] = e
	return nil
}

// Err returns the type error of the lowest-numbered field that still has
// one, or nil.
func (f *Fields) Err() error {
	first := -1
	for i := range f.failed {
		if first < 0 || i < first {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	return f.failed[first]
}

// Elements keeps the first type error of an array's elements.
type Elements struct {
	failed *Error
}

// Note records the outcome of reading element i. It returns the error that
// must stop decoding (malformed JSON), or nil.
func (l *Elements) Note(i int, err error) error {
	if err == nil {
		return nil
	}
	return l.fail(i, err)
}

func (l *Elements) fail(i int, err error) error {
	e, goOn := at(strconv.Itoa(i), err)
	if !goOn {
		return e
	}
	if l.failed == nil {
		l.failed = e
	}
	return nil
}

// Err returns the first type error, or nil.
func (l *Elements) Err() error {
	if l.failed == nil {
		return nil
	}
	return l.failed
}
