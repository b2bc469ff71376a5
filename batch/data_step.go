package batch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/scmodel/scmgo/internal/atomicfile"
	"github.com/scmodel/scmgo/resultdata"
)

// dataFileOptions are those of the dataset and its parts: a part is
// written beside its file (.NAME.<digits>.partial) and renamed over it
// once whole and synced. A batch removes the leftovers of its parts once,
// as it starts (removeLeftovers), not with a read of their directory per
// part written.
func (r *Runner) dataFileOptions() *atomicfile.Options {
	o := atomicfile.Output()
	o.FS = r.dataFS
	o.SweepLeftovers = false
	return o
}

// data writes the item's rows to its part of the dataset, unless the state
// records it: the rows of every dashboard page of its result
// (resultdata.Result), streamed to a temporary file beside the part,
// which is synced and renamed into place once whole. The part is recorded
// in the state file before the item is done, so a batch killed while the
// rows are written (or after the part is in place, before it is
// recorded) writes them again, whole, and a part is never taken twice.
func (w *worker) data(ctx context.Context) error {
	d := w.r.data
	s := w.state()
	if d == nil || d.hasPart(w.it.Name, s) {
		return nil
	}
	w.emit(StepData, fmt.Sprintf("reading result %d", s.ExperimentResultID), 0)
	path := d.partPath(w.it.Name)
	if err := ensureDir(d.parts); err != nil {
		return fmt.Errorf("writing the rows of result %d: %w", s.ExperimentResultID, err)
	}
	part := DataPart{File: path, Format: d.Format.Name}
	err := atomicfile.Write(path, func(f io.Writer) error {
		sum := &summer{h: sha256.New()}
		if err := w.writeRows(ctx, io.MultiWriter(f, sum), s, &part); err != nil {
			return err
		}
		part.Bytes, part.SHA256 = sum.n, hex.EncodeToString(sum.h.Sum(nil))
		return nil
	}, w.r.dataFileOptions())
	if err != nil {
		return fmt.Errorf("writing the rows of result %d to %s: %w", s.ExperimentResultID, path, err)
	}
	w.emit(StepData, fmt.Sprintf("%d rows, %d records written", part.Rows, part.Records), 100)
	return w.update(func(s *ItemState) { s.Data = &part })
}

// writeRows writes the rows of the item's result to f in the dataset's
// format, counting them in part.
func (w *worker) writeRows(ctx context.Context, f io.Writer, s ItemState, part *DataPart) error {
	d := w.r.data
	rw := d.Format.NewWriter(f, itemKeys(w.it.Name, s))
	opts := &resultdata.ResultOptions{
		Options: resultdata.Options{Limits: d.Limits, Notes: func(n resultdata.Note) { part.Notes++; w.r.note(w.it.Name, n) }},
		Progress: func(p resultdata.PageProgress) {
			w.emit(StepData, fmt.Sprintf("page %d/%d", p.Index, p.Total), pagePercent(p))
		},
	}
	for row, err := range resultdata.Result(ctx, w.r.c, s.ExperimentResultID, opts) {
		if err != nil {
			return err
		}
		if err := rw.Write(row); err != nil {
			return err
		}
		part.Rows++
		for _, v := range row.Values {
			if v.Kind != resultdata.Empty {
				part.Records++
			}
		}
	}
	return rw.Close()
}

// summer counts and hashes what is written.
type summer struct {
	h hash.Hash
	n int64
}

func (s *summer) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	return s.h.Write(p)
}

// pagePercent is how far the pages are, from 0 to 100: a page downloaded
// counts nine tenths of its share, read whole all of it.
func pagePercent(p resultdata.PageProgress) float64 {
	done := 0.0
	switch {
	case p.Stage == resultdata.Done:
		done = 1
	case p.Stage == resultdata.Reading:
		done = 0.9
	case p.Size > 0:
		done = 0.9 * min(float64(p.Bytes)/float64(p.Size), 1)
	}
	return (float64(p.Index-1) + done) * 100 / float64(max(p.Total, 1))
}

// note hands a note of the reader to Dataset.Notes, one at a time, or logs
// it.
func (r *Runner) note(item string, n resultdata.Note) {
	if r.data.Notes == nil {
		if r.data.Logger != nil {
			r.data.Logger.Warn("batch: item " + item + ": " + n.String())
		}
		return
	}
	r.emitMu.Lock()
	defer r.emitMu.Unlock()
	r.data.Notes(item, n)
}

// ensureDir makes dir, when it is not there, and syncs its parent, so that
// the directory of a part recorded in the state file survives a crash.
func ensureDir(dir string) error {
	if info, err := os.Stat(dir); err == nil && info.IsDir() {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.OS.SyncDir(filepath.Dir(dir))
}
