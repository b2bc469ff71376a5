package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// document is a small OpenAPI document a server publishes.
const document = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n"

// documentServer publishes the document at the given paths (and an HTML
// page at the html paths) to callers that send the key; it answers 404
// elsewhere. It returns the base URL, ending in /api/v1.
func documentServer(t *testing.T, at, html []string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Authorization") != "Bearer key":
			http.Error(w, "no key", http.StatusUnauthorized)
		case slices.Contains(at, r.URL.Path):
			w.Write([]byte(document))
		case slices.Contains(html, r.URL.Path):
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!doctype html><title>app</title>"))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/api/v1"
}

// read reads arg with the key, within 10 seconds.
func read(t *testing.T, arg string) (Source, []byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	f := Fetcher{Headers: http.Header{"Authorization": {"Bearer key"}}, Client: &http.Client{}}
	return f.Read(ctx, arg)
}

func TestServerDocumentIsFoundWhereJavaServersPublishIt(t *testing.T) {
	for _, prefix := range []string{"", "/api/v1"} {
		for _, loc := range docLocations {
			t.Run(prefix+loc, func(t *testing.T) {
				t.Parallel()
				// An HTML page at an earlier location is passed over.
				base := documentServer(t, []string{prefix + loc}, []string{"/v3/api-docs"})
				src, data, err := read(t, base)
				if err != nil {
					t.Fatal(err)
				}
				want := strings.TrimSuffix(base, "/api/v1") + prefix + loc
				if src.Name != want || src.Note != "using the server's OpenAPI document at "+want || src.Format != "openapi" {
					t.Errorf("source %+v, want the document at %s", src, want)
				}
				if string(data) != document {
					t.Errorf("read %q, want the document", data)
				}
			})
		}
	}
}

func TestServerWithoutDocumentListsWhereItLooked(t *testing.T) {
	base := documentServer(t, nil, []string{"/openapi.json"})
	_, _, err := read(t, base)
	if err == nil || !strings.Contains(err.Error(), "no OpenAPI document found for "+base) {
		t.Fatalf("error %v does not say what was not found", err)
	}
	if !errors.Is(err, ErrNoDocument) {
		t.Errorf("error %v is not ErrNoDocument: callers cannot tell a server without a document from a failure", err)
	}
	root := strings.TrimSuffix(base, "/api/v1")
	for _, prefix := range []string{root, base} {
		for _, loc := range docLocations {
			answer := "404 Not Found"
			if prefix == root && loc == "/openapi.json" {
				answer = "200 OK, not an OpenAPI document"
			}
			if line := prefix + loc + ": " + answer + "\n"; !strings.Contains(err.Error(), line) {
				t.Errorf("the error lacks %q:\n%s", line, err)
			}
		}
	}
}

func TestDocumentURLsAreFetchedAsGiven(t *testing.T) {
	tests := map[string]bool{
		"https://h/api/v1":                   true,
		"https://h/api/v1/":                  true,
		"https://h":                          true,
		"https://h/api/v1/openapi.json":      false,
		"https://h/v3/api-docs":              false,
		"https://h/v3/api-docs/public":       false,
		"https://h/docs/listing.md":          false,
		"https://h/api/v1?token=x":           true,
		"https://h/prefix/v2/api-docs?g=all": false,
	}
	for raw, server := range tests {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := isServerURL(u); got != server {
			t.Errorf("isServerURL(%s) = %v, want %v", raw, got, server)
		}
	}
}
