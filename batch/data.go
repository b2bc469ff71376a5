package batch

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/scmodel/scmgo/resultdata"
)

// Dataset is where a batch writes the rows of every item's result
// ([Options.Data]): one file in resultdata's long layout, each record
// keyed by its item. See the package documentation.
type Dataset struct {
	// Path is the dataset's file. Each item's rows are written first to a
	// part of their own in the directory Path+".parts", named after the
	// item (high-demand.parquet).
	Path string
	// Format is the format of the dataset and its parts; nil means the
	// one [FormatOf] Path's extension names.
	Format *DataFormat
	// Notes receives what the reader noted of an item's workbooks: each
	// sheet, or part of one, not laid out as the recorded workbooks are
	// ([resultdata.Note]), one call at a time. Nil means each is logged at
	// Warn to Logger.
	Notes func(item string, n resultdata.Note)
	// Logger logs the notes when Notes is nil. Nil means they are logged
	// nowhere: the package logs only to a logger it is given.
	Logger *slog.Logger
	// Limits bound what a workbook can make the reader hold or do; zero
	// fields take resultdata's defaults.
	Limits resultdata.Limits
}

// DataFormat is a file format of a batch's dataset: how an item's rows
// are written to its part, and how the parts become one file. [CSV] and
// [JSONL] are built in; Parquet is resultdata/parquetfile's, which this
// package does not link (a program that writes no Parquet links no
// Parquet library):
//
//	parquet := &batch.DataFormat{Name: "parquet", Ext: ".parquet",
//		NewWriter: parquetfile.NewKeyedLong, Concat: parquetfile.Concat}
type DataFormat struct {
	// Name names the format, as the state file records it.
	Name string
	// Ext is the parts' extension, with its dot.
	Ext string
	// NewWriter writes the long layout with the keys' columns first, as
	// resultdata.NewKeyedCSV does; with no rows, Close writes an empty
	// dataset.
	NewWriter func(w io.Writer, keys []resultdata.Key) resultdata.RowWriter
	// Concat writes the parts at paths (at least one), each a whole file
	// NewWriter wrote with keys of the same names and types, to w as one
	// file, in order.
	Concat func(w io.Writer, paths []string) error
}

// The formats built in.
var (
	// CSV: RFC 4180 with a header row; the parts' rows follow one
	// another under the first part's header. Text that a spreadsheet
	// would take for a formula is neutralised (resultdata.CSVOptions).
	CSV = &DataFormat{Name: "csv", Ext: ".csv", NewWriter: resultdata.NewKeyedCSV, Concat: concatCSV}
	// CSVKeepFormulas is [CSV] with every text as the server sent it
	// (resultdata.CSVOptions.KeepFormulas), for a dataset no spreadsheet
	// opens.
	CSVKeepFormulas = &DataFormat{Name: "csv", Ext: ".csv", NewWriter: resultdata.CSVOptions{KeepFormulas: true}.NewKeyedCSV, Concat: concatCSV}
	// JSONL: JSON Lines, an object per record; the parts follow one
	// another.
	JSONL = &DataFormat{Name: "jsonl", Ext: ".jsonl", NewWriter: resultdata.NewKeyedJSONL, Concat: concatFiles}
)

// FormatOf is the format built in that a path's extension names, ignoring
// case: .csv is [CSV], .jsonl and .ndjson [JSONL]; nil for another.
func FormatOf(path string) *DataFormat {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return CSV
	case ".jsonl", ".ndjson":
		return JSONL
	}
	return nil
}

// KeyColumns are the columns every record of a batch's dataset begins
// with, before resultdata.LongColumns: the item's name, its scenarioId and
// the rcId of its experiment. result_id, among the long layout's columns,
// is the item's experimentResultId.
var KeyColumns = []string{"item", "scenario_id", "rc_id"}

// itemKeys are the keys of an item's records, named by KeyColumns.
func itemKeys(name string, s ItemState) []resultdata.Key {
	return []resultdata.Key{resultdata.TextKey(KeyColumns[0], name), resultdata.IntKey(KeyColumns[1], int64(s.ScenarioID)),
		resultdata.IntKey(KeyColumns[2], int64(s.RcID))}
}

