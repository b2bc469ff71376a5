package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrBusy: another batch holds the state file.
var ErrBusy = errors.New("state file in use")

// MaxStateBytes is the most a state file may hold: 64 MiB, some 80,000
// items of about 800 bytes each. A larger file is refused before it is
// read: no batch writes one, and reading it whole would hold that much
// memory, several times over, before anything is sent.
const MaxStateBytes = 64 << 20

// maxStateDepth bounds the nesting of a state file's values: a batch writes
// 4 levels, and a value nested deeper than encoding/json reads (10,000) is
// refused before it is walked.
const maxStateDepth = 10000

// readStateFile reads the state file at path, refusing one larger than
// MaxStateBytes before it reads it (and one that grows past it as it is
// read). A missing file is the error of os.Open, matching fs.ErrNotExist.
func readStateFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("batch: reading the state file: %w", err)
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > MaxStateBytes {
		return nil, stateTooLarge(path, info.Size())
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxStateBytes+1))
	if err != nil {
		return nil, fmt.Errorf("batch: reading the state file: %w", err)
	}
	if len(b) > MaxStateBytes {
		return nil, stateTooLarge(path, 0)
	}
	return b, nil
}

// stateTooLarge is the error of a state file past MaxStateBytes; size is
// 0 when it grew past it as it was read.
func stateTooLarge(path string, size int64) error {
	what := "holds more than"
	if size > 0 {
		what = fmt.Sprintf("is %d bytes, more than", size)
	}
	return damagedState(path, fmt.Sprintf("%s the %d bytes (64 MiB) a state file may hold", what, MaxStateBytes))
}

// keyWalk checks a state file's keys as it walks its values, knowing the
// Go type each value decodes into (nil: none, a value this release does
// not read).
type keyWalk struct {
	dec     *json.Decoder
	data    []byte
	unknown bool // a key that no field takes was seen
	fields  map[reflect.Type]map[string]reflect.StructField
}

// checkStateKeys refuses a key repeated in an object of a state file, which
// encoding/json would take silently, the last one winning. Keys of objects
// read into a struct are compared as encoding/json matches them to fields,
// without regard to case ("jobId" and "JobID" are one field); the names of
// items exactly. It reports whether a key that no field takes was seen.
func checkStateKeys(data []byte) (unknown bool, err error) {
	w := &keyWalk{dec: json.NewDecoder(bytes.NewReader(data)), data: data, fields: map[reflect.Type]map[string]reflect.StructField{}}
	w.dec.UseNumber()
	err = w.value(reflect.TypeFor[stateFile](), 0)
	return w.unknown, err
}

func (w *keyWalk) value(t reflect.Type, depth int) error {
	if depth > maxStateDepth {
		return fmt.Errorf("line %d: values nested deeper than %d", w.line(w.dec.InputOffset()), maxStateDepth)
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		return w.object(t, depth)
	case json.Delim('['):
		for w.dec.More() {
			if err := w.value(elemType(t), depth+1); err != nil {
				return err
			}
		}
		_, err = w.dec.Token()
	}
	return err
}

func (w *keyWalk) object(t reflect.Type, depth int) error {
	t = structOrMap(t)
	exact := t != nil && t.Kind() == reflect.Map
	seen := map[string]int64{}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, at := tok.(string), w.dec.InputOffset()
		name := key
		if !exact {
			name = foldName(key)
		}
		if first, dup := seen[name]; dup {
			return fmt.Errorf("line %d: key %q written again (first at line %d): which of them holds is not known; restore the file, or remove the wrong one", w.line(at), key, w.line(first))
		}
		seen[name] = at
		child, known := w.child(t, key)
		w.unknown = w.unknown || !known
		if err := w.value(child, depth+1); err != nil {
			return err
		}
	}
	_, err := w.dec.Token()
	return err
}

// child is the type of the value under key of an object of type t (nil:
// a value this release does not read); known is false when t is a struct
// and no field takes the key.
func (w *keyWalk) child(t reflect.Type, key string) (child reflect.Type, known bool) {
	if t == nil {
		return nil, true
	}
	fields, ok := w.fields[t]
	if !ok {
		fields = fieldsByFoldedName(t)
		w.fields[t] = fields
	}
	child, _, known = memberType(t, fields, key)
	return child, known
}

// fieldsByFoldedName is the fields of t, when it is a struct, by their
// folded JSON names.
func fieldsByFoldedName(t reflect.Type) map[string]reflect.StructField {
	m := map[string]reflect.StructField{}
	if t.Kind() == reflect.Struct {
		for f := range structFields(t) {
			m[foldName(jsonName(f))] = f
		}
	}
	return m
}

