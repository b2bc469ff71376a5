package jsondec

import (
	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/internal/textcut"
)

type kind uint8

const (
	kindUnknownField kind = iota
	kindMissing
	kindNull
	kindType // a value of another type, converted without loss
	kindEnum
	kindKept // a value of another type kept raw: a probe-type finding apart from a conversion's
)

var kindNames = [...]string{drift.KindUnknownField, drift.KindMissing, drift.KindNull, drift.KindType, drift.KindEnum, drift.KindType}

// notes are the differences found in one document, each once per kind and
// place (and value, for a value outside an enumeration; a value kept raw
// apart from one converted): a field retyped on every row of a page is one
// note. A few notes are looked up by a scan;
// past smallNotes, through an index, so that a document of many distinct
// differences costs linear time. Past the document's bound on findings
// (Options.MaxFindings) a new difference is counted, not kept.
type notes struct {
	list    []noted
	index   map[noteKey]struct{}
	dropped int
}

type noteKey struct {
	kind        kind
	site        *Site  // a known field's or an array's place
	model, name string // an unknown field's model and name; an enumeration's value (name)
}

type noted struct {
	noteKey
	finding drift.Finding
}

// smallNotes is how many notes are looked up by a scan before an index is
// built.
const smallNotes = 8

func (n *notes) reset() {
	clear(n.list)
	n.list = n.list[:0]
	if len(n.index) > 4*smallNotes {
		n.index = nil // do not pool a large index
	}
	clear(n.index)
	n.dropped = 0
}

// seen reports whether a note of key k is already taken, and counts a new
// one past the document's bound as dropped (reporting it seen).
func (r *Reader) seen(k noteKey) bool {
	n := &r.notes
	if len(n.list) <= smallNotes {
		for i := range n.list {
			if n.list[i].noteKey == k {
				return true
			}
		}
	} else if _, ok := n.index[k]; ok {
		return true
	}
	if len(n.list) >= r.opts.maxFindings() {
		n.dropped++
		return true
	}
	return false
}

// take keeps a note of key k, which seen has not seen.
func (r *Reader) take(k noteKey, f drift.Finding) {
	n := &r.notes
	n.list = append(n.list, noted{noteKey: k, finding: f})
	switch {
	case len(n.list) == smallNotes+1:
		if n.index == nil {
			n.index = make(map[noteKey]struct{}, 4*smallNotes)
		}
		for i := range n.list {
			n.index[n.list[i].noteKey] = struct{}{}
		}
	case len(n.list) > smallNotes+1:
		n.index[k] = struct{}{}
	}
}

// note takes a note of kind at site s, unless one is already taken.
func (r *Reader) note(k kind, s *Site, path, detail string) {
	key := noteKey{kind: k, site: s}
	if r.seen(key) {
		return
	}
	if path == "" {
		path = s.At
		if k == kindMissing || k == kindNull {
			path = s.Path
		}
	}
	r.take(key, finding(kindNames[k], path, detail))
}

// finding is a finding at path, with its model and property.
func finding(kind, path, detail string) drift.Finding {
	f := drift.Finding{Kind: kind, Path: path, Detail: detail, Drift: true}
	f.Model, f.Property = drift.SplitPath(path)
	return f
}

// Unknown reads the value of a field that model does not name into
// *more, under the name encoding/json gives key, and notes it.
func (r *Reader) Unknown(more *extra.Properties, key []byte, model string) Status {
	name := r.internName(key)
	r.ws()
	start := r.pos
	if r.skip() == Failed {
		return Failed
	}
	raw := r.data[start:r.pos]
	r.setProp(more, name, r.arena.bytes(raw, r.left()))
	if k := (noteKey{kind: kindUnknownField, model: model, name: name}); !r.seen(k) {
		path := model + "." + textcut.Cut(name, r.opts.maxReportedLen())
		f := finding(drift.KindUnknownField, path, path+" ("+TypeOf(raw)+") is not in the spec")
		f.JSONType = TypeOf(raw)
		r.take(k, f)
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

// report hands the notes to the options' Note, in the order taken, and the
// count of those past the bound to Dropped.
func (r *Reader) report() {
	o := r.opts
	if o == nil {
		return
	}
	if o.Note != nil {
		for i := range r.notes.list {
			o.Note(r.notes.list[i].finding)
		}
	}
	if o.Dropped != nil && r.notes.dropped > 0 {
		o.Dropped(r.notes.dropped)
	}
}