// DataPart is what the state file records of an item's part of the
// dataset once it is written whole: the item is done only after.
type DataPart struct {
	File    string `json:"file"`    // the part's path
	Format  string `json:"format"`  // DataFormat.Name
	Rows    int64  `json:"rows"`    // the result's data rows
	Records int64  `json:"records"` // the records written: one per value that is not empty
	Bytes   int64  `json:"bytes"`   // the part's size
	SHA256  string `json:"sha256"`  // the part's content's, in hex
	Notes   int    `json:"notes,omitempty"`
}

// DataSummary is how the dataset stands after a batch.
type DataSummary struct {
	Path string
	// Items is how many items' rows it holds: those of every item done.
	Items         int
	Rows, Records int64
	// Written: the batch wrote the dataset; false when the file held these
	// parts already.
	Written bool
	// Err is why the dataset could not be written; the parts are kept,
	// and a batch started again writes it.
	Err error
}

// dataset is a Dataset checked, with its paths made absolute.
type dataset struct {
	Dataset
	path, parts string
}

// newDataset checks d and makes its paths absolute; nil when d is nil.
// Items whose names differ only in case are refused: on a file system
// that ignores case, their parts would be one file.
func newDataset(d *Dataset, p *Plan) (*dataset, error) {
	if d == nil {
		return nil, nil
	}
	seen := map[string]Item{}
	for _, it := range p.Items {
		if other, ok := seen[strings.ToLower(it.Name)]; ok {
			return nil, fmt.Errorf("%s:%d: item %q and item %q at line %d differ only in case: their parts of the dataset would be one file where case is ignored; rename one",
				p.File, it.Line, it.Name, other.Name, other.Line)
		}
		seen[strings.ToLower(it.Name)] = it
	}
	if d.Path == "" {
		return nil, errors.New("batch: Options.Data.Path is empty: name the dataset's file")
	}
	out := &dataset{Dataset: *d}
	if out.Format == nil {
		if out.Format = FormatOf(d.Path); out.Format == nil {
			return nil, fmt.Errorf("batch: dataset %s: the extension %q names no format built in (.csv, .jsonl); set Options.Data.Format", d.Path, filepath.Ext(d.Path))
		}
	}
	if f := out.Format; f.Name == "" || f.Ext == "" || f.NewWriter == nil || f.Concat == nil {
		return nil, fmt.Errorf("batch: dataset %s: its DataFormat needs a Name, an Ext, a NewWriter and a Concat", d.Path)
	}
	abs, err := filepath.Abs(d.Path)
	if err != nil {
		return nil, fmt.Errorf("batch: dataset %s: %w", d.Path, err)
	}
	out.path, out.parts = abs, abs+".parts"
	return out, nil
}

// partPath is the file of an item's part.
func (d *dataset) partPath(item string) string {
	return filepath.Join(d.parts, item+d.Format.Ext)
}

// hasPart reports whether the state records the item's part as this
// dataset has it, and the file is there, of the size recorded.
func (d *dataset) hasPart(item string, s ItemState) bool {
	p := s.Data
	if p == nil || p.File != d.partPath(item) || p.Format != d.Format.Name {
		return false
	}
	info, err := os.Stat(p.File)
	return err == nil && info.Mode().IsRegular() && info.Size() == p.Bytes
}

// concatFiles copies the files one after the other to w.
func concatFiles(w io.Writer, paths []string) error {
	for _, path := range paths {
		if err := copyFrom(w, path, nil); err != nil {
			return err
		}
	}
	return nil
}

// concatCSV copies the CSV files to w under the first one's header: each
// file after it must have the same header, which is left out.
func concatCSV(w io.Writer, paths []string) error {
	var header []byte
	for _, path := range paths {
		err := copyFrom(w, path, func(r *bufio.Reader) error {
			line, err := r.ReadBytes('\n')
			switch {
			case err != nil && !errors.Is(err, io.EOF):
				return err
			case header == nil:
				header = bytes.Clone(line)
				_, err = w.Write(line)
				return err
			case !bytes.Equal(line, header):
				return fmt.Errorf("its header %q differs from the first part's %q", bytes.TrimSpace(line), bytes.TrimSpace(header))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// copyFrom copies the file at path to w; head, when set, reads its
// beginning first.
func copyFrom(w io.Writer, path string, head func(*bufio.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	if head != nil {
		if err := head(r); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	_, err = r.WriteTo(w)
	return err
}
