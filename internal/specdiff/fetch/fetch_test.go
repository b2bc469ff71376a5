package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A listing of MaxSize bytes is read whole; one of a byte more, from a URL
// or stdin, is refused with ErrTooLarge naming the limit, never compared
// cut short.
func TestListingOverMaxSizeIsRefused(t *testing.T) {
	const max = 1 << 10
	for size, refused := range map[int]bool{max: false, max + 1: true} {
		body := strings.Repeat("x", size)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(body))
		}))
		t.Cleanup(srv.Close)
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		f := Fetcher{Client: &http.Client{}, Stdin: strings.NewReader(body), MaxSize: max}
		for _, arg := range []string{srv.URL + "/doc.json", "-"} {
			_, data, err := f.Read(ctx, arg)
			switch {
			case !refused && (err != nil || len(data) != size):
				t.Errorf("%s of %d bytes: read %d bytes, %v; want it whole", arg, size, len(data), err)
			case refused && !errors.Is(err, ErrTooLarge):
				t.Errorf("%s of %d bytes: read %d bytes, %v; want ErrTooLarge", arg, size, len(data), err)
			case refused && !strings.Contains(err.Error(), "size limit of 1024 bytes"):
				t.Errorf("%s: %v does not name the limit", arg, err)
			}
		}
	}
}
