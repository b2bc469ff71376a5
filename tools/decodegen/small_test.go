package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/gen"
)

func tablePage(rows int, label string) []byte {
	var b strings.Builder
	b.WriteString(`{"entityList":[`)
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"cells":[{"type":"STRING","value":"%s%d"},{"type":"INTEGER","value":%d}],"index":%d}`, label, i, i, i)
	}
	b.WriteString(`],"id":1,"totalEntityCount":1,"totalTechnicalRowCount":1,"type":"TABLE"}`)
	return []byte(b.String())
}

// The short arrays of a page (a row's cells) share blocks: appending to
// one copies it, and a later document, decoded by the same pooled reader,
// writes none of an earlier one's.
func TestShortArraysShareNothingVisible(t *testing.T) {
	var first gen.ApiStrictTableChartData
	require.NoError(t, gen.DecodeAnswer(tablePage(300, "a"), &first, "", nil))
	row0 := first.EntityList[0].Cells
	assert.Equal(t, len(row0), cap(row0), "a short array has no room to append into")
	row0 = append(row0, gen.Cell{})
	row0[0].Value = nil
	assert.Equal(t, `"a1"`, string(*first.EntityList[1].Cells[0].Value), "the next row's cells are its own")
	assert.Equal(t, `"a0"`, string(*first.EntityList[0].Cells[0].Value), "appending copied")

	for range 3 {
		var later gen.ApiStrictTableChartData
		require.NoError(t, gen.DecodeAnswer(tablePage(300, "b"), &later, "", nil))
	}
	for i, row := range first.EntityList {
		require.Len(t, row.Cells, 2)
		assert.Equal(t, fmt.Sprintf(`"a%d"`, i), string(*row.Cells[0].Value), "row %d of the first page", i)
	}
}

// A document's short arrays start a block of their own: a pooled reader
// hands a later document nothing of an earlier one's block, which the
// earlier one's arrays would otherwise keep alive for it.
func TestDocumentsDoNotShareBlocks(t *testing.T) {
	var a, b gen.ApiStrictTableChartData
	require.NoError(t, gen.DecodeAnswer(tablePage(2, "a"), &a, "", nil))
	require.NoError(t, gen.DecodeAnswer(tablePage(2, "b"), &b, "", nil))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(a.EntityList[0].Cells)))
	end := start + 4<<10
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b.EntityList[0].Cells)))
	assert.False(t, at >= start && at < end, "the second document's cells lie in the first one's block")
	runtime.KeepAlive(a)
}

// Arrays longer than a decoder holds on its stack are read into a spare
// slice the reader keeps, then copied out: each row's twelve cells are its
// own, and appending to them copies.
func TestLongerArraysAreCopiedOut(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"entityList":[`)
	for i := range 50 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"cells":[`)
		for c := range 12 {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"type":"INTEGER","value":%d}`, i*100+c)
		}
		fmt.Fprintf(&b, `],"index":%d}`, i)
	}
	b.WriteString(`],"id":1,"totalEntityCount":50,"totalTechnicalRowCount":50,"type":"TABLE"}`)
	var page gen.ApiStrictTableChartData
	require.NoError(t, gen.DecodeAnswer([]byte(b.String()), &page, "", nil))
	require.Len(t, page.EntityList, 50)
	first := page.EntityList[0].Cells
	assert.Equal(t, len(first), cap(first))
	_ = append(first, gen.Cell{})
	for i, row := range page.EntityList {
		require.Len(t, row.Cells, 12, "row %d", i)
		for c, cell := range row.Cells {
			assert.Equal(t, fmt.Sprint(i*100+c), string(*cell.Value), "row %d, cell %d", i, c)
		}
	}
}

