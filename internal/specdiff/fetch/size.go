package fetch

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
)

// DefaultMaxSize bounds each document specdiff reads (a spec, a list of
// known omissions, a listing, a findings file, an overlay) from a file,
// stdin or a URL, when -max-input-bytes does not: 8 MiB, some 45 times the
// spec of this repository. Loading and checking a spec holds about 100
// times its size in memory (a 2.8 MB spec of 20,000 paths took 290 MB, an
// 11.5 MB one 1.1 GB), so the limit is what keeps a large input from
// exhausting it.
const DefaultMaxSize = 8 << 20

// MaxSizeFlag is the flag that sets the limit of the documents specdiff
// reads, which its errors name.
const MaxSizeFlag = "-max-input-bytes"

// ErrTooLarge: a document is larger than its size limit. It is refused
// whole, before it is parsed: a listing cut short would report the
// operations past the cut as missing.
var ErrTooLarge = errors.New("larger than its size limit")

// TooLargeError is a document refused for its size; it matches
// ErrTooLarge.
type TooLargeError struct {
	What string // the document: a file's name, "stdin", a URL
	Size int64  // its size, when known before it was read; 0 when not
	Max  int64  // the limit
	Flag string // the flag that raises the limit; "" for a fixed limit
}

func (e *TooLargeError) Error() string {
	size := "more than"
	if e.Size > 0 {
		size = fmt.Sprintf("%d bytes, more than", e.Size)
	}
	if e.Flag == "" {
		return fmt.Sprintf("%s is %s the size limit of %d bytes", e.What, size, e.Max)
	}
	return fmt.Sprintf("%s is %s the size limit of %d bytes: refused whole, never read cut short; raise %s to read it", e.What, size, e.Max, e.Flag)
}

// Is matches ErrTooLarge.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// ReadFile reads the file name, at most max bytes (zero means
// DefaultMaxSize, raised by -max-input-bytes). A larger file is refused
// before it is read, and one that grows past max (or that its size does not
// tell, such as a pipe) as soon as it does: a *TooLargeError naming it.
func ReadFile(name string, max int64) ([]byte, error) {
	return readFile(name, cmp.Or(max, DefaultMaxSize), MaxSizeFlag)
}

// ReadFixed reads the file name within a limit no flag raises, such as
// that of a certificate file; see ReadFile.
func ReadFixed(name string, max int64) ([]byte, error) {
	return readFile(name, max, "")
}

func readFile(name string, max int64, flag string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > max {
		return nil, &TooLargeError{What: name, Size: info.Size(), Max: max, Flag: flag}
	}
	return readLimited(f, name, max, flag)
}

// ReadAll reads all of r, what names it (such as "stdin"), at most max
// bytes (zero means DefaultMaxSize): one byte more is a *TooLargeError.
func ReadAll(r io.Reader, what string, max int64) ([]byte, error) {
	return readLimited(r, what, cmp.Or(max, DefaultMaxSize), MaxSizeFlag)
}

func readLimited(r io.Reader, what string, max int64, flag string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if int64(len(data)) > max {
		return nil, &TooLargeError{What: what, Max: max, Flag: flag}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return data, nil
}
