package resultdata

import (
	"io"
	"slices"
	"strconv"
)

// Key is a column of one value that a writer of the long layout puts
// before [LongColumns] in each of its records: what tells apart the
// results of a dataset that holds many, such as the items of a batch.
// Make one with [IntKey] or [TextKey].
type Key struct {
	Name string
	// IsText says which of Text and Int holds the value.
	IsText bool
	Text   string
	Int    int64
}

// IntKey is a key of an integer value, such as an id: a number in CSV and
// JSON Lines, INT64 in Parquet.
func IntKey(name string, v int64) Key { return Key{Name: name, Int: v} }

// TextKey is a key of a text value, such as a name.
func TextKey(name, v string) Key { return Key{Name: name, IsText: true, Text: v} }

// String is the key's value as text.
func (k Key) String() string {
	if k.IsText {
		return k.Text
	}
	return strconv.FormatInt(k.Int, 10)
}

// KeyedColumns are the columns of the long layout with keys: the keys'
// names, then [LongColumns].
func KeyedColumns(keys []Key) []string {
	out := make([]string, 0, len(keys)+len(LongColumns))
	for _, k := range keys {
		out = append(out, k.Name)
	}
	return append(out, LongColumns...)
}

// NewKeyedCSV writes the long layout as CSV to w, as [NewCSV] does, with
// the keys' columns first ([KeyedColumns]) and their values in every
// record; a text key's value is a text field ([CSVOptions]).
func NewKeyedCSV(w io.Writer, keys []Key) RowWriter { return CSVOptions{}.NewKeyedCSV(w, keys) }

// NewKeyedCSV writes the long layout with keys as CSV to w, as the
// function [NewKeyedCSV] does.
func (o CSVOptions) NewKeyedCSV(w io.Writer, keys []Key) RowWriter {
	return &csvWriter{w: o.newCSV(w), header: KeyedColumns(keys), keys: slices.Clone(keys)}
}

// NewKeyedJSONL writes the long layout as JSON Lines to w, as [NewJSONL]
// does, with the keys first in every object: a text key's value a string,
// an integer key's a number.
func NewKeyedJSONL(w io.Writer, keys []Key) RowWriter {
	var prefix []byte
	for _, k := range keys {
		prefix = append(appendJSONString(prefix, k.Name), ':')
		if k.IsText {
			prefix = appendJSONString(prefix, k.Text)
		} else {
			prefix = strconv.AppendInt(prefix, k.Int, 10)
		}
		prefix = append(prefix, ',')
	}
	jw := NewJSONL(w).(*jsonWriter)
	jw.prefix = prefix
	return jw
}
