package probe

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// probeSpec is the repository's spec, loaded once for the probe fuzzer.
var probeSpec = sync.OnceValues(func() (*specdoc.Spec, error) { return specdoc.Load("", 0) })

// An answer of a server never panics the probe's check of it against the
// spec, whatever the operation, status and body. The first byte picks the
// operation, the second the status.
func FuzzProbeAnswer(f *testing.F) {
	for _, s := range []string{"\x00\x00[]", "\x01\x00{}", "\x02\x00null", "\x03\x00{\"items\":[{\"id\":\"x\"}],\"total\":-1}",
		"\x04\x01{\"message\":1}", "\x05\x00[[[[[[[[[[]]]]]]]]]]", "\x06\x00{\"a\":" + strings.Repeat("[", 100) + "}", "\x07\x02"} {
		f.Add([]byte(s))
	}
	s, err := probeSpec()
	if err != nil {
		f.Fatal(err)
	}
	statuses := []int{200, 400, 500, 204, 404, 201, 302, 503}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		i := int(data[0]) % len(s.Ops)
		op := s.Ops[i]
		p := newProber(s, Server{}, Limits{MaxCalls: 1, Items: 3})
		req := httptest.NewRequest(op.Method, "http://scm.example"+op.Path, nil)
		a := &answer{req: req, status: statuses[int(data[1])%len(statuses)],
			header: http.Header{"Content-Type": {"application/json"}}, body: data[2:]}
		p.check(call{op: i}, a)
	})
}
