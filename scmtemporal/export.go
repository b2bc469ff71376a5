package scmtemporal

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/atomicfile"
	"github.com/scmodel/scmgo/resultdata"
	"github.com/scmodel/scmgo/scmtemporal/internal/wire"
)

// exportDashboard (scm.ExportDashboard) writes every dashboard page of the result into one
// workbook (dashboard.ExportFile: whole or not at all), heartbeating the
// page. Exports change nothing on the server; a retry after the workbook
// was written does nothing, others export again, removing what a dead
// attempt's write left beside it.
func (a *Activities) exportDashboard(ctx context.Context, in wire.ExportInput) (string, error) {
	var hb wire.ExportProgress
	if _, err := os.Stat(in.Path); details(ctx, &hb) && hb.Written && err == nil {
		return in.Path, nil
	}
	beat := newBeater(ctx)
	defer beat.stop()
	beat.set(wire.ExportProgress{})
	if err := prepareOutput(in.Path); err != nil {
		return "", err
	}
	err := dashboard.ExportFile(ctx, a.Client, in.ExperimentResultID, in.Path, &dashboard.Options{Progress: func(p dashboard.Progress) {
		beat.set(wire.ExportProgress{Page: p.Index, Total: p.Total})
	}})
	if err != nil {
		return "", classify(err)
	}
	beat.set(wire.ExportProgress{Written: true})
	return in.Path, nil
}

// writeResultData (scm.WriteResultData) writes the rows of the result to in.Path, in
// resultdata's long layout keyed by the item (batch.KeyColumns: item,
// scenario_id, rc_id), as CSV or JSON Lines by the path's extension
// (batch.FormatOf), heartbeating the page. The file is replaced whole
// (written beside it, synced, renamed) or not at all; reads change nothing
// on the server, so a retry writes it again, removing what a dead
// attempt's write left beside it.
func (a *Activities) writeResultData(ctx context.Context, in wire.DataInput) (wire.DataOutput, error) {
	format := a.formatOf(in.Path)
	if format == nil {
		msg := fmt.Sprintf("scm.WriteResultData: Path %q: its extension names no format of this worker's: .csv, .jsonl, .ndjson or one of Activities.DataFormats", in.Path)
		return wire.DataOutput{}, temporal.NewNonRetryableApplicationError(msg, ErrTypeRefused, nil)
	}
	beat := newBeater(ctx)
	defer beat.stop()
	beat.set(wire.DataProgress{})
	if err := prepareOutput(in.Path); err != nil {
		return wire.DataOutput{}, err
	}
	out := wire.DataOutput{Path: in.Path}
	err := atomicfile.Write(in.Path, func(f io.Writer) error {
		return a.writeRows(ctx, f, format, in, &out, beat)
	}, atomicfile.Output())
	if err != nil {
		return wire.DataOutput{}, classify(fmt.Errorf("writing the rows of result %d to %s: %w", in.ExperimentResultID, in.Path, err))
	}
	return out, nil
}

func (a *Activities) writeRows(ctx context.Context, f io.Writer, format *batch.DataFormat, in wire.DataInput, out *wire.DataOutput, beat *beater) error {
	rw := format.NewWriter(f, dataKeys(in.Item, in.ScenarioID, in.RcID))
	opts := &resultdata.ResultOptions{Progress: func(p resultdata.PageProgress) {
		beat.set(wire.DataProgress{Page: p.Index, Total: p.Total, Rows: out.Rows})
	}}
	for row, err := range resultdata.Result(ctx, a.Client, in.ExperimentResultID, opts) {
		if err != nil {
			return err
		}
		if err := rw.Write(row); err != nil {
			return err
		}
		out.Rows++
		for _, v := range row.Values {
			if v.Kind != resultdata.Empty {
				out.Records++
			}
		}
	}
	return rw.Close()
}

// prepareOutput makes the directory of an output file, and removes what
// the writes of a worker that died left beside the file
// (.NAME.<digits>.partial): only this item's workflow writes it, and an
// attempt that Temporal gave up on and that still writes loses nothing
// that counts (its result is refused; this attempt writes the same file).
func prepareOutput(path string) error {
	if err := ensureDir(filepath.Dir(path)); err != nil {
		return err
	}
	_, err := atomicfile.RemoveLeftovers(filepath.Dir(path), []string{filepath.Base(path)}, atomicfile.Output())
	return err
}

// ensureDir makes the directory of an output when it is not there.
func ensureDir(dir string) error {
	if info, err := os.Stat(dir); err == nil && info.IsDir() {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("making the output directory: %w", err)
	}
	return atomicfile.OS.SyncDir(filepath.Dir(dir))
}

// dataKeys are the keys of an item's records, named by batch.KeyColumns.
func dataKeys(item string, scenario ids.ScenarioID, rc ids.RcID) []resultdata.Key {
	return []resultdata.Key{resultdata.TextKey(batch.KeyColumns[0], item), resultdata.IntKey(batch.KeyColumns[1], int64(scenario)),
		resultdata.IntKey(batch.KeyColumns[2], int64(rc))}
}

// formatOf is the format of the data file at path: batch's by its
// extension, else the first of Activities.DataFormats whose Ext it has,
// ignoring case; nil for none.
func (a *Activities) formatOf(path string) *batch.DataFormat {
	if f := batch.FormatOf(path); f != nil {
		return f
	}
	for _, f := range a.DataFormats {
		if f != nil && f.NewWriter != nil && strings.EqualFold(filepath.Ext(path), f.Ext) {
			return f
		}
	}
	return nil
}
