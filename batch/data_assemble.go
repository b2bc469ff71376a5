package batch

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/scmodel/scmgo/internal/atomicfile"
)

// datasetRecord is what the state file records of the dataset last
// written: which parts it holds, so that a batch that added none leaves
// it alone.
type datasetRecord struct {
	File   string `json:"file"`
	Digest string `json:"digest"` // of its format and parts, in order
	Bytes  int64  `json:"bytes"`
}

// writeDataset writes the dataset from the parts of the items done, in
// the plan's order, each recorded in the state file: a temporary file
// beside the dataset, synced and renamed over it once whole. A batch
// killed meanwhile leaves the dataset that was there; the next one writes
// it again. When the dataset holds these parts already, it is left
// alone.
func (r *Runner) writeDataset() *DataSummary {
	d := r.data
	sum := &DataSummary{Path: d.path}
	var paths []string
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", d.Format.Name)
	for _, it := range r.plan.Items {
		s := r.st.get(it.Name)
		if s.Status != Done || !d.hasPart(it.Name, s) {
			continue
		}
		paths = append(paths, s.Data.File)
		sum.Items, sum.Rows, sum.Records = sum.Items+1, sum.Rows+s.Data.Rows, sum.Records+s.Data.Records
		fmt.Fprintf(h, "%s\n%s\n%s\n", it.Name, s.Data.File, s.Data.SHA256)
	}
	digest := hex.EncodeToString(h.Sum(nil)[:16])
	if r.st.datasetIs(d.path, digest) {
		return sum
	}
	if err := r.assemble(paths); err != nil {
		sum.Err = fmt.Errorf("batch: writing the dataset %s from %d parts: %w", d.path, len(paths), err)
		return sum
	}
	sum.Written = true
	info, err := os.Stat(d.path)
	if err == nil {
		err = r.st.setDataset(&datasetRecord{File: d.path, Digest: digest, Bytes: info.Size()})
	}
	sum.Err = err
	return sum
}

// assemble writes the dataset from the parts at paths; with none, it is
// an empty dataset.
func (r *Runner) assemble(paths []string) error {
	d := r.data
	if err := ensureDir(filepath.Dir(d.path)); err != nil {
		return err
	}
	return atomicfile.Write(d.path, func(w io.Writer) error {
		if len(paths) == 0 {
			return d.Format.NewWriter(w, itemKeys("", ItemState{})).Close()
		}
		return d.Format.Concat(w, paths)
	}, r.dataFileOptions())
}

// datasetIs reports whether the state records the dataset at path as
// holding the parts digest names, and the file is there, of the size
// recorded.
func (s *store) datasetIs(path, digest string) bool {
	s.mu.Lock()
	rec := s.data.Dataset
	s.mu.Unlock()
	if rec == nil || rec.File != path || rec.Digest != digest {
		return false
	}
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular() && info.Size() == rec.Bytes
}

// setDataset records the dataset written and writes the state file.
func (s *store) setDataset(rec *datasetRecord) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data.Dataset = rec
	return s.save()
}

// partNames are the base names of every item's part, for the removal of
// the temporary files a killed batch left.
func (d *dataset) partNames(p *Plan) []string {
	names := make([]string, len(p.Items))
	for i, it := range p.Items {
		names[i] = filepath.Base(d.partPath(it.Name))
	}
	return names
}
