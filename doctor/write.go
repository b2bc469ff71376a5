package doctor

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/scmodel/scmgo/internal/csvsafe"
)

// Format is a layout of a written report.
type Format string

// The layouts [Report.Write] writes.
const (
	Table Format = "table" // a line per check: status, check, what was seen, what to change; then a summary
	JSON  Format = "json"  // the report as one JSON document
	JSONL Format = "jsonl" // a JSON object per check
	CSV   Format = "csv"   // a header, then a row per check: status, check, seen, fix
)

// Formats are the layouts Write writes.
func Formats() []Format { return []Format{Table, JSON, JSONL, CSV} }

// Write writes the report to w in layout f.
func (r Report) Write(w io.Writer, f Format) error {
	switch f {
	case Table:
		return r.writeTable(w)
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case JSONL:
		enc := json.NewEncoder(w)
		for _, c := range r.Checks {
			if err := enc.Encode(c); err != nil {
				return err
			}
		}
		return nil
	case CSV:
		return r.writeCSV(w)
	}
	return fmt.Errorf("doctor: no layout %q: want one of %v", f, Formats())
}

// writeTable writes a line per check, and a last line that counts them.
func (r Report) writeTable(w io.Writer) error {
	for _, c := range r.Checks {
		line := fmt.Sprintf("%-4s  %-8s  %s", c.Status, c.Name, c.Seen)
		if c.Fix != "" {
			line += "; to change: " + c.Fix
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.summary())
	return err
}

// summary counts the checks by status, and names the one that stopped
// the others.
func (r Report) summary() string {
	count := map[Status]int{}
	for _, c := range r.Checks {
		count[c.Status]++
	}
	s := fmt.Sprintf("%s: %d ok, %d warn, %d fail", plural(len(r.Checks), "check"), count[OK], count[Warn], count[Fail])
	if r.StoppedAfter != "" {
		s += fmt.Sprintf("; stopped after %s: the checks after it need it to pass", r.StoppedAfter)
	}
	return s
}

func (r Report) writeCSV(w io.Writer) error {
	cw := csvsafe.NewWriter(w, csvsafe.Options{})
	if err := cw.WriteText("status", "check", "seen", "fix"); err != nil {
		return err
	}
	for _, c := range r.Checks {
		if err := cw.WriteText(string(c.Status), c.Name, c.Seen, c.Fix); err != nil {
			return err
		}
	}
	return cw.Flush()
}
