package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// TestEmbeddedSpecWorksOutsideTheRepository runs every command from a
// directory that holds no api/openapi.yaml, as an installed binary runs:
// the embedded spec and known omissions serve, and the reports say so.
//
// The listing names every operation of the embedded spec but its known
// omissions, so that the diff is clean with omissions to report whatever
// operations the spec has.
func TestEmbeddedSpecWorksOutsideTheRepository(t *testing.T) {
	embedded, err := specdoc.Load("", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := embedded.LoadOmissions(""); err != nil {
		t.Fatal(err)
	}
	var names strings.Builder
	for _, op := range embedded.Ops {
		if !embedded.Omitted(op.ID) {
			fmt.Fprintln(&names, op.SnakeName)
		}
	}
	listing := filepath.Join(t.TempDir(), "names.txt")
	if err := os.WriteFile(listing, []byte(names.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := fake.NewServer()
	t.Cleanup(srv.Close)
	t.Chdir(t.TempDir())
	tests := map[string]struct {
		args []string
		want string
		code int
	}{
		"diff":     {[]string{listing}, "api/openapi.yaml (embedded) vs " + listing, exitClean},
		"omission": {[]string{listing}, "is not in the listing (a reviewed omission) [api/openapi.yaml:", exitClean},
		"validate": {[]string{"validate"}, fmt.Sprintf("api/openapi.yaml (embedded) vs kin-openapi and spec rules (openapi, %d operations)", len(embedded.Ops)), exitClean},
		"probe":    {[]string{"probe", "-header", "Authorization: " + srv.APIKey, srv.URL}, "api/openapi.yaml (embedded) vs " + srv.URL, exitClean},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, errs := runSpecdiff(t, nil, tc.args...)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d (want %d); output lacks %q:\n%s%s", code, tc.code, tc.want, out, errs)
			}
		})
	}
}

// TestSpecFlagNamesTheFileInEveryMessage checks that -spec replaces the
// embedded spec, that messages name the file, and that an unreadable one
// names the flag.
func TestSpecFlagNamesTheFileInEveryMessage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spec, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	lone := filepath.Join(dir, "lone.yaml") // no known-omissions.yaml beside it
	os.WriteFile(lone, spec, 0o600)
	absent := filepath.Join(dir, "absent.yaml")
	tests := map[string]struct {
		args []string
		want string
		code int
	}{
		"title":         {[]string{"validate", "-spec", lone}, lone + " vs kin-openapi", exitClean},
		"unreadable":    {[]string{"-spec", absent, "x"}, "specdiff: -spec: open " + absent, exitError},
		"probe":         {[]string{"probe", "-spec", absent, "http://127.0.0.1:1/api/v1"}, "specdiff: -spec: open " + absent, exitError},
		"validate":      {[]string{"validate", "-spec", absent}, "specdiff: -spec: open " + absent, exitError},
		"omissions":     {[]string{"-spec", lone, "testdata/listings/names.txt"}, "known omissions of " + lone + ": open " + filepath.Join(dir, "known-omissions.yaml"), exitError},
		"omissions set": {[]string{"-spec", lone, "-omissions", absent, "testdata/listings/names.txt"}, "specdiff: -omissions: open " + absent, exitError},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := runSpecdiff(t, nil, tc.args...)
			if code != tc.code || !strings.Contains(out+errs, tc.want) {
				t.Errorf("exit %d (want %d); output lacks %q:\n%s%s", code, tc.code, tc.want, out, errs)
			}
		})
	}
}

// TestProbeInputFlagNamesABadInput checks -input: NAME=VALUE, and a name
// some read-only operation takes (newType is copyScenario's only).
func TestProbeInputFlagNamesABadInput(t *testing.T) {
	t.Parallel()
	for args, want := range map[string]string{
		"-input jobId":         "want NAME=VALUE",
		"-input noSuchInput=1": "-input noSuchInput=1: no read-only operation of api/openapi.yaml (embedded) takes noSuchInput",
		"-input newType=GFA":   "-input newType=GFA: no read-only operation",
	} {
		code, _, errs := runSpecdiff(t, nil, append([]string{"probe"}, append(strings.Fields(args), "http://127.0.0.1:1/api/v1")...)...)
		if code != exitError || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q; want %q", args, code, errs, want)
		}
	}
}
