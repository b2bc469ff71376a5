package main

import (
	"io"

	"github.com/scmodel/scmgo/internal/atomicfile"
)

// writeFileWith lets write fill a temporary file beside path, then syncs it
// and renames it over path: a failed write (an error answer, a connection
// dropped mid-body) leaves the file that was at path as it was. A new file
// has mode 0644 before the umask.
func writeFileWith(path string, write func(io.Writer) error) error {
	return atomicfile.Write(path, write, atomicfile.Output())
}
