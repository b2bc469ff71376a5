package dashboard

import (
	"context"
	"io"
	"os"
	"path/filepath"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/atomicfile"
)

// ExportFile exports every dashboard page of a result into the workbook at
// path ([Export]), creating its directory. The workbook is written beside
// path (.NAME.<digits>.partial) as each page is merged, synced and renamed
// into place once whole, so path holds a whole workbook or what it held
// before; a new workbook has mode 0644 (before the umask). An export
// first removes the partial files that exports of path killed before they
// ended left beside it (those named exactly so, and not an export's under
// way). A symbolic link at path is followed, unless opts.NoFollow refuses
// it ([ErrSymlink]). Errors name path, never the partial file. opts may be
// nil.
func ExportFile(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, path string, opts *Options) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	o := atomicfile.Output()
	o.NoFollow = opts != nil && opts.NoFollow
	return atomicfile.Write(path, func(w io.Writer) error {
		return Export(ctx, c, resultID, w, opts)
	}, o)
}

// ErrSymlink matches the error of [ExportFile] when Options.NoFollow
// refused the symbolic link at its path.
var ErrSymlink = atomicfile.ErrSymlink
