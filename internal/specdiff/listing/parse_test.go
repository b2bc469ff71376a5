package listing

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// fixtures is the directory of the listings and specs specdiff's tests
// read: the command's, whose golden files show what it prints of them.
const fixtures = "../../../cmd/specdiff/testdata"

func TestDetectFormat(t *testing.T) {
	tests := map[string]string{
		`{"openapi": "3.0.3"}`:                   FormatOpenAPI,
		"\xef\xbb\xbf  {\"swagger\": \"2.0\"}":   FormatOpenAPI,
		"# doc\nopenapi: 3.1.0\ninfo: {}\n":      FormatOpenAPI,
		"'swagger': '2.0'\n":                     FormatOpenAPI,
		"Class | Method\n--- | ---\nA | b\n":     FormatMarkdown,
		"| Operation | Path |\n|:---|---:|\n":    FormatMarkdown,
		"closeProject\nopen_project GET /x\n":    FormatPlain,
		"# openapi: not a key, a comment\nfoo\n": FormatPlain,
		"":                                       FormatPlain,
	}
	for text, want := range tests {
		if got := DetectFormat([]byte(text)); got != want {
			t.Errorf("DetectFormat(%q) = %s, want %s", text, got, want)
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
		if got := NormalizePath(in); got != want {
			t.Errorf("NormalizePath(%q) = %q, want %q", in, got, want)
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

// seed adds the fixtures named to the fuzzer's corpus.
func seed(f *testing.F, files ...string) {
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzParsePlain(f *testing.F) {
	seed(f, "listings/camel-drift.txt", "listings/names.txt")
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
	seed(f, "listings/snake-omissions.md")
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
	seed(f, "specs/bad.yaml")
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

// swaggerSeeds are small Swagger 2.0 documents, well formed or not; nulls
// where a value belongs made the converter panic.
var swaggerSeeds = []string{
	"swagger: '2.0'\npaths: {/a: null}\n",
	"swagger: '2.0'\npaths: {/a: {get: null}}\n",
	"swagger: '2.0'\npaths: {/a: {get: {responses: {200: null}}}}\n",
	"swagger: '2.0'\npaths: {/a: {get: {parameters: [null], responses: {200: {description: x}}}}}\n",
	"swagger: '2.0'\nparameters: {p: null}\nresponses: {r: null}\ndefinitions: {A: null}\npaths: {}\n",
	"swagger: '2.0'\nbasePath: /api/v1\npaths: {/a: {get: {operationId: a, responses: {200: {description: x, schema: {$ref: '#/definitions/A'}}}}}}\ndefinitions: {A: {type: object, properties: {x: {type: string, default: null}}}}\n",
	`{"swagger":"2.0","paths":{"/a":{"parameters":[{"$ref":"#/parameters/p"}],"get":{"responses":{"default":{"description":"d"}}}}},"parameters":{"p":{"in":"query","name":"p","type":"string"}}}`,
	"swagger: '2.0'\npaths: {/a: {get: {responses: {200: {description: x, schema: {$ref: '#/definitions/missing'}}}}}}\n",
}

// A Swagger 2.0 document, converted to OpenAPI 3 before it is read, never
// panics the reader: a malformed one is an error naming the source.
func FuzzParseSwagger(f *testing.F) {
	seed(f, "listings/swagger.json")
	for _, s := range swaggerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l := &Listing{Source: "fuzz.txt"}
		err := parseOpenAPI(l, data)
		checkParseError(t, data, err, false)
	})
}

// A Swagger 2.0 listing with a null where a value belongs (a path item, an
// operation, a response, a parameter), as a server may answer it, is an
// error naming the line and the null, never a panic; and reading it holds
// little memory.
func TestHostileSwaggerWithNulls(t *testing.T) {
	const source = "https://scm.example/swagger.yaml"
	for _, doc := range swaggerSeeds[:5] {
		t.Run(strings.SplitN(doc, "\n", 2)[1], func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			l, err := Parse(source, "", []byte(doc), FormatAuto)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatalf("no error; the listing: %+v", l)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, source+":2: ") || !strings.Contains(msg, "is null: want a value") {
				t.Errorf("the error does not name the line and the null: %s", msg)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
				t.Errorf("reading a %d-byte listing allocated %d bytes", len(doc), alloc)
			}
		})
	}
}
