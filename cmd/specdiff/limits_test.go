package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/testkit/heaptest"
)

// hugeSize is the size of the inputs the limit tests give: 600 MB, in a
// sparse file or a reader that makes its bytes, never held.
const hugeSize = 600 << 20

// sparseFile is a file of hugeSize bytes that takes no disk space.
func sparseFile(t *testing.T, name string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, hugeSize); err != nil {
		t.Fatal(err)
	}
	return path
}

// endless is a reader of n bytes of YAML-looking text, made as read.
type endless struct{ left int64 }

func (r *endless) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	n := min(int64(len(p)), r.left)
	for i := range n {
		p[i] = "a: b\n"[i%5]
	}
	r.left -= n
	return int(n), nil
}

// Every input of every command has a size limit: a 600 MB spec, listing,
// findings file, overlay or Go file is refused before it is read, naming
// itself and -max-input-bytes, and stdin at the first byte past the limit;
// the heap does not grow by the input's size and the command ends at once
// with exit 2. (A 500 MB spec made specdiff validate die out of memory at
// 3.2 GiB; a 500 MB JSON of 1.2 M paths ran for minutes.)
func TestHugeInputsAreRefusedBeforeTheyAreRead(t *testing.T) {
	huge := sparseFile(t, "huge.yaml")
	overlayFile := filepath.Join(t.TempDir(), "overlay.yaml")
	if err := os.WriteFile(overlayFile, []byte("overlay: 1.1.0\ninfo: {title: t, version: \"1\"}\nactions:\n  - target: $.info\n    update: {x-note: n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	goDir := filepath.Dir(sparseFile(t, "huge.go"))
	big := fmt.Sprintf("%s is %d bytes, more than the size limit of %d bytes", huge, hugeSize, fetch.DefaultMaxSize)
	stdin := fmt.Sprintf("stdin is more than the size limit of %d bytes", fetch.DefaultMaxSize)
	cases := map[string]struct {
		args  []string
		stdin bool
		want  string
	}{
		"validate -spec":         {args: []string{"validate", "-spec", huge}, want: "-spec: " + big},
		"diff -spec":             {args: []string{"-spec", huge, "testdata/listings/names.txt"}, want: "-spec: " + big},
		"diff -omissions":        {args: []string{"-spec", modelsSpec, "-omissions", huge, "testdata/listings/names.txt"}, want: "-omissions: " + big},
		"diff, a listing file":   {args: []string{huge}, want: big},
		"diff, stdin":            {args: []string{"-"}, stdin: true, want: stdin},
		"facade -spec":           {args: []string{"facade", "-spec", huge}, want: "-spec: " + big},
		"facade, a Go file":      {args: []string{"facade", "-dir", goDir}, want: "huge.go is 629145600 bytes"},
		"probe -spec":            {args: []string{"probe", "-spec", huge, "http://127.0.0.1:1/api/v1"}, want: "-spec: " + big},
		"overlay -spec":          {args: []string{"overlay", "-spec", huge, "testdata/overlay/drift.json"}, want: "-spec: " + big},
		"overlay, findings":      {args: []string{"overlay", "-spec", "testdata/overlay/spec.yaml", huge}, want: big},
		"overlay, stdin":         {args: []string{"overlay", "-spec", "testdata/overlay/spec.yaml", "-"}, stdin: true, want: stdin},
		"overlay apply, overlay": {args: []string{"overlay", "apply", "-spec", "testdata/overlay/spec.yaml", huge}, want: big},
		"overlay apply -spec":    {args: []string{"overlay", "apply", "-spec", huge, overlayFile}, want: big},
		"overlay apply, stdin":   {args: []string{"overlay", "apply", "-spec", "testdata/overlay/spec.yaml", "-"}, stdin: true, want: stdin},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var in io.Reader
			if tc.stdin {
				in = &endless{left: hugeSize}
			}
			var code int
			var errs string
			peak, took := heaptest.Peak(func() { code, _, errs = runSpecdiff(t, in, tc.args...) })
			if code != exitError || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "raise -max-input-bytes to read it") {
				t.Errorf("exit %d, stderr %q; want exit %d naming %q and the flag", code, errs, exitError, tc.want)
			}
			if limit := uint64(4 * fetch.DefaultMaxSize); peak > limit {
				t.Errorf("the heap grew by %d MiB reading a %d MiB input; want under %d MiB", peak>>20, hugeSize>>20, limit>>20)
			}
			if took > 10*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
}

// -max-input-bytes sets the limit, for files and stdin alike: the spec of
// the tests is refused under a limit smaller than it and read above it, and
// a limit that is no size is a usage error.
func TestMaxInputBytesSetsTheLimit(t *testing.T) {
	info, err := os.Stat(modelsSpec)
	if err != nil {
		t.Fatal(err)
	}
	size := info.Size()
	under, over := fmt.Sprint(size-1), fmt.Sprint(size)
	code, _, errs := runSpecdiff(t, nil, "validate", "-spec", modelsSpec, "-max-input-bytes", under)
	if want := fmt.Sprintf("%s is %d bytes, more than the size limit of %d bytes", modelsSpec, size, size-1); code != exitError || !strings.Contains(errs, want) {
		t.Errorf("a limit of a byte less: exit %d, stderr %q; want %q", code, errs, want)
	}
	if code, _, errs = runSpecdiff(t, nil, "validate", "-spec", modelsSpec, "-max-input-bytes", over); code == exitError {
		t.Errorf("a limit of its size: exit %d, stderr %q", code, errs)
	}
	listing, err := os.ReadFile("testdata/listings/names.txt")
	if err != nil {
		t.Fatal(err)
	}
	longer := string(listing) + "# " + strings.Repeat("x", int(size)) + "\n"
	code, _, errs = runSpecdiff(t, strings.NewReader(longer), "-spec", modelsSpec, "-max-input-bytes", over, "-")
	if want := "stdin is more than the size limit of " + over + " bytes"; code != exitError || !strings.Contains(errs, want) {
		t.Errorf("stdin past the limit: exit %d, stderr %q; want %q", code, errs, want)
	}
	for _, bad := range []string{"0", "-1"} {
		for _, cmd := range [][]string{{"validate"}, {"overlay", "testdata/overlay/drift.json"}} {
			code, _, errs := runSpecdiff(t, nil, append(cmd, "-max-input-bytes", bad)...)
			if code != exitError || !strings.Contains(errs, "-max-input-bytes "+bad+": want a positive number of bytes") {
				t.Errorf("%v -max-input-bytes %s: exit %d, stderr %q", cmd, bad, code, errs)
			}
		}
	}
}
