// Package ziptest edits the parts of a zip archive (a workbook) in tests:
// the way to build the malformed or hostile workbooks that dashboard and
// resultdata must refuse from a genuine one.
package ziptest

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

// Rewrite returns the archive data with each part's content passed through
// edit, in the parts' order and under their names.
func Rewrite(t testing.TB, data []byte, edit func(name string, content []byte) []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, rc.Close())
		require.NoError(t, err)
		w, err := zw.Create(f.Name)
		require.NoError(t, err)
		_, err = w.Write(edit(f.Name, b))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return out.Bytes()
}
