package xlsxpage

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrMalformed matches the error of a page workbook that is not what a
// spreadsheet writes: not a zip, a zip cut off, a part whose deflate
// stream or checksum is wrong, XML that breaks off or is not well-formed,
// rows or cells out of order, a part named by two sheets.
var ErrMalformed = errors.New("malformed page workbook")

// ErrNoPages is the error of a result that lists no dashboard pages: an
// export of nothing is not taken for an empty result.
var ErrNoPages = errors.New("the result lists no dashboard pages")

// The defaults of the limits both packages share.
const (
	DefaultPageBytes     = 64 << 20  // a page's download, held whole
	DefaultInflatedBytes = 256 << 20 // what a page's parts inflate to, all counted
	DefaultParts         = 10000     // the zip entries of a page
	// DefaultResultRows and DefaultResultCells bound what one result can
	// make a reader yield: ten full sheets of Excel's 1,048,576 rows, and
	// ten cells a row: generous for any dashboard, whose page is a sheet
	// per chart.
	DefaultResultRows  = 10 << 20
	DefaultResultCells = 100 << 20
)

// LimitExceeded is a page, or a result, past one of the shared limits.
type LimitExceeded struct {
	Name string // PageBytes, InflatedBytes, Parts, ResultRows or ResultCells
	Max  int64
	What string // what went past it, e.g. "its workbook's download"
}

func (e *LimitExceeded) Error() string {
	return fmt.Sprintf("%s exceeds %s (%d)", e.What, e.Name, e.Max)
}

// Book is a page workbook's zip, opened within the limits: every part
// opened counts its declared size against one budget of inflated bytes.
type Book struct {
	parts    map[string]*zip.File // by name, a leading slash dropped
	lower    map[string]*zip.File // by lower-case name, the first of each
	left     int64                // inflated bytes left in the budget
	inflated int64                // the budget
	claimed  map[*zip.File]string // the sheet that named each sheet part
	charged  map[*zip.File]bool   // the parts counted against the budget
}

// centralHeader begins each record of a zip's directory.
var centralHeader = []byte("PK\x01\x02")

// Open opens the zip of a page workbook of size bytes. The zip reader
// makes an entry for each record of the directory, so the records are
// counted first, on the bytes: there are no more of them than there are
// signatures.
func Open(r io.ReaderAt, size, maxParts, maxInflated int64) (*Book, error) {
	n, err := countSignatures(r, size)
	if err != nil {
		return nil, fmt.Errorf("%w: reading the zip: %v", ErrMalformed, err)
	}
	if n > maxParts {
		return nil, tooManyParts(maxParts, fmt.Sprintf("its workbook, of %d parts or more,", n))
	}
	zr, err := openZip(r, size, maxParts)
	if err != nil {
		return nil, err
	}
	b := &Book{parts: make(map[string]*zip.File, len(zr.File)), lower: make(map[string]*zip.File, len(zr.File)),
		left: maxInflated, inflated: maxInflated, claimed: map[*zip.File]string{}, charged: map[*zip.File]bool{}}
	for _, f := range zr.File {
		name := strings.TrimPrefix(f.Name, "/")
		b.parts[name] = f
		if l := strings.ToLower(name); b.lower[l] == nil {
			b.lower[l] = f
		}
	}
	return b, nil
}

// countSignatures counts the directory signatures in r, reading it in
// chunks that overlap by a signature's length less one.
func countSignatures(r io.ReaderAt, size int64) (int64, error) {
	const chunk = 256 << 10
	buf := make([]byte, min(chunk, size)+int64(len(centralHeader))-1)
	var n int64
	keep := 0
	for off := int64(0); off < size; {
		m, err := r.ReadAt(buf[keep:min(int64(len(buf)), int64(keep)+size-off)], off)
		if err != nil && !errors.Is(err, io.EOF) {
			return n, err
		}
		if m == 0 {
			return n, io.ErrUnexpectedEOF
		}
		data := buf[:keep+m]
		n += int64(countIn(data))
		off += int64(m)
		keep = min(len(data), len(centralHeader)-1)
		copy(buf, data[len(data)-keep:])
	}
	return n, nil
}

func countIn(b []byte) int {
	n := 0
	for i := 0; i+len(centralHeader) <= len(b); i++ {
		if b[i] == 'P' && string(b[i:i+len(centralHeader)]) == string(centralHeader) {
			n++
		}
	}
	return n
}

// Find returns the part named name, matched exactly, else ignoring case;
// nil when there is none.
func (b *Book) Find(name string) *zip.File {
	name = strings.TrimPrefix(name, "/")
	if f := b.parts[name]; f != nil {
		return f
	}
	return b.lower[strings.ToLower(name)]
}

// ClaimSheet records that sheet names part f: a part named by a sheet
// before is refused, so that no part is read as the rows of two sheets.
func (b *Book) ClaimSheet(sheet string, f *zip.File) error {
	if other, ok := b.claimed[f]; ok {
		return fmt.Errorf("%w: sheets %q and %q name the same part %s", ErrMalformed, other, sheet, f.Name)
	}
	b.claimed[f] = sheet
	return nil
}

// Open opens a part to read it inflated, within ctx. Its size, as the zip
// declares it, counts against the budget of inflated bytes before any of
// it is inflated: the zip reader fails a part that inflates to more than
// it declares, so what is read of the page never goes past the budget. A
// part counts once, however often it is opened: resultdata reads a sheet
// twice (its merged ranges, listed after its rows, then its rows), so a
// page within the budget reads in both packages. Every error of the
// part's bytes matches [ErrMalformed]; ctx's end stops the next read with
// its cause.
func (b *Book) Open(ctx context.Context, f *zip.File) (io.ReadCloser, error) {
	if !b.charged[f] {
		if f.UncompressedSize64 > uint64(max(b.left, 0)) {
			return nil, &LimitExceeded{Name: "InflatedBytes", Max: b.inflated, What: fmt.Sprintf("its workbook, inflated (by part %s),", f.Name)}
		}
		b.left -= int64(f.UncompressedSize64)
		b.charged[f] = true
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: part %s: %w", ErrMalformed, f.Name, err)
	}
	return &partReader{ctx: ctx, rc: rc, name: f.Name}, nil
}

// partReader reads a part within a context, its errors naming it.
type partReader struct {
	ctx  context.Context
	rc   io.ReadCloser
	name string
}

func (r *partReader) Read(p []byte) (int, error) {
	if r.ctx.Err() != nil {
		return 0, context.Cause(r.ctx)
	}
	n, err := r.rc.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: part %s: %w", ErrMalformed, r.name, err)
	}
	return n, err
}

func (r *partReader) Close() error { return r.rc.Close() }
