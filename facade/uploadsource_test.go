package facade

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingSource yields some bytes of a workbook, then fails.
type failingSource struct {
	head io.Reader
	err  error
}

func (s *failingSource) Read(p []byte) (int, error) {
	if n, _ := s.head.Read(p); n > 0 {
		return n, nil
	}
	return 0, s.err
}

// A failure reading the caller's upload is the caller's: the request never
// went out whole, so it is not reported as possibly applied; the error
// wraps the source's and reads on one line.
func TestUploadSourceFailureIsNotApplied(t *testing.T) {
	diskGone := errors.New("disk gone")
	_, c := newStub(t, func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		fmt.Fprint(w, `{"jobId":9}`)
	})
	src := &failingSource{head: strings.NewReader(strings.Repeat("x", 100<<10)), err: diskGone}
	job, err := c.Imports.Excel(testCtx(t), 1, "new", UploadReader("in.xlsx", src), nil)
	require.Error(t, err)
	assert.Nil(t, job)
	assert.ErrorIs(t, err, diskGone)
	assert.False(t, errors.Is(err, ErrMayHaveBeenApplied), "%v", err)
	var reqErr *RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.False(t, reqErr.MayHaveBeenApplied)
	assert.NotContains(t, err.Error(), "\n")
	assert.Contains(t, err.Error(), "reading the upload: disk gone")
}
