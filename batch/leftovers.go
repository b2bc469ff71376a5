package batch

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/scmodel/scmgo/internal/atomicfile"
)

// removeLeftovers removes the temporary files a killed batch left behind:
// the state file's (.plan.state.json.<digits>.tmp), the exports', the
// dataset's and its parts' (.NAME.<digits>.partial), and nothing else. It runs with the state file
// locked, so no batch of the plan is writing them.
func (r *Runner) removeLeftovers() error {
	_, err := atomicfile.RemoveLeftovers(filepath.Dir(r.path), []string{filepath.Base(r.path)},
		&atomicfile.Options{Suffix: stateTempSuffix, FS: r.st.fs})
	errs := []error{err}
	exports := map[string][]string{}
	for _, it := range r.plan.Items {
		if it.DashboardPath != "" {
			dir := filepath.Dir(it.DashboardPath)
			exports[dir] = append(exports[dir], filepath.Base(it.DashboardPath))
		}
	}
	if d := r.data; d != nil {
		exports[filepath.Dir(d.path)] = append(exports[filepath.Dir(d.path)], filepath.Base(d.path))
		exports[d.parts] = append(exports[d.parts], d.partNames(r.plan)...)
	}
	for dir, names := range exports {
		_, err := atomicfile.RemoveLeftovers(dir, names, atomicfile.Output())
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("batch: removing the temporary files a killed batch left: %w", err)
	}
	return nil
}
