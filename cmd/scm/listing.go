package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/internal/csvsafe"
)

// listTable is what a command that lists writes: the items as the server
// answered them, which json writes as one array and jsonl an object per
// line, and a table of them, which table aligns and csv writes a record
// per row.
type listTable struct {
	items  any // a slice
	header []string
	rows   [][]cell
}

// cell is a field of a listTable.
type cell struct {
	text   string
	number bool // csv writes it as a number, as it is
}

func textCell(s string) cell         { return cell{text: s} }
func numberCell(v fmt.Stringer) cell { return cell{text: v.String(), number: true} }
func intCell(n int) cell             { return cell{text: fmt.Sprint(n), number: true} }

// add appends a row.
func (l *listTable) add(cells ...cell) { l.rows = append(l.rows, cells) }

// listOutput is the output of a command that lists: -o, --format (table,
// json, jsonl or csv) and --keep-formulas for csv.
type listOutput struct {
	*output
	keepFormulas bool
}

// withListOutput gives cmd the flags of a command that lists.
func (a *app) withListOutput(cmd *cobra.Command) *listOutput {
	l := &listOutput{output: a.withOutput(cmd, listFormats...)}
	cmd.Flags().BoolVar(&l.keepFormulas, "keep-formulas", false, keepFormulasHelp)
	return l
}

// write writes l in the resolved format to standard output (-o's file).
func (o *listOutput) write(l listTable) error {
	a := o.a
	switch o.format {
	case formatJSON:
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(nonNil(l.items))
	case formatJSONL:
		return writeJSONLines(a, l.items)
	case formatCSV:
		w := csvsafe.NewWriter(a.stdout, csvsafe.Options{KeepFormulas: o.keepFormulas})
		if err := w.WriteText(l.header...); err != nil {
			return err
		}
		for _, row := range l.rows {
			for _, c := range row {
				if c.number {
					w.Number(c.text)
				} else {
					w.Text(c.text)
				}
			}
			if err := w.EndRecord(); err != nil {
				return err
			}
		}
		return w.Flush()
	}
	tw := a.table(l.header...)
	for _, row := range l.rows {
		texts := make([]string, len(row))
		for i, c := range row {
			texts[i] = c.text
		}
		fmt.Fprintln(tw, strings.Join(texts, "\t"))
	}
	return tw.Flush()
}

// nonNil is items, or an empty list for a nil one: json writes [] for a
// list with no items.
func nonNil(items any) any {
	if v := reflect.ValueOf(items); v.Kind() == reflect.Slice && v.IsNil() {
		return []struct{}{}
	}
	return items
}

// writeJSONLines writes each item of a list as a JSON object on a line of
// its own.
func writeJSONLines(a *app, items any) error {
	raw, err := json.Marshal(nonNil(items))
	if err != nil {
		return err
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return fmt.Errorf("jsonl: %w", err)
	}
	var b bytes.Buffer
	for _, item := range list {
		b.Reset()
		if err := json.Compact(&b, item); err != nil {
			return err
		}
		b.WriteByte('\n')
		if _, err := a.stdout.Write(b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
