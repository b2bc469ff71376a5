package bench

import (
	"encoding/json"
	"fmt"

	"github.com/go-faster/jx"

	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/gen"
)

// skipCopyDecoder is the least a decoder that returns the models can do,
// a bound rather than a decoder: jx's validating Skip over the page, then
// a copy of the page's rows, decoded beforehand, into fresh memory taken in
// bulk (the rows, the cells, the strings and raw values each in one
// allocation per page, unknown fields from an extra.Slab). It parses
// nothing, so any decoder that returns the same rows takes at least its
// time; in the small-heap regime most of that is the collector's.
func skipCopyDecoder(pages [][]byte) decoder {
	tmpl := make(map[*byte]template, len(pages))
	for _, p := range pages {
		var d gen.ApiStrictTableChartData
		if err := gen.DecodeAnswer(p, &d, "page", nil); err != nil {
			panic(err)
		}
		tmpl[&p[0]] = templateOf(d.EntityList)
	}
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
	s := string(text) // the strings are views of one copy
	values := make([]byte, 0, t.values)
	var slab extra.Slab
	props := func(into *extra.Properties, from extra.Properties) {
		for name, v := range from.All() {
			values = append(values, v...)
			slab.Set(into, s[:len(name)], values[len(values)-len(v):len(values):len(values)])
			s = s[len(name):]
		}
	}
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
			props(&cells[k].AdditionalProperties, c.AdditionalProperties)
			k++
		}
		props(&rows[i].AdditionalProperties, r.AdditionalProperties)
	}
	return rows
}
