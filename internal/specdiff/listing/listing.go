package listing

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/scmodel/scmgo/internal/specdiff/oas"
)

// Listing is a published list of operations.
type Listing struct {
	Source  string // file name, "stdin" or the URL without credentials
	File    string // file name for annotations; empty for stdin and URLs
	Format  string // plain, markdown, openapi-3.x or swagger-2.0
	Entries []Entry
	Doc     *openapi3.T // the document of an OpenAPI listing, nil for the others
}

// Entry is one operation of a listing.
type Entry struct {
	Name    string // as the listing spells it; empty when an OpenAPI operation has no operationId
	Method  string // upper case; empty when the listing gives none
	Path    string // normalised by NormalizePath; empty when the listing gives none
	Line    int
	Details *oas.Details        // nil except for OpenAPI listings
	Op      *openapi3.Operation // the operation of an OpenAPI listing, for the schema diff
}

// The listing formats, as -format names them.
const (
	FormatAuto     = "auto"
	FormatOpenAPI  = "openapi"
	FormatMarkdown = "markdown"
	FormatPlain    = "plain"
)

var (
	openAPIKey   = regexp.MustCompile(`(?m)^["']?(openapi|swagger)["']?\s*:`)
	tableDivider = regexp.MustCompile(`(?m)^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$`)
	utf8BOM      = []byte("\xef\xbb\xbf")
)

// DetectFormat names the format of a listing from its content: a JSON
// object or a YAML document with an openapi or swagger key is OpenAPI, text
// with a Markdown table divider is Markdown, anything else a plain list.
func DetectFormat(data []byte) string {
	text := bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	switch {
	case bytes.HasPrefix(text, []byte("{")), openAPIKey.Match(text):
		return FormatOpenAPI
	case tableDivider.Match(text):
		return FormatMarkdown
	}
	return FormatPlain
}

// Parse parses data in the given format (or the detected one, for
// [FormatAuto]). name is the source as reports and errors name it, file
// the file findings point at ("" for stdin and URLs). An error names the
// source and the line.
func Parse(name, file string, data []byte, format string) (*Listing, error) {
	if format == FormatAuto {
		format = DetectFormat(data)
	}
	l := &Listing{Source: name, File: file, Format: format}
	var err error
	switch format {
	case FormatPlain:
		l.Entries, err = parsePlain(name, data)
	case FormatMarkdown:
		l.Entries, err = parseMarkdown(name, data)
	case FormatOpenAPI:
		err = parseOpenAPI(l, data)
	default:
		err = fmt.Errorf("unknown format %q (want auto, openapi, markdown or plain)", format)
	}
	if err == nil && len(l.Entries) == 0 {
		// An empty download or the wrong file would otherwise read as
		// every operation missing.
		err = lineError(name, 1, "no operations found (format %s)", l.Format)
	}
	return l, err
}

// lineError is a parse error at a line of a listing.
func lineError(src string, line int, format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", src, line, fmt.Sprintf(format, args...))
}

var httpMethods = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// operationName matches a name in either style: camelCase, snake_case, or
// anything a generator may print that is a single identifier.
var operationName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// IsOperationName reports whether s can name an operation in either style:
// a single identifier (closeProject, close_project).
func IsOperationName(s string) bool { return operationName.MatchString(s) }

// NormalizePath reduces a listing path to the form of the spec's paths:
// no scheme and host, no query, no prefix up to and including /api/v1, no
// trailing slash.
func NormalizePath(p string) string {
	if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
		if j := strings.Index(p, "/"); j >= 0 {
			p = p[j:]
		} else {
			p = "/"
		}
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	const version = "/api/v1"
	if i := strings.Index(p, version); i >= 0 && (len(p) == i+len(version) || p[i+len(version)] == '/') {
		p = p[i+len(version):]
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	if len(p) > 1 {
		p = strings.TrimRight(p, "/")
	}
	if p == "" {
		p = "/"
	}
	return p
}

// parseRoute reads "METHOD PATH" fields of a listing line.
func parseRoute(src string, line int, method, path string) (string, string, error) {
	m := strings.ToUpper(method)
	if !slices.Contains(httpMethods, m) {
		return "", "", lineError(src, line, "%q is not an HTTP method", method)
	}
	if !strings.HasPrefix(path, "/") && !strings.HasPrefix(path, "http://") && !strings.HasPrefix(path, "https://") {
		return "", "", lineError(src, line, "path %q does not start with / or http(s)://", path)
	}
	return m, NormalizePath(path), nil
}
