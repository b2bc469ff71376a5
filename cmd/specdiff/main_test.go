package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/report"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const specPath = "../../api/openapi.yaml"

// referenceSpec is a copy of api/openapi.yaml with the reference's
// operations, from which the listings of testdata were made: the tests of
// listings compare with it, so that their findings and goldens do not follow
// every change of api/openapi.yaml (an operation added to it is missing from
// every listing). Tests of the spec itself, and of the probe against the
// fake, which serves what the spec says now, use specPath.
const referenceSpec = "testdata/reference/openapi.yaml"

// modelsSpec is a small spec of its own for the schema-level diff, so that
// its goldens do not follow every change of api/openapi.yaml.
const modelsSpec = "testdata/specs/models.yaml"

// runSpecdiff runs the command in process and returns its exit code and
// output.
func runSpecdiff(t *testing.T, stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	code = run(ctx, args, stdin, &out, &errb)
	if ctx.Err() != nil {
		t.Errorf("specdiff %s did not end within a minute", strings.Join(args, " "))
	}
	return code, out.String(), errb.String()
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	top, _, _ := strings.Cut(t.Name(), "/")
	rewrite := "go test ./cmd/specdiff -run '^" + top + "$' -update"
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (%s creates it)", err, rewrite)
	}
	if got != string(want) {
		t.Errorf("output differs from %s; if the change is meant, %s rewrites it. The output:\n%s", path, rewrite, got)
	}
}

func TestGoldenListings(t *testing.T) {
	listings := map[string]struct {
		spec, file string
		exit       int
	}{
		"snake-omissions-markdown": {referenceSpec, "snake-omissions.md", exitClean},
		"camel-drift-plain":        {referenceSpec, "camel-drift.txt", exitDrift},
		"drift-openapi-yaml":       {referenceSpec, "drift-openapi.yaml", exitDrift},
		"swagger-json":             {referenceSpec, "swagger.json", exitClean},
		"models-drift-openapi":     {modelsSpec, "models-drift.yaml", exitDrift},
	}
	for name, l := range listings {
		for _, mode := range []string{"text", "json", "markdown", "github"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				code, out, errs := runSpecdiff(t, nil, "-spec", l.spec, "-o", mode, "testdata/listings/"+l.file)
				if code != l.exit {
					t.Errorf("exit %d, want %d; stderr: %s", code, l.exit, errs)
				}
				golden(t, name+"."+mode, out)
			})
		}
	}
}

func TestGoldenCommands(t *testing.T) {
	tests := map[string]struct {
		args []string
		exit int
	}{
		"facade-complete.text": {[]string{"facade", "-spec", referenceSpec, "-dir", "testdata/facade/complete"}, exitClean},
		"facade-drift.text":    {[]string{"facade", "-spec", referenceSpec, "-dir", "testdata/facade/drift"}, exitDrift},
		"facade-drift.json":    {[]string{"facade", "-spec", referenceSpec, "-dir", "testdata/facade/drift", "-o", "json"}, exitDrift},
		"facade-drift.github":  {[]string{"facade", "-spec", referenceSpec, "-dir", "testdata/facade/drift", "-o", "github"}, exitDrift},
		"validate.text":        {[]string{"validate", "-spec", referenceSpec}, exitClean},
		"validate-bad.text":    {[]string{"validate", "-spec", "testdata/specs/bad.yaml"}, exitDrift},
		"validate-bad.json":    {[]string{"validate", "-spec", "testdata/specs/bad.yaml", "-o", "json"}, exitDrift},
		"two-listings.text":    {[]string{"-spec", referenceSpec, "testdata/listings/swagger.json", "testdata/listings/camel-drift.txt"}, exitDrift},
		"forced-plain.text":    {[]string{"-spec", referenceSpec, "-format", "plain", "testdata/listings/names.txt"}, exitClean},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runSpecdiff(t, nil, tc.args...)
			if code != tc.exit {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.exit, errs)
			}
			golden(t, name, out)
		})
	}
}

func TestListingFromStdin(t *testing.T) {
	listing, err := os.ReadFile("testdata/listings/camel-drift.txt")
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := runSpecdiff(t, bytes.NewReader(listing), "-spec", referenceSpec, "-")
	if code != exitDrift || !strings.Contains(out, "vs stdin (plain, 80 operations)") {
		t.Errorf("exit %d, output:\n%s", code, out)
	}
}

