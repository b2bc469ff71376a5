package jsondec

import (
	"encoding/json"

	"github.com/scmodel/scmgo/drift"
)

type kind uint8

const (
	kindUnknownField kind = iota
	kindMissing
	kindNull
	kindType
	kindEnum
)

var kindNames = [...]string{drift.KindUnknownField, drift.KindMissing, drift.KindNull, drift.KindType, drift.KindEnum}

// notes are the differences found in one document, each once per kind and
// place (and value, for a value outside an enumeration): a field retyped on
// every row of a page is one note.
type notes struct {
	list []noted
}

type noted struct {
	kind        kind
	site        *Site  // a known field's or an array's place
	model, name string // an unknown field's model and name; an enumeration's value (name)
	finding     drift.Finding
}

func (n *notes) reset() {
	clear(n.list)
	n.list = n.list[:0]
}

// seen reports whether a note of kind at the place given is already taken.
func (r *Reader) seen(k kind, s *Site, model, name string) bool {
	for i := range r.notes.list {
		n := &r.notes.list[i]
		if n.kind == k && n.site == s && n.name == name && n.model == model {
			return true
		}
	}
	return false
}

// note takes a note of kind at site s, unless one is already taken.
func (r *Reader) note(k kind, s *Site, path, detail string) {
	if r.seen(k, s, "", "") {
		return
	}
	if path == "" {
		path = s.At
		if k == kindMissing || k == kindNull {
			path = s.Path
		}
	}
	r.notes.list = append(r.notes.list, noted{kind: k, site: s, finding: finding(kindNames[k], path, detail)})
}

// finding is a finding at path, with its model and property.
func finding(kind, path, detail string) drift.Finding {
	f := drift.Finding{Kind: kind, Path: path, Detail: detail, Drift: true}
	f.Model, f.Property = drift.SplitPath(path)
	return f
}

// last is the note taken last, for its structured fields.
func (r *Reader) last() *drift.Finding { return &r.notes.list[len(r.notes.list)-1].finding }

// Unknown reads the value of a field that model does not name into
// *extra, under the name encoding/json gives key, and notes it.
func (r *Reader) Unknown(extra *map[string]json.RawMessage, key []byte, model string) Status {
	name := r.internName(key)
	r.ws()
	start := r.pos
	if r.skip() == Failed {
		return Failed
	}
	raw := r.data[start:r.pos]
	keep(extra, name, r.arena.bytes(raw))
	if !r.seen(kindUnknownField, nil, model, name) {
		path := model + "." + name
		f := finding(drift.KindUnknownField, path, path+" ("+jsonType(raw)+") is not in the spec")
		f.JSONType = jsonType(raw)
		r.notes.list = append(r.notes.list, noted{kind: kindUnknownField, model: model, name: name, finding: f})
	}
	return OK
}

// maxNames bounds the names a pooled Reader remembers, and maxNameLen
// their length.
const maxNames, maxNameLen = 256, 64

// internName returns the name as a string, allocated once per name while
// the reader is pooled: the same unknown field on every row of a page.
func (r *Reader) internName(key []byte) string {
	if string(key) == r.lastName {
		return r.lastName // the same field on every row
	}
	if name, ok := r.names[string(key)]; ok {
		r.lastName = name
		return name
	}
	name := string(key)
	if len(r.names) < maxNames && len(name) <= maxNameLen {
		r.names[name] = name
	}
	return name
}

// report hands the notes to fn, in the order taken.
func (r *Reader) report(fn func(drift.Finding)) {
	if fn == nil {
		return
	}
	for i := range r.notes.list {
		fn(r.notes.list[i].finding)
	}
}