// line is the line of data at offset, from 1.
func (w *keyWalk) line(offset int64) int {
	return bytes.Count(w.data[:min(offset, int64(len(w.data)))], []byte("\n")) + 1
}

// structFields yields the fields encoding/json reads of struct type t.
func structFields(t reflect.Type) func(yield func(reflect.StructField) bool) {
	return func(yield func(reflect.StructField) bool) {
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && f.Tag.Get("json") != "-" && !yield(f) {
				return
			}
		}
	}
}

// jsonName is the name encoding/json gives field f.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// foldName folds a key as encoding/json does to match it to a field.
func foldName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(unicode.ToUpper(r))
			continue
		}
		b.WriteRune(unicode.ToUpper(unicode.ToLower(r)))
	}
	return b.String()
}

// structOrMap is t without its pointers when it is a struct or a map
// decoded from an object; nil otherwise (a json.RawMessage, a value this
// release does not read).
func structOrMap(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || (t.Kind() != reflect.Struct && t.Kind() != reflect.Map) {
		return nil
	}
	return t
}

// elemType is the element type of a slice type, nil for any other.
func elemType(t reflect.Type) reflect.Type {
	if t != nil && t.Kind() == reflect.Slice {
		return t.Elem()
	}
	return nil
}

// keptFields are what a state file held that this release does not read:
// the fields of an object that no field of its type takes, and, under the
// fields it does take (and under each item), what they hold that it does
// not. They are written back as they were read, so that resuming a state
// that a later release wrote loses nothing of it.
type keptFields struct {
	fields map[string]json.RawMessage
	under  map[string]*keptFields // by the key as this release writes it
}

// keptOf is what raw, a value of type t, holds that t does not read; nil
// when there is nothing.
func keptOf(raw json.RawMessage, t reflect.Type) *keptFields {
	t = structOrMap(t)
	var obj map[string]json.RawMessage
	if t == nil || json.Unmarshal(raw, &obj) != nil {
		return nil
	}
	k := &keptFields{fields: map[string]json.RawMessage{}, under: map[string]*keptFields{}}
	fields := fieldsByFoldedName(t)
	for key, v := range obj {
		child, name, known := memberType(t, fields, key)
		if !known {
			k.fields[key] = v
			continue
		}
		if sub := keptOf(v, child); sub != nil {
			k.under[name] = sub
		}
	}
	if len(k.fields) == 0 && len(k.under) == 0 {
		return nil
	}
	return k
}

// memberType is the type of the member key of an object of type t, a
// struct (whose fields by folded name are fields) or a map, and its key as
// this release writes it; known is false when no field takes it.
func memberType(t reflect.Type, fields map[string]reflect.StructField, key string) (child reflect.Type, name string, known bool) {
	if t.Kind() == reflect.Map {
		return t.Elem(), key, true
	}
	f, ok := fields[foldName(key)]
	return f.Type, jsonName(f), ok
}

// mergeInto adds what k keeps to written, the compact JSON of an object
// this release wrote: its known members in their order, each merged with
// what k keeps under it, then the fields k keeps, by name. A member k
// keeps something under that written no longer has is gone, and so is
// what was kept under it.
func (k *keptFields) mergeInto(written json.RawMessage) (json.RawMessage, error) {
	members, err := splitObject(written)
	if err != nil || members == nil {
		return written, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if sub := k.under[m.key]; sub != nil {
			if m.value, err = sub.mergeInto(m.value); err != nil {
				return nil, err
			}
		}
		writeMember(&b, i > 0, m.key, m.value)
	}
	for i, key := range slices.Sorted(maps.Keys(k.fields)) {
		writeMember(&b, i > 0 || len(members) > 0, key, k.fields[key])
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeMember(b *bytes.Buffer, comma bool, key string, value json.RawMessage) {
	if comma {
		b.WriteByte(',')
	}
	name, _ := json.Marshal(key) // a string always encodes
	b.Write(name)
	b.WriteByte(':')
	b.Write(value)
}

type member struct {
	key   string
	value json.RawMessage
}

// splitObject is the members of a JSON object in their order; nil when
// raw is not an object.
func splitObject(raw json.RawMessage) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil
	}
	members := []member{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		members = append(members, member{key: tok.(string), value: v})
	}
	return members, nil
}

// marshalState is the state file's text: data indented, with what kept
// holds written back where it was.
func marshalState(data *stateFile, kept *keptFields) ([]byte, error) {
	if kept == nil {
		return json.MarshalIndent(data, "", "  ")
	}
	compact, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	merged, err := kept.mergeInto(compact)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, merged, "", "  "); err != nil {
		return nil, errors.Join(errors.New("batch: the state with the fields kept is not JSON"), err)
	}
	return b.Bytes(), nil
}

func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
