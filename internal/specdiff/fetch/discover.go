package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/scmodel/scmgo/internal/specdiff/listing"
)

// docLocations are where Java servers publish their OpenAPI document:
// springdoc (/v3/api-docs, JSON and YAML), springfox (/v2/api-docs) and the
// usual static files. Each is tried under the server root, then under the
// base path.
var docLocations = []string{"/v3/api-docs", "/v3/api-docs.yaml", "/v2/api-docs", "/openapi.json", "/swagger.json"}

// ErrNoDocument: none of the places a server's document is looked for
// answered one. The error that wraps it lists where it looked.
var ErrNoDocument = errors.New("no OpenAPI document found")

// isServerURL tells a server's base URL (https://host/api/v1), whose
// document specdiff looks for, from the URL of a document or listing: one
// whose last path segment has an extension, or that names an api-docs
// location (springdoc groups included: /v3/api-docs/public).
func isServerURL(u *url.URL) bool {
	p := strings.TrimRight(u.Path, "/")
	if strings.Contains(p, "/api-docs") {
		return false
	}
	return !strings.Contains(p[strings.LastIndex(p, "/")+1:], ".")
}

// docCandidates lists the URLs tried for the document of the server at
// base, root locations first.
func docCandidates(base *url.URL) []*url.URL {
	prefixes := []string{""}
	if p := strings.TrimRight(base.Path, "/"); p != "" {
		prefixes = append(prefixes, p)
	}
	var out []*url.URL
	for _, prefix := range prefixes {
		for _, loc := range docLocations {
			u := *base
			u.Path, u.RawPath, u.RawQuery, u.Fragment = prefix+loc, "", "", ""
			out = append(out, &u)
		}
	}
	return out
}

// discover finds the OpenAPI document of the server at base: the first
// candidate that answers 2xx with an OpenAPI or Swagger document. When none
// does, the error lists every URL tried with its answer.
func (f Fetcher) discover(ctx context.Context, base *url.URL) (Source, []byte, error) {
	var tried []string
	for _, u := range docCandidates(base) {
		name := RedactedURL(u)
		status, data, err := f.get(ctx, u)
		switch {
		case err != nil:
			// A refused connection or a certificate error is the same at
			// every location: say it once.
			return Source{Name: name}, nil, fmt.Errorf("looking for the OpenAPI document of %s: GET %s: %w", RedactedURL(base), name, TLSHint(err))
		case status/100 != 2:
			tried = append(tried, fmt.Sprintf("  %s: %s", name, StatusText(status)))
		case listing.DetectFormat(data) != listing.FormatOpenAPI:
			tried = append(tried, fmt.Sprintf("  %s: %s, not an OpenAPI document", name, StatusText(status)))
		default:
			return Source{Name: name, Note: fmt.Sprintf("using the server's OpenAPI document at %s", name), Format: listing.FormatOpenAPI}, data, nil
		}
	}
	return Source{Name: RedactedURL(base)}, nil, fmt.Errorf("%w for %s; tried:\n%s\nname the document's URL instead if the server publishes it elsewhere",
		ErrNoDocument, RedactedURL(base), strings.Join(tried, "\n"))
}
