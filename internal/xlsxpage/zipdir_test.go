package xlsxpage

import (
	"archive/zip"
	"bytes"
	"errors"
	"strings"
	"testing"
)

// zipOf is a zip of the parts named, each empty.
func zipOf(t *testing.T, names ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		if _, err := zw.Create(name); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// openParts opens data with a limit of parts and reports the limit it
// went past, "" when it opened.
func openParts(t *testing.T, data []byte, parts int64) string {
	t.Helper()
	_, err := Open(bytes.NewReader(data), int64(len(data)), parts, 1<<20)
	var le *LimitExceeded
	switch {
	case errors.As(err, &le):
		return le.Name + ": " + le.What
	case err != nil:
		t.Fatalf("neither opened nor past a limit: %v", err)
	}
	return ""
}

// A zip whose directory's end claims more entries than the limit is
// refused before archive/zip makes room for them, though it holds few.
func TestOpenRefusesAClaimPastTheParts(t *testing.T) {
	data := zipOf(t, "a.xml", "b.xml")
	if got := openParts(t, data, 10); got != "" {
		t.Fatalf("the honest zip: %s", got)
	}
	end := bytes.LastIndex(data, dirEndSig)
	data[end+8], data[end+9], data[end+10], data[end+11] = 0xff, 0xfe, 0xff, 0xfe // 65,279 entries
	if got := openParts(t, data, 10); !strings.HasPrefix(got, "Parts: ") || !strings.Contains(got, "claims 65279 parts") {
		t.Errorf("a claim of 65,279 parts with a limit of 10: %q", got)
	}
}

// A directory longer than the limit of parts allows (its entries' names
// long) is refused while archive/zip reads it.
func TestOpenRefusesADirectoryPastItsBudget(t *testing.T) {
	long := strings.Repeat("n", 40<<10)
	data := zipOf(t, "a"+long, "b"+long)
	if got := openParts(t, data, 2); !strings.HasPrefix(got, "Parts: ") || !strings.Contains(got, "directory is longer") {
		t.Errorf("two parts of 40 KiB names with a limit of 2: %q", got)
	}
	if got := openParts(t, zipOf(t, "a.xml", "b.xml"), 2); got != "" {
		t.Errorf("two parts of short names with a limit of 2: %q", got)
	}
}
