package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// RemoveLeftovers removes from dir the temporary files that writes of the
// files named (base names in dir) left behind, with opts.Suffix: the files
// named .NAME.<digits>SUFFIX, and nothing else, so that a user's file is never
// touched. A temporary file that a live writer holds (it is locked while it
// is written, where the system has file locks) is left to it. It returns the
// paths it removed; a directory that does not exist has none. opts may be
// nil.
func RemoveLeftovers(dir string, names []string, opts *Options) ([]string, error) {
	o := opts.orDefaults()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !e.Type().IsRegular() || !isLeftover(e.Name(), names, o.Suffix) || heldByWriter(path) {
			continue
		}
		if err := o.FS.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, path)
	}
	return removed, errors.Join(errs...)
}

// isLeftover reports whether name is a temporary file of one of names.
func isLeftover(name string, names []string, suffix string) bool {
	rest, ok := strings.CutSuffix(name, suffix)
	if !ok || !strings.HasPrefix(rest, ".") {
		return false
	}
	for _, base := range names {
		if digits, ok := strings.CutPrefix(rest, "."+base+"."); ok && allDigits(digits) {
			return true
		}
	}
	return false
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