// A model's fields are matched whole while they come in the spec's order,
// and looked up by name from the first that does not: every order,
// repetition, unknown field and spacing gives what encoding/json gives.
func TestFieldsInAndOutOfOrder(t *testing.T) {
	for _, doc := range []string{
		`{"type":"A","value":1}`,
		`{"value":1,"type":"A"}`,
		`{"type":"A","type":"B","value":1}`,
		`{"type":"A","value":1,"type":"B"}`,
		`{"type":"A","x":[1],"value":2}`,
		`{"x":true,"type":"A","value":2}`,
		`{"type":"A","value":1,"x":{"y":2}}`,
		`{ "type" : "A" , "value" : 1 }`,
		`{"type":"A" ,"value":1}`,
		`{"type":{"o":1},"value":1}`,
		`{"type":"A","value":1,"value":2}`,
		`{"typ":"A","value":1}`,
		`{"type":"A"}`,
		`{}`,
	} {
		var fast, want gen.Cell
		require.NoError(t, gen.DecodeAnswer([]byte(doc), &fast, "", nil), doc)
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			// a value encoding/json refuses is kept raw: compare the wire
			b, _ := json.Marshal(fast)
			assert.JSONEq(t, doc, string(b), doc)
			continue
		}
		assert.Equal(t, want, fast, doc)
	}
}

// After a name that is not the next in the spec's order (an optional field
// left out, a field the spec does not name, another order), the fields
// are matched in order again from the one after it; whitespace anywhere
// between them changes nothing. Every case gives what encoding/json gives.
func TestFieldsInOrderAfterAGap(t *testing.T) {
	for _, doc := range []string{
		`{"cells":[],"selected":true,"valid":false}`,
		`{"cells":[],"valid":false}`,
		`{"index":3,"selected":true,"valid":false}`,
		`{"x":1,"cells":[],"index":3,"selected":true}`,
		`{"cells":[],"x":1,"index":3,"y":[2],"selected":true,"valid":true}`,
		`{"valid":true,"cells":[],"index":3,"selected":false}`,
		`{"index":1,"index":2,"selected":true,"index":3}`,
		`{"selected":true,"cells":[{"type":"A","value":1}],"index":2}`,
		`{"cells": [], "index": 3, "selected": true, "valid": false}`,
		"{\n  \"cells\": [],\n  \"index\": 3,\n\t\"valid\": false\r\n}",
		`{ "x" : 1 , "index" : 3 , "selected" : true }`,
		`{"cells":[] ,"index":3, "selected":true ,"valid" :false}`,
	} {
		var got, want gen.Row
		require.NoError(t, gen.DecodeAnswer([]byte(doc), &got, "", nil), doc)
		require.NoError(t, json.Unmarshal([]byte(doc), &want), doc)
		assert.Equal(t, want, got, doc)
	}
}

// rowField is a field of a row in JSON with a value of its own (n tells
// the values of repeated fields apart), with colon around its colon.
func rowField(name string, n int, colon string) string {
	var v string
	switch name {
	case "cells":
		v = fmt.Sprintf(`[{"type":"T%d","value":%d}]`, n, n)
	case "index":
		v = fmt.Sprint(n)
	case "selected", "valid":
		v = fmt.Sprint(n%2 == 0)
	default: // a field the spec does not name
		v = fmt.Sprintf(`{"u":[%d]}`, n)
	}
	return `"` + name + `"` + colon + ":" + colon + v
}

// rowOrders are orders of a row's fields: in the spec's order, with gaps,
// repeated (the last value counts) and beside fields the spec does not
// name, so that after each name read out of order the next ones are
// matched from the field after it.
var rowOrders = [][]string{
	{"cells", "index", "selected", "valid"},
	{"index", "index", "selected", "index", "valid"},
	{"valid", "cells", "index", "selected", "valid", "cells"},
	{"x", "cells", "x", "index", "y", "selected", "valid", "x"},
	{"cells", "index", "selected", "valid", "cells", "index", "selected", "valid"},
	{"selected", "valid", "index", "cells", "selected"},
	{"cells", "cells", "cells", "valid", "valid"},
	{"index", "x", "index", "x", "index"},
	{"x"},
	{},
}

