package ziptest_test

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/internal/testkit/ziptest"
)

// Rewrite keeps every part, in order, and changes only what edit changes.
func TestRewriteEditsOnlyWhatEditChanges(t *testing.T) {
	var in bytes.Buffer
	zw := zip.NewWriter(&in)
	for _, p := range [][2]string{{"a.xml", "<a/>"}, {"b.xml", "<b/>"}} {
		w, err := zw.Create(p[0])
		require.NoError(t, err)
		_, err = w.Write([]byte(p[1]))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())

	out := ziptest.Rewrite(t, in.Bytes(), func(name string, b []byte) []byte {
		if name == "b.xml" {
			return []byte("<B/>")
		}
		return b
	})
	zr, err := zip.NewReader(bytes.NewReader(out), int64(len(out)))
	require.NoError(t, err)
	var got [][2]string
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		got = append(got, [2]string{f.Name, string(b)})
	}
	assert.Equal(t, [][2]string{{"a.xml", "<a/>"}, {"b.xml", "<B/>"}}, got)
}
