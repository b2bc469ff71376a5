package parquetfile_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

// schemaOf names a file's columns with their types.
func schemaOf(t *testing.T, data []byte) []string {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	var names []string
	for _, field := range f.Schema().Fields() {
		names = append(names, field.Name()+":"+typeName(field.Type()))
	}
	return names
}

func writeKeyed(t *testing.T, keys []resultdata.Key, rows []resultdata.Row) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquetfile.NewKeyedLong(&buf, keys)
	for _, r := range rows {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// The long layout with keys: the keys' columns first (INT64, or a string),
// then the long layout's columns of the types NewLong gives them, and the
// keys' values in every record.
func TestKeyedLongLayout(t *testing.T) {
	_, rows := chart()
	keys := []resultdata.Key{resultdata.TextKey("item", "high-demand"), resultdata.IntKey("scenario_id", 1001)}
	data := writeKeyed(t, keys, rows)

	var plain bytes.Buffer
	w := parquetfile.NewLong(&plain)
	for _, r := range rows {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())
	assert.Equal(t, append([]string{"item:STRING", "scenario_id:INT(64,true)"}, schemaOf(t, plain.Bytes())...), schemaOf(t, data))

	got, want := readRows(t, data), readRows(t, plain.Bytes())
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, "high-demand", got[i]["item"])
		assert.Equal(t, int64(1001), got[i]["scenario_id"])
		delete(got[i], "item")
		delete(got[i], "scenario_id")
		assert.Equal(t, want[i], got[i], "record %d as NewLong writes it", i)
	}
}

// Concat writes the parts' records one after the other into one file of
// their schema, its text columns still dictionary-encoded; a part of
// another schema is refused, naming it.
func TestConcat(t *testing.T) {
	_, rows := chart()
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a", "b", "c"} {
		path := filepath.Join(dir, name+".parquet")
		require.NoError(t, os.WriteFile(path, writeKeyed(t, []resultdata.Key{resultdata.TextKey("item", name)}, rows), 0o644))
		paths = append(paths, path)
	}
	var buf bytes.Buffer
	require.NoError(t, parquetfile.Concat(&buf, paths))
	got := readRows(t, buf.Bytes())
	require.Len(t, got, 3*8)
	for i, r := range got {
		assert.Equal(t, []string{"a", "b", "c"}[i/8], r["item"], "record %d", i)
	}
	first, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	assert.Equal(t, schemaOf(t, first), schemaOf(t, buf.Bytes()))
	f, err := parquet.OpenFile(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	chunk := f.Metadata().RowGroups[0].Columns[0].MetaData
	assert.Contains(t, chunk.Encoding, format.RLEDictionary, "item is dictionary-encoded")

	other := filepath.Join(dir, "other.parquet")
	require.NoError(t, os.WriteFile(other, writeKeyed(t, []resultdata.Key{resultdata.IntKey("item", 1)}, rows), 0o644))
	err = parquetfile.Concat(&bytes.Buffer{}, []string{paths[0], other})
	require.Error(t, err)
	assert.Contains(t, err.Error(), other+": its schema differs from the first file's")
}

// The keyed writer's records are NewLong's over several batches of
// records, across charts, and with a column the reader adds to a chart
// after its first rows (cells right of the header).
func TestKeyedLongAcrossChartsAndBatches(t *testing.T) {
	a := &resultdata.Chart{ResultID: 5001, PageID: 2, Page: "Costs", Sheet: "Sites", Type: "Table", Name: "Sites",
		Columns: []resultdata.Column{{Name: "Site", Kind: resultdata.Text}, {Name: "Cost", Kind: resultdata.Number}}}
	b := &resultdata.Chart{ResultID: 5001, PageID: 3, Page: "Service", Sheet: "Levels", Type: "Line", Statistics: "Service",
		Columns: []resultdata.Column{{Name: "Week", Kind: resultdata.Number}, {Name: "Level", Kind: resultdata.Number}}}
	var rows []resultdata.Row
	for i := range 800 {
		if i == 400 {
			a.Columns = append(a.Columns, resultdata.Column{Name: "C"})
		}
		vals := []resultdata.Value{{Kind: resultdata.Text, Text: fmt.Sprint("Site ", i)}, {Kind: resultdata.Number, Num: float64(i)}}
		if i >= 400 {
			vals = append(vals, resultdata.Value{Kind: resultdata.Bool, Bool: i%2 == 0})
		}
		rows = append(rows, resultdata.Row{Chart: a, Index: int64(i + 1), SheetRow: int64(i + 6), Values: vals})
	}
	for i := range 300 {
		rows = append(rows, resultdata.Row{Chart: b, Index: int64(i + 1), SheetRow: int64(i + 6),
			Values: []resultdata.Value{{Kind: resultdata.Number, Num: float64(i)}, {Kind: resultdata.Number, Num: 0.5}}})
	}
	data := writeKeyed(t, []resultdata.Key{resultdata.TextKey("item", "x")}, rows)
	var plain bytes.Buffer
	w := parquetfile.NewLong(&plain)
	for _, r := range rows {
		require.NoError(t, w.Write(r))
	}
	require.NoError(t, w.Close())

	got, want := readRows(t, data), readRows(t, plain.Bytes())
	require.Len(t, want, 400*2+400*3+300*2)
	require.Len(t, got, len(want))
	for i := range want {
		delete(got[i], "item")
		require.Equal(t, want[i], got[i], "record %d as NewLong writes it", i)
	}
}
