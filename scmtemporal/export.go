package scmtemporal

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/internal/atomicfile"
	"github.com/scmodel/scmgo/resultdata"
)

// ExportDashboard writes every dashboard page of the result into one
// workbook (dashboard.ExportFile: whole or not at all), heartbeating the
// page. Exports change nothing on the server; a retry after the workbook
// was written does nothing, others export again, removing what a dead
// attempt's write left beside it.
func (a *Activities) ExportDashboard(ctx context.Context, in ExportInput) (string, error) {
	var hb ExportProgress
	if _, err := os.Stat(in.Path); details(ctx, &hb) && hb.Written && err == nil {
		return in.Path, nil
	}
	beat := newBeater(ctx)
	defer beat.stop()
	beat.set(ExportProgress{})
	if err := prepareOutput(in.Path); err != nil {
		return "", err
	}
	err := dashboard.ExportFile(ctx, a.Client, in.ExperimentResultID, in.Path, &dashboard.Options{Progress: func(p dashboard.Progress) {
		beat.set(ExportProgress{Page: p.Index, Total: p.Total})
	}})
	if err != nil {
		return "", classify(err)
	}
	beat.set(ExportProgress{Written: true})
	return in.Path, nil
}

// WriteResultData writes the rows of the result to in.Path, in
// resultdata's long layout keyed by the item (batch.KeyColumns: item,
// scenario_id, rc_id), as CSV or JSON Lines by the path's extension
// (batch.FormatOf), heartbeating the page. The file is replaced whole
// (written beside it, synced, renamed) or not at all; reads change nothing
// on the server, so a retry writes it again, removing what a dead
// attempt's write left beside it.
func (a *Activities) WriteResultData(ctx context.Context, in DataInput) (DataOutput, error) {
	format := batch.FormatOf(in.Path)
	if format == nil {
		msg := fmt.Sprintf("WriteResultData: Path %q: want a .csv, .jsonl or .ndjson file", in.Path)
		return DataOutput{}, temporal.NewNonRetryableApplicationError(msg, ErrTypeRefused, nil)
	}
	beat := newBeater(ctx)
	defer beat.stop()
	beat.set(DataProgress{})
	if err := prepareOutput(in.Path); err != nil {
		return DataOutput{}, err
	}
	out := DataOutput{Path: in.Path}
	err := atomicfile.Write(in.Path, func(f io.Writer) error {
		return a.writeRows(ctx, f, format, in, &out, beat)
	}, atomicfile.Output())
	if err != nil {
		return DataOutput{}, classify(fmt.Errorf("writing the rows of result %d to %s: %w", in.ExperimentResultID, in.Path, err))
	}
	return out, nil
}

func (a *Activities) writeRows(ctx context.Context, f io.Writer, format *batch.DataFormat, in DataInput, out *DataOutput, beat *beater) error {
	keys := []resultdata.Key{resultdata.TextKey(batch.KeyColumns[0], in.Item), resultdata.IntKey(batch.KeyColumns[1], int64(in.ScenarioID)),
		resultdata.IntKey(batch.KeyColumns[2], int64(in.RcID))}
	rw := format.NewWriter(f, keys)
	opts := &resultdata.ResultOptions{Progress: func(p resultdata.PageProgress) {
		beat.set(DataProgress{Page: p.Index, Total: p.Total, Rows: out.Rows})
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
