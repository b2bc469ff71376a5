package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestDetectFormat(t *testing.T) {
	tests := map[string]string{
		`{"openapi": "3.0.3"}`:                   formatOpenAPI,
		"\xef\xbb\xbf  {\"swagger\": \"2.0\"}":   formatOpenAPI,
		"# doc\nopenapi: 3.1.0\ninfo: {}\n":      formatOpenAPI,
		"'swagger': '2.0'\n":                     formatOpenAPI,
		"Class | Method\n--- | ---\nA | b\n":     formatMarkdown,
		"| Operation | Path |\n|:---|---:|\n":    formatMarkdown,
		"closeProject\nopen_project GET /x\n":    formatPlain,
		"# openapi: not a key, a comment\nfoo\n": formatPlain,
		"":                                       formatPlain,
	}
	for text, want := range tests {
		if got := detectFormat([]byte(text)); got != want {
			t.Errorf("detectFormat(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestNormalizePath(t *testing.T) {
	tests := map[string]string{
		"/open/project/close":                               "/open/project/close",
		"/api/v1/open/project/close":                        "/open/project/close",
		"/scm/api/v1/open/project/close/":                   "/open/project/close",
		"https://scm.example.com:8443/api/v1/open/user?x=1": "/open/user",
		"http://host":                                       "/",
		"/api/v10/open":                                     "/api/v10/open",
		"open/user":                                         "/open/user",
	}
	for in, want := range tests {
		if got := normalizePath(in); got != want {
			t.Errorf("normalizePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseMarkdownReadsGeneratorTables(t *testing.T) {
	text := "# Client\n\n" +
		"Class | Method | HTTP request | Description\n" +
		"------------ | ------------- | ------------- | -------------\n" +
		"*DefaultApi* | [**close_project**](docs/DefaultApi.md#close_project) | **GET** /open/project/close | Close\n" +
		"*DefaultApi* | [**get\\_projects**](docs/DefaultApi.md) | **Get** /api/v1/open/project/list | List \\| all\n" +
		"\n| Name | Type |\n|---|---|\n| projectId | int |\n\n" +
		"| Operation | Method and path | Inputs |\n|---|---|---|\n| `openProject` | `GET /open/project/open` | projectId |\n| translate() | | |\n"
	entries, err := parseMarkdown("README.md", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, fmt.Sprintf("%d %s %s %s", e.Line, e.Name, e.Method, e.Path))
	}
	want := []string{
		"5 close_project GET /open/project/close",
		"6 get_projects GET /open/project/list",
		"14 openProject GET /open/project/open",
		"15 translate  ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParsePlainReadsNamesRoutesAndComments(t *testing.T) {
	text := "# header\n\ncloseProject   # trailing comment\n  open_project  get  https://h/api/v1/open/project/open \n"
	entries, err := parsePlain("list.txt", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 || entries[0] != (Entry{Name: "closeProject", Line: 3}) ||
		entries[1] != (Entry{Name: "open_project", Method: "GET", Path: "/open/project/open", Line: 4}) {
		t.Errorf("entries = %+v", entries)
	}
}

// parseErrorLine matches the "source:line: message" form of parse errors.
var parseErrorLine = regexp.MustCompile(`^fuzz\.txt:(\d+): `)

// checkParseError asserts that a parse error names the source and a line
// of the input (or the line just past it).
func checkParseError(t *testing.T, data []byte, err error, needLine bool) {
	t.Helper()
	if err == nil {
		return
	}
	if !strings.HasPrefix(err.Error(), "fuzz.txt") {
		t.Fatalf("error %q does not name the source", err)
	}
	m := parseErrorLine.FindStringSubmatch(err.Error())
	if m == nil {
		if needLine {
			t.Fatalf("error %q does not name a line", err)
		}
		return
	}
	n, _ := strconv.Atoi(m[1])
	if lines := lineCount(data); n < 1 || n > lines+1 {
		t.Fatalf("error %q names line %d of a %d-line input", err, n, lines)
	}
}

// lineCount counts the lines of data as YAML does: \n, \r\n and a lone
// \r each end one.
func lineCount(data []byte) int {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	return strings.Count(s, "\n") + strings.Count(s, "\r") + 1
}

func seed(f *testing.F, files ...string) {
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzParsePlain(f *testing.F) {
	seed(f, "testdata/listings/camel-drift.txt", "testdata/listings/names.txt")
	for _, s := range []string{"", "#", "a b", "a GET", "x GET /y z", "1abc", "a FETCH /x", "a GET x", "\xef\xbb\xbfa\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parsePlain("fuzz.txt", data)
		checkParseError(t, data, err, true)
		for _, e := range entries {
			if !operationName.MatchString(e.Name) || (e.Method != "" && !strings.HasPrefix(e.Path, "/")) {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}

func FuzzParseMarkdown(f *testing.F) {
	seed(f, "testdata/listings/snake-omissions.md")
	for _, s := range []string{"", "a|b\n---|---\n", "| Operation |\n|---|\n| x |\n| y z |\n", "Method | HTTP request\n--- | ---\nx | GET\n",
		"Operation|Request\n---|---\n\\|x|GET /a\\|\n", "| Name |\n|---|\n|a|\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := parseMarkdown("fuzz.txt", data)
		checkParseError(t, data, err, true)
		for _, e := range entries {
			if !operationName.MatchString(e.Name) {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}

func FuzzParseOpenAPI(f *testing.F) {
	seed(f, "testdata/specs/bad.yaml")
	for _, s := range []string{"", "{", "openapi: 3.0.3\n", "swagger: '2.0'\npaths: {/a: {get: {responses: {200: {description: x}}}}}\n",
		`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"post":{"operationId":"x","responses":{"default":{"description":"d"}}}}}}`,
		"openapi: 4.0\n", "- a\n", "openapi: [\n", "swagger: 2.0\nbasePath: /api/v1\npaths: []\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l := &Listing{Source: "fuzz.txt"}
		err := parseOpenAPI(l, data)
		checkParseError(t, data, err, false)
		for _, e := range l.Entries {
			if e.Details == nil || !strings.HasPrefix(e.Path, "/") {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}