// rowDoc writes a row with the fields in order, before the comma,
// after it (before the name), around the colon and inside the braces.
func rowDoc(order []string, before, after, colon, brace string) string {
	fields := make([]string, len(order))
	for i, name := range order {
		fields[i] = rowField(name, i+1, colon)
	}
	return "{" + brace + strings.Join(fields, before+","+after) + brace + "}"
}

// Rows with JSON's whitespace (space, tab, line feed, carriage return)
// before and after each comma, around each colon and inside the braces,
// in any order with repeated and unknown fields, decode as encoding/json
// decodes them.
func TestWhitespaceBetweenFieldsInAnyOrder(t *testing.T) {
	spaces := []string{"", " ", "\t", "\n", "\r\n", " \t\n\r "}
	for _, order := range rowOrders {
		for _, before := range spaces {
			for j, after := range spaces {
				for _, colon := range []string{"", " \t"} {
					doc := rowDoc(order, before, after, colon, spaces[(j+1)%len(spaces)])
					var got, want gen.Row
					require.NoError(t, gen.DecodeAnswer([]byte(doc), &got, "", nil), doc)
					require.NoError(t, json.Unmarshal([]byte(doc), &want), doc)
					assert.Equal(t, want, got, doc)
				}
			}
		}
	}
}

// failsAsEncodingJSON checks that doc, which encoding/json refuses, fails
// to decode into a row at the byte encoding/json stops at (its count of
// the bytes read less one, or the length of doc when it ends too soon).
func failsAsEncodingJSON(t *testing.T, doc string) {
	t.Helper()
	var v any
	var syntax *json.SyntaxError
	require.ErrorAs(t, json.Unmarshal([]byte(doc), &v), &syntax, "%q", doc)
	var row gen.Row
	var e *gen.SyntaxError
	require.ErrorAs(t, gen.DecodeAnswer([]byte(doc), &row, "", nil), &e, "%q", doc)
	want := syntax.Offset - 1
	if e.Msg == "unexpected end of JSON input" {
		want = syntax.Offset
	}
	assert.Equal(t, want, e.Offset, "%q: %v", doc, e)
}

// Bytes that are not JSON whitespace (form feed, vertical tab, NUL, other
// control bytes, a no-break space) before or after a comma between fields
// fail where encoding/json fails, and so does a row cut anywhere: after a
// comma, after the whitespace after it, inside a name or before a colon.
func TestRowsNotJSONFailWhereEncodingJSONFails(t *testing.T) {
	for _, order := range rowOrders[:4] {
		for _, bad := range []string{"\f", "\v", "\x00", "\x1f", "\u00a0", "\x85"} {
			failsAsEncodingJSON(t, rowDoc(order, bad, "", "", ""))
			failsAsEncodingJSON(t, rowDoc(order, "", bad, "", ""))
			failsAsEncodingJSON(t, rowDoc(order, " ", " "+bad, "", ""))
			failsAsEncodingJSON(t, rowDoc(order, "", "", "", bad))
		}
		for _, doc := range []string{rowDoc(order, "", "", "", ""), rowDoc(order, " \n", "\t ", " ", "\r\n")} {
			for end := range len(doc) {
				failsAsEncodingJSON(t, doc[:end])
			}
		}
	}
}

// A page written with indents decodes as the same page written compactly.
func TestIndentedPageAsCompact(t *testing.T) {
	page := tablePage(20, "r")
	var indented bytes.Buffer
	require.NoError(t, json.Indent(&indented, page, "\t", "  "))
	var compact, spaced gen.ApiStrictTableChartData
	require.NoError(t, gen.DecodeAnswer(page, &compact, "", nil))
	require.NoError(t, gen.DecodeAnswer(indented.Bytes(), &spaced, "", nil))
	assert.Equal(t, compact, spaced)
}
