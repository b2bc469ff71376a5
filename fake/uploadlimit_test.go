package fake_test

import (
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/scmodel/scmgo/fake"
)

// endlessFile yields up to left bytes of a file part, generated on the fly,
// counting what was taken from it.
type endlessFile struct {
	left  int64
	taken atomic.Int64
}

func (f *endlessFile) Read(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), f.left))
	for i := range p[:n] {
		p[i] = 'x'
	}
	f.left -= int64(n)
	f.taken.Add(int64(n))
	return n, nil
}

// streamedUpload is an importExcel body whose file part is file, written
// through a pipe as the client sends it: it is never held in memory.
func streamedUpload(file io.Reader) (string, io.ReadCloser) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := mw.WriteField("projectId", "1")
		if err == nil {
			err = mw.WriteField("newScenarioName", "Huge")
		}
		var fw io.Writer
		if err == nil {
			fw, err = mw.CreateFormFile("file", "huge.xlsx")
		}
		if err == nil {
			_, err = io.Copy(fw, file)
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	return mw.FormDataContentType(), pr
}

// An upload past the limit is refused with 413 as soon as it passes it:
// the client has its answer while most of the body is still unsent, whether
// the body declares its length (refused before any of it is read) or not
// (refused once the limit is read).
func TestUploadOverTheLimitIsRefusedEarly(t *testing.T) {
	const limit, body, buffers = 32 << 20, 1 << 30, 16 << 20 // buffers: what sockets hold on the way
	for name, declared := range map[string]bool{"length declared": true, "length unknown": false} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := fake.NewServer(fake.WithMaxUpload(limit))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			file := &endlessFile{left: body}
			ct, pr := streamedUpload(file)
			defer pr.Close()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/open/import/import-excel", pr)
			require.NoError(t, err)
			if declared {
				req.ContentLength = body + 1000
			}
			req.Header.Set("Content-Type", ct)
			req.Header.Set("Authorization", srv.APIKey)
			resp, err := srv.Client().Do(req)
			require.NoError(t, err, "the client got no answer")
			defer resp.Body.Close()
			sent := file.taken.Load()
			assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
			b, _ := io.ReadAll(resp.Body)
			assert.Contains(t, string(b), "importExcel: request body: larger than the server's limit of 32 MiB")
			if declared {
				assert.Less(t, sent, int64(buffers), "the client sent %d MiB of a body refused by its length", sent>>20)
			} else {
				assert.Less(t, sent, int64(limit+buffers), "the client sent %d MiB before the answer", sent>>20)
			}
			assert.Zero(t, srv.Applied("importExcel"))
		})
	}
}

// JSON bodies are bounded by MaxJSONBody.
func TestJSONBodyOverTheLimit(t *testing.T) {
	t.Parallel()
	e := setup(t)
	body := `{"jobId": 4001, "pad": "` + strings.Repeat("x", fake.MaxJSONBody) + `"}`
	resp, apiErr := e.raw(t, http.MethodPost, "/open/import/import-cancel", nil, strings.NewReader(body), http.Header{"Content-Type": {"application/json"}})
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.Contains(t, *apiErr.Message, "importCancel: request body: larger than the server's limit of 16 MiB")
}
