package jsondec

import (
	"encoding/json"
	"strings"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/extra"
)

// Site is where a value sits in the spec's models: a field of a model, the
// elements of an array, or the whole answer. Generated decoders hold one
// per field, and report what they find there.
type Site struct {
	Name     string // the field's JSON name; "" for elements and the answer
	Path     string // the field's model path, for missing and null: ApiProjectResponse.name
	At       string // the model path of the value's schema, for type and enum: a model's own name
	Named    string // the component name of a schema that is not an object (an enumeration), or ""
	Type     string // the spec's type, as specdiff names it: integer/int64, array of ApiPage, object
	Label    string // the spec's type in a missing field's finding: a model's name, else Type
	Required bool
	Nullable bool
	Elem     *Site // the elements of an array
}

// where is the value's path in a finding's detail: with the name of its
// schema when that is a named scalar (ApiScenarioData.type (ScenarioType)).
func (s *Site) where() string {
	if s.Named != "" {
		return s.At + " (" + s.Named + ")"
	}
	return s.At
}

// Field handles the outcome of reading the field at s of a model whose
// unknown fields are in *more: it reports a difference, and keeps a value
// that could not be held raw under the field's name. It returns false when
// decoding must stop (Failed).
func (r *Reader) Field(st Status, s *Site, more *extra.Properties) bool {
	switch st {
	case Null:
		if s.Required && !s.Nullable {
			r.note(kindNull, s, "", s.Path+" is required; the answer has null")
		}
	case Converted:
		r.typeFinding(s, r.converted, nil)
	case Kept:
		r.typeFinding(s, "", r.data[r.keptStart:r.keptEnd])
		r.setProp(more, s.Name, r.Kept())
	case Lost:
		r.setProp(more, s.Name, r.Kept())
	case Failed:
		return false
	}
	return true
}

// Elem handles the outcome of reading an element of an array at s, as
// Field does a field's. It returns the array's outcome so far: Lost when
// the element could not be held, so that the array is kept raw, Failed
// when decoding must stop.
func (r *Reader) Elem(st Status, s *Site) Status {
	switch st {
	case Converted:
		r.typeFinding(s, r.converted, nil)
	case Kept:
		r.typeFinding(s, "", r.data[r.keptStart:r.keptEnd])
		return Lost
	case Lost, Failed:
		return st
	}
	return OK
}

// Forget drops what an earlier occurrence of a repeated field kept raw: of
// repeated keys the last counts, as in encoding/json.
func Forget(more *extra.Properties, name string) {
	more.Delete(name)
	if more.Len() == 0 {
		*more = extra.Properties{}
	}
}

// Enum reports a value outside the enumeration of the field at s, once
// per value: a second value the spec does not know at the same place is a
// finding of its own.
func (r *Reader) Enum(s *Site, value string) {
	k := noteKey{kind: kindEnum, site: s, name: value}
	if r.seen(k) {
		return
	}
	v, _ := json.Marshal(textcut.Cut(value, r.opts.maxReportedLen()))
	f := finding(drift.KindEnum, s.At, s.where()+": the answer has "+short(v)+", which the spec does not allow")
	f.Value, f.JSONType = v, "string"
	r.take(k, f)
}

// Missing reports the required fields among sites whose bit is not set in
// seen: the fields an object lacked.
func (r *Reader) Missing(sites []Site, seen uint64) {
	for i := range sites {
		s := &sites[i]
		if s.Required && seen&(1<<i) == 0 {
			r.note(kindMissing, s, "", s.Path+" ("+s.Label+") is required; the answer lacks it")
		}
	}
}

// typeFinding reports a value of another type than the spec's at s: found
// is its JSON type when it was converted, else raw is its text, quoted when
// its JSON type is the spec's (a format or range it does not fit) and when
// it is a number kept raw where an integer belongs. A value kept raw is
// noted once per place apart from one converted, so that neither hides the
// other.
func (r *Reader) typeFinding(s *Site, found string, raw []byte) {
	k := noteKey{kind: kindType, site: s}
	if found == "" {
		k.kind = kindKept
	}
	if s == r.typed && k.kind == r.typedKind {
		return // noted already: the same value retyped on every row
	}
	if r.seen(k) {
		if len(r.notes.list) < r.opts.maxFindings() {
			r.typed, r.typedKind = s, k.kind // found among the notes, not dropped past the bound
		}
		return
	}
	r.typed, r.typedKind = s, k.kind
	got := found
	if found == "" {
		got = TypeOf(raw)
		found = got
		switch {
		case sameType(s.Type, found):
			found = short(raw) // the right JSON type, the wrong format or range
		case found == "number" && specJSONType(s.Type) == "integer":
			// never to be taken for a lossless 5002.0, which says "number"
			found = short(raw) + ", which is not an integer in its range: kept raw"
		}
	}
	f := finding(drift.KindType, s.At, s.where()+" is "+s.Type+"; the answer has "+found)
	f.JSONType, f.SpecType, f.KeptRaw = got, specJSONType(s.Type), k.kind == kindKept
	r.take(k, f)
}

// specJSONType is the JSON type of a spec type as Site names it
// (integer/int64, array of ApiPage, ApiPage): string, integer, number,
// boolean, array or object.
func specJSONType(t string) string {
	base, _, _ := strings.Cut(t, "/")
	switch {
	case strings.HasPrefix(t, "array"):
		return "array"
	case base == "string" || base == "integer" || base == "number" || base == "boolean":
		return base
	}
	return "object"
}

// sameType reports whether a value of JSON type found has the type of the
// spec's type spec (integer/int32, array of X, string/date-time).
func sameType(spec, found string) bool {
	for i := 0; i < len(spec); i++ {
		if spec[i] == '/' || spec[i] == ' ' {
			spec = spec[:i]
			break
		}
	}
	return spec == found || spec == "number" && found == "integer"
}

// short is a value's text cut to 60 bytes, as specdiff cuts it.
func short(raw []byte) string {
	if len(raw) > 60 {
		return string(raw[:57]) + "..."
	}
	return string(raw)
}
