package facade

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A refused connection sends nothing, so an upload is tried again; the
// second attempt must send the whole file or nothing. A reader given to
// UploadReader can be read once: the first attempt may have taken part of
// it already, so the call ends with the refusal instead of sending what is
// left as if it were the file.
func TestRefusedUploadIsResentWholeOrNotAtAll(t *testing.T) {
	content := bytes.Repeat([]byte("0123456789abcdef"), 16<<10) // 256 KiB, more than one copy buffer
	for name, tc := range map[string]struct {
		upload    func(t *testing.T) Upload
		wantSent  bool
		wantCalls int32
	}{
		"UploadFile is opened again": {func(t *testing.T) Upload { return UploadFile(writeTemp(t, "net.xlsx", content)) }, true, 2},
		"UploadReader is read once":  {func(*testing.T) Upload { return UploadReader("net.xlsx", bytes.NewReader(content)) }, false, 1},
	} {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			var got []byte
			hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				if calls.Add(1) == 1 {
					// Refused before a byte is read, as a dial failure is, while
					// the upload's writer may already hold part of the file. A
					// transport closes the body whatever happens.
					r.Body.Close()
					return nil, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
				}
				got = fileOf(t, r)
				return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
					Body: io.NopCloser(bytes.NewReader([]byte(`{"jobId":7}`))), Request: r}, nil
			})}
			c := newTestClient(t, "http://127.0.0.1:1/api/v1", WithHTTPClient(hc), WithRetryPolicy(RetryPolicy{BaseDelay: 1, MaxDelay: 1}))
			job, err := c.Imports.Excel(testCtx(t), 1, "Base", tc.upload(t), nil)
			assert.Equal(t, tc.wantCalls, calls.Load(), "attempts")
			if tc.wantSent {
				require.NoError(t, err)
				assert.EqualValues(t, 7, job.JobID)
				assert.True(t, bytes.Equal(content, got), "the second attempt sent %d bytes of %d", len(got), len(content))
				return
			}
			require.Error(t, err)
			assert.Nil(t, got, "nothing but the whole file is sent")
			assert.True(t, errors.Is(err, syscall.ECONNREFUSED), "the refusal is the error: %v", err)
			assert.ErrorContains(t, err, "UploadReader")
			assert.NotErrorIs(t, err, ErrMayHaveBeenApplied)
		})
	}
}

// fileOf reads the part named file of a multipart request.
func fileOf(t *testing.T, r *http.Request) []byte {
	t.Helper()
	mr, err := r.MultipartReader()
	require.NoError(t, err)
	for {
		p, err := mr.NextPart()
		require.NoError(t, err, "the request has a file part")
		if p.FormName() == "file" {
			b, err := io.ReadAll(p)
			require.NoError(t, err)
			return b
		}
	}
}

// writeTemp writes content to a file named name in the test's directory.
func writeTemp(t *testing.T, name string, content []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, content, 0o600))
	return path
}
