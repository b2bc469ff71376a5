package fake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/scmodel/scmgo/api"
	"github.com/scmodel/scmgo/gen"
)

// apiDocsPath is where springdoc serves a Java server's OpenAPI document as
// JSON; the YAML is at apiDocsPath + ".yaml".
const apiDocsPath = "/v3/api-docs"

// apiDocsJSON is the embedded spec as JSON, made once.
var apiDocsJSON = sync.OnceValues(func() ([]byte, error) {
	doc, err := api.Load()
	if err != nil {
		return nil, err
	}
	return json.Marshal(doc)
})

// withAPIDocs serves the spec at apiDocsPath (JSON) and apiDocsPath.yaml
// (the YAML as written) to GET and HEAD without a key, and passes every
// other request to h.
func withAPIDocs(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		get := r.Method == http.MethodGet || r.Method == http.MethodHead
		switch {
		case get && r.URL.Path == apiDocsPath:
			data, err := apiDocsJSON()
			if err != nil {
				http.Error(w, "fake: the embedded spec: "+err.Error(), http.StatusInternalServerError)
				return
			}
			serveDoc(w, "application/json", data)
		case get && r.URL.Path == apiDocsPath+".yaml":
			serveDoc(w, "application/yaml", api.Spec)
		default:
			h.ServeHTTP(w, r)
		}
	})
}

func serveDoc(w http.ResponseWriter, mediaType string, data []byte) {
	w.Header().Set("Content-Type", mediaType)
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.Write(data)
}

// logRequests writes a line per request to out once it is answered: the
// operation (or method and path), the status and the duration.
func logRequests(h http.Handler, out io.Writer) http.Handler {
	ops := map[string]string{}
	for _, op := range gen.Operations() {
		ops[op.Method+" "+BasePath+op.Path] = op.ID
	}
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		name, ok := ops[r.Method+" "+r.URL.Path]
		if !ok {
			name = r.Method + " " + r.URL.Path
		}
		line := fmt.Sprintf("%s %d %s\n", name, sw.status, shortDuration(time.Since(start)))
		mu.Lock()
		defer mu.Unlock()
		io.WriteString(out, line)
	})
}

// shortDuration rounds d to about three significant digits: 1.2ms, 345µs,
// 2.35s.
func shortDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d >= time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d
}