func TestListingFromURLSendsHeadersAndNeverPrintsThem(t *testing.T) {
	const secret = "s3cr3t-key"
	listing, err := os.ReadFile("testdata/listings/swagger.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secret || r.Header.Get("X-Tenant") != "acme" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		w.Write(listing)
	}))
	t.Cleanup(srv.Close)
	url := strings.Replace(srv.URL, "://", "://user:pw-"+secret+"@", 1) + "/api/v1/openapi.json?token=" + secret
	tests := map[string]struct {
		headers []string
		exit    int
	}{
		"authorised":   {[]string{"-header", "Authorization: Bearer " + secret, "-header", "X-Tenant: acme"}, exitClean},
		"unauthorised": {[]string{"-header", "Authorization: Bearer wrong-" + secret}, exitError},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			args := append(append([]string{"-spec", referenceSpec}, tc.headers...), url)
			for _, mode := range []string{"text", "json", "github"} {
				code, out, errs := runSpecdiff(t, nil, append([]string{"-o", mode}, args...)...)
				if code != tc.exit {
					t.Errorf("-o %s: exit %d, want %d; stderr %s", mode, code, tc.exit, errs)
				}
				if strings.Contains(out+errs, secret) {
					t.Errorf("-o %s: output shows a credential:\n%s%s", mode, out, errs)
				}
			}
		})
	}
}

func TestBadInputExitsTwoNamingFileAndLine(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badOmissions := filepath.Join(dir, "omissions.yaml")
	os.WriteFile(badOmissions, []byte("omissions:\n  - closeProject\n  - noSuchOperation\n"), 0o600)
	tests := map[string]struct {
		args []string
		want string // in stderr
	}{
		"no listing":           {nil, "no listing given"},
		"unknown flag":         {[]string{"-nope", "x"}, "flag provided but not defined"},
		"unknown output":       {[]string{"-o", "xml", "x"}, `-o "xml"`},
		"unknown format":       {[]string{"-format", "csv", write("a.txt", "closeProject\n")}, `unknown format "csv"`},
		"absent listing":       {[]string{filepath.Join(dir, "absent.txt")}, "absent.txt"},
		"absent spec":          {[]string{"-spec", filepath.Join(dir, "absent.yaml"), "x"}, "absent.yaml"},
		"plain: bad method":    {[]string{write("b.txt", "# c\n\nopenProject FETCH /open/project/open\n")}, "b.txt:3: \"FETCH\" is not an HTTP method"},
		"plain: two fields":    {[]string{write("c.txt", "closeProject\nopenProject GET\n")}, "c.txt:2: want NAME or NAME METHOD PATH"},
		"markdown: bad name":   {[]string{write("d.md", "| Operation | HTTP request |\n|---|---|\n| closeProject | GET /open/project/close |\n| not a name | GET /x |\n")}, "d.md:4:"},
		"markdown: no table":   {[]string{"-format", "markdown", write("e.md", "# Title\n\ntext\n")}, "e.md:1: no operation table"},
		"openapi: bad yaml":    {[]string{write("f.yaml", "openapi: 3.0.3\npaths:\n  /a: [x\n")}, "f.yaml:"},
		"openapi: version":     {[]string{write("g.yaml", "openapi: 2.0.0\n")}, "g.yaml:1: openapi version"},
		"omission not in spec": {[]string{"-omissions", badOmissions, write("h.txt", "closeProject\n")}, "omissions.yaml:3: \"noSuchOperation\""},
		"facade: no files":     {[]string{"facade", "-spec", specPath, "-dir", dir + "/none"}, "no Go files"},
		"validate: no spec":    {[]string{"validate", "-spec", filepath.Join(dir, "absent.yaml")}, "absent.yaml"},
		"empty listing":        {[]string{write("i.txt", "# nothing listed\n\n")}, "i.txt:1: no operations found"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := tc.args
			if len(args) == 0 || (args[0] != "facade" && args[0] != "validate" && args[0] != "-spec") {
				args = append([]string{"-spec", specPath}, args...)
			}
			code, _, errs := runSpecdiff(t, nil, args...)
			if code != exitError {
				t.Errorf("exit %d, want %d", code, exitError)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q does not contain %q", errs, tc.want)
			}
		})
	}
}

func TestHelpDocumentsFormatsKindsOutputsAndExitCodes(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"facade", "-h"}, {"validate", "-help"}, {"probe", "-h"}} {
		code, out, _ := runSpecdiff(t, nil, args...)
		if code != exitClean {
			t.Errorf("%v: exit %d, want 0", args, code)
		}
		want := []string{"openapi", "markdown", "plain", "Swagger 2.0", "text", "json", "github", "Exit status", "-header", "known-omissions.yaml",
			"-ca-cert", "-insecure-skip-verify", "-max-calls", "-timeout", "-items", "-input", "/v3/api-docs", "x-changes-state: false", "-spec FILE", "(embedded)"}
		for _, k := range report.Kinds() {
			want = append(want, k.Name)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: help lacks %q", args, w)
			}
		}
	}
}
