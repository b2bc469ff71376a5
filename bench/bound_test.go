package bench

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/go-faster/jx"

	"github.com/scmodel/scmgo/bench/internal/pagebench"
	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/properties"
)

// skipCopyDecoder is the least a decoder that returns the models can do,
// a bound rather than a decoder: jx's validating Skip over the page, then
// a copy of the page's rows, decoded beforehand, into fresh memory taken in
// bulk (the rows, the cells, the strings and raw values each in one
// allocation per page, unknown fields from a properties.Slab, as the
// decoders'). It parses nothing, so any decoder that returns the same rows takes at least its
// time; in the small-heap regime most of that is the collector's.
func skipCopyDecoder(pages [][]byte) decoder {
	tmpl := templates(pages)
	return decoder{"jx-skip+copy", func(page []byte) (int, error) {
		if err := jx.DecodeBytes(page).Skip(); err != nil {
			return 0, err
		}
		t, ok := tmpl[&page[0]]
		if !ok {
			return 0, fmt.Errorf("jx-skip+copy: a page it was not made for")
		}
		return len(t.copy()), nil
	}}
}

// templates decodes each page with the facade's decoders, by the address
// of its first byte.
func templates(pages [][]byte) map[*byte]template {
	tmpl := make(map[*byte]template, len(pages))
	for _, p := range pages {
		var d gen.ApiStrictTableChartData
		if err := gen.DecodeAnswer(p, &d, "page", nil); err != nil {
			panic(err)
		}
		tmpl[&p[0]] = templateOf(d.EntityList)
	}
	return tmpl
}

// A template is a page's rows and the sizes a copy of them takes.
type template struct {
	rows                []gen.Row
	cells, text, values int
}

func templateOf(rows []gen.Row) template {
	t := template{rows: rows}
	for _, r := range rows {
		t.cells += len(r.Cells)
		for _, c := range r.Cells {
			if c.Type != nil {
				t.text += len(*c.Type)
			}
			if c.Value != nil {
				t.values += len(*c.Value)
			}
			t.count(c.AdditionalProperties)
		}
		t.count(r.AdditionalProperties)
	}
	return t
}

func (t *template) count(p extra.Properties) {
	for name, v := range p.All() {
		t.text += len(name)
		t.values += len(v)
	}
}

// copy makes the rows again in fresh memory.
func (t template) copy() []gen.Row {
	rows := make([]gen.Row, len(t.rows))
	cells := make([]gen.Cell, t.cells)
	strs := make([]string, t.cells)
	raws := make([]json.RawMessage, t.cells)
	s := t.names()
	values := make([]byte, 0, t.values)
	var slab properties.Slab
	k := 0
	for i, r := range t.rows {
		rows[i].Index = r.Index
		rows[i].Cells = cells[k : k+len(r.Cells) : k+len(r.Cells)]
		for _, c := range r.Cells {
			if c.Type != nil {
				strs[k], s = s[:len(*c.Type)], s[len(*c.Type):]
				cells[k].Type = &strs[k]
			}
			if c.Value != nil {
				values = append(values, *c.Value...)
				raws[k] = values[len(values)-len(*c.Value) : len(values) : len(values)]
				cells[k].Value = &raws[k]
			}
			s, values = copyProperties(&slab, &cells[k].AdditionalProperties, c.AdditionalProperties, s, values)
			k++
		}
		s, values = copyProperties(&slab, &rows[i].AdditionalProperties, r.AdditionalProperties, s, values)
	}
	return rows
}

// names copies the text of the rows' strings and property names, in the
// order copy takes them, into one string: the strings are views of it.
func (t template) names() string {
	text := make([]byte, 0, t.text)
	for _, r := range t.rows {
		for _, c := range r.Cells {
			if c.Type != nil {
				text = append(text, *c.Type...)
			}
			for name := range c.AdditionalProperties.All() {
				text = append(text, name...)
			}
		}
		for name := range r.AdditionalProperties.All() {
			text = append(text, name...)
		}
	}
	return string(text)
}

// copyProperties sets from's properties in *into, their names taken from
// the front of names and their values appended to values, and returns
// what is left of names and the values.
func copyProperties(slab *properties.Slab, into *extra.Properties, from extra.Properties, names string, values []byte) (string, []byte) {
	for name, v := range from.All() {
		values = append(values, v...)
		slab.Set((*properties.Properties)(into), names[:len(name)], values[len(values)-len(v):len(values):len(values)])
		names = names[len(name):]
	}
	return names, values
}

// valueCell and valueRow are a cell and a row whose optional fields are
// values, not pointers: the layout the models would have with every
// optional field a value.
type valueCell struct {
	Type                 string
	Value                json.RawMessage
	AdditionalProperties extra.Properties
}

type valueRow struct {
	Cells                []valueCell
	Index                int64
	AdditionalProperties extra.Properties
}

// copyValues is copy into rows of the value layout.
func (t template) copyValues() []valueRow {
	rows := make([]valueRow, len(t.rows))
	cells := make([]valueCell, t.cells)
	s := t.names()
	values := make([]byte, 0, t.values)
	var slab properties.Slab
	k := 0
	for i, r := range t.rows {
		rows[i].Index = r.Index
		rows[i].Cells = cells[k : k+len(r.Cells) : k+len(r.Cells)]
		for _, c := range r.Cells {
			if c.Type != nil {
				cells[k].Type, s = s[:len(*c.Type)], s[len(*c.Type):]
			}
			if c.Value != nil {
				values = append(values, *c.Value...)
				cells[k].Value = values[len(values)-len(*c.Value) : len(values) : len(values)]
			}
			s, values = copyProperties(&slab, &cells[k].AdditionalProperties, c.AdditionalProperties, s, values)
			k++
		}
		s, values = copyProperties(&slab, &rows[i].AdditionalProperties, r.AdditionalProperties, s, values)
	}
	return rows
}

// BenchmarkCopyLayout: jx Skip + copy into the models against the same
// copy into rows whose optional fields are values, and against bare jx
// Skip, in the same run and each regime: what the models' pointers cost a
// decoder that returns them ("cpu-x-jx-skip+copy", below 1 when values
// are cheaper).
func BenchmarkCopyLayout(b *testing.B) {
	for _, g := range regimes {
		for _, shape := range pagebench.Shapes {
			pages := shapePages(shape)
			bound := skipCopyDecoder(pages)
			tmpl := templates(pages)
			values := decoder{"values", func(page []byte) (int, error) {
				if err := jx.DecodeBytes(page).Skip(); err != nil {
					return 0, err
				}
				return len(tmpl[&page[0]].copyValues()), nil
			}}
			b.Run(g.name+"/"+shape.Name, func(b *testing.B) {
				runDecoders(b, g, [][][]byte{pages}, []decoder{values, bound, jxSkip})
			})
		}
	}
}
