package facade

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/scmodel/scmgo/gen"
)

// Table pages are the bulk of what paging reads. The generated models keep
// unknown fields, so their UnmarshalJSON decodes every row and every cell
// through a map. When a page holds only the fields the spec names, plain
// structs decode it to the same values several times faster; otherwise the
// generated decoder runs, keeping the unknown fields.

// fastCell has gen.Cell's fields without its methods, so encoding/json
// decodes it directly; AdditionalProperties is not decoded (json:"-").
type fastCell gen.Cell

type fastRow struct {
	Cells    []fastCell `json:"cells"`
	Index    int64      `json:"index"`
	Selected *bool      `json:"selected,omitempty"`
	Valid    *bool      `json:"valid,omitempty"`
}

type fastChartTable struct {
	Aggregations *[]gen.Aggregation       `json:"aggregations,omitempty"`
	ChartId      *int64                   `json:"chartId,omitempty"`
	Columns      []gen.ApiStrictClassData `json:"columns"`
	Filters      *[]gen.Filter            `json:"filters,omitempty"`
	Name         *string                  `json:"name,omitempty"`
	Rows         []fastRow                `json:"rows"`
	Sort         *[]gen.Sort              `json:"sort,omitempty"`
	TotalRows    int64                    `json:"totalRows"`
}

type fastTable struct {
	Columns   []gen.ApiStrictClassData `json:"columns"`
	Filters   *[]gen.Filter            `json:"filters,omitempty"`
	Rows      []fastRow                `json:"rows"`
	Sort      *[]gen.Sort              `json:"sort,omitempty"`
	TotalRows int64                    `json:"totalRows"`
}

// The exact field names of the objects the fast path decodes itself.
var (
	chartTableKeys = []string{"aggregations", "chartId", "columns", "filters", "name", "rows", "sort", "totalRows"}
	tableKeys      = []string{"columns", "filters", "rows", "sort", "totalRows"}
	rowKeys        = []string{"cells", "index", "selected", "valid"}
	cellKeys       = []string{"type", "value"}
)

// decodePage decodes a page body into page, taking the fast path for table
// pages that hold only known fields.
func decodePage[P any](body []byte, page *P) error {
	switch p := any(page).(type) {
	case **gen.ApiStrictTableChartData:
		var f fastChartTable
		if decodeKnown(body, chartTableKeys, &f) {
			*p = &gen.ApiStrictTableChartData{Aggregations: f.Aggregations, ChartId: f.ChartId, Columns: f.Columns,
				Filters: f.Filters, Name: f.Name, Rows: rows(f.Rows), Sort: f.Sort, TotalRows: f.TotalRows}
			return nil
		}
	case **gen.ApiStrictTableData:
		var f fastTable
		if decodeKnown(body, tableKeys, &f) {
			*p = &gen.ApiStrictTableData{Columns: f.Columns, Filters: f.Filters, Rows: rows(f.Rows), Sort: f.Sort, TotalRows: f.TotalRows}
			return nil
		}
	}
	return json.Unmarshal(body, page)
}

// decodeKnown decodes body into v when every key of the page, its rows and
// their cells is one of the fields by its exact name. encoding/json would
// also take a key that differs only in case, where the generated decoder
// keeps it as an unknown field: such pages take the generated decoder.
func decodeKnown(body []byte, pageKeys []string, v any) bool {
	if i := skipSpace(body, 0); i >= len(body) || body[i] != '{' || hasInexactKey(body, pageKeys) {
		return false // not an object (null decodes to no page), or an inexact key
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if dec.Decode(v) != nil {
		return false
	}
	_, err := dec.Token() // nothing may follow the page
	return err == io.EOF
}

// rows converts decoded rows to the generated type; a missing or null list
// stays nil, as the generated decoder leaves it.
func rows(in []fastRow) []gen.Row {
	if in == nil {
		return nil
	}
	out := make([]gen.Row, len(in))
	for i, r := range in {
		var cells []gen.Cell
		if r.Cells != nil {
			cells = make([]gen.Cell, len(r.Cells))
			for j, c := range r.Cells {
				cells[j] = gen.Cell(c)
			}
		}
		out[i] = gen.Row{Cells: cells, Index: r.Index, Selected: r.Selected, Valid: r.Valid}
	}
	return out
}

// hasInexactKey reports whether the page object, its rows or their cells
// have a key that matches one of their field names only without regard to
// case, or is written with escapes.
func hasInexactKey(b []byte, pageKeys []string) bool {
	inexact := false
	walkObject(b, func(key string, val []byte) bool {
		switch {
		case isInexact(key, pageKeys):
			inexact = true
		case key == "rows":
			eachElement(val, func(row []byte) bool {
				inexact = objectHasInexactKey(row, rowKeys, "cells", cellKeys)
				return !inexact
			})
		}
		return !inexact
	})
	return inexact
}

// objectHasInexactKey checks an object's keys, and those of the objects in
// its array property nested.
func objectHasInexactKey(b []byte, keys []string, nested string, nestedKeys []string) bool {
	inexact := false
	walkObject(b, func(key string, val []byte) bool {
		switch {
		case isInexact(key, keys):
			inexact = true
		case key == nested:
			eachElement(val, func(elem []byte) bool {
				walkObject(elem, func(k string, _ []byte) bool {
					inexact = isInexact(k, nestedKeys)
					return !inexact
				})
				return !inexact
			})
		}
		return !inexact
	})
	return inexact
}

func isInexact(key string, names []string) bool {
	if strings.Contains(key, `\`) {
		return true
	}
	for _, n := range names {
		if key != n && strings.EqualFold(key, n) {
			return true
		}
	}
	return false
}
