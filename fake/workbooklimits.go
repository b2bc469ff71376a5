package fake

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Defaults of WorkbookLimits.
const (
	DefaultWorkbookPartBytes  = 128 << 20
	DefaultWorkbookTotalBytes = 256 << 20
	DefaultWorkbookTokenBytes = 1 << 20
	DefaultWorkbookRows       = 1 << 20 // 1,048,576: Excel's own limit
	DefaultWorkbookParts      = 10000
)

// WorkbookLimits bounds what reading an uploaded workbook (importExcel,
// importExcelExisting) may cost the server. The workbook is read as a
// stream, part by part and XML token by token, so its memory is bounded by
// TokenBytes and Parts whatever its size, and the other limits bound the
// time. A workbook past a limit is refused with 400 whose message names the
// form field file, the part or sheet, and the limit. Zero or negative fields
// take the defaults.
type WorkbookLimits struct {
	// PartBytes bounds the inflated size of one part of the zip package,
	// such as a worksheet's XML (default DefaultWorkbookPartBytes, 128 MiB).
	PartBytes int64
	// TotalBytes bounds the inflated size of all the parts read, together,
	// each counted once, on the size its zip entry declares, before it is
	// inflated (default DefaultWorkbookTotalBytes, 256 MiB).
	TotalBytes int64
	// TokenBytes bounds one XML token: a text node, or a tag with its
	// attributes (default DefaultWorkbookTokenBytes, 1 MiB).
	TokenBytes int64
	// RowsPerSheet bounds the rows of one sheet, counted and numbered
	// (default DefaultWorkbookRows, 1,048,576 as in Excel).
	RowsPerSheet int64
	// Parts bounds the entries of the zip package, the sheets of the
	// workbook and its relationships (default DefaultWorkbookParts, 10,000).
	Parts int
}

// DefaultWorkbookLimits returns the limits a server has unless
// WithWorkbookLimits says otherwise.
func DefaultWorkbookLimits() WorkbookLimits {
	return WorkbookLimits{}.withDefaults()
}

func (l WorkbookLimits) withDefaults() WorkbookLimits {
	if l.PartBytes <= 0 {
		l.PartBytes = DefaultWorkbookPartBytes
	}
	if l.TotalBytes <= 0 {
		l.TotalBytes = DefaultWorkbookTotalBytes
	}
	if l.TokenBytes <= 0 {
		l.TokenBytes = DefaultWorkbookTokenBytes
	}
	if l.RowsPerSheet <= 0 {
		l.RowsPerSheet = DefaultWorkbookRows
	}
	if l.Parts <= 0 {
		l.Parts = DefaultWorkbookParts
	}
	return l
}

// limitError is a workbook refused for one of its limits.
type limitError struct {
	what  string // what went over, for example "part xl/worksheets/sheet1.xml inflates to"
	limit string // the field of WorkbookLimits
	value int64
	unit  string // what value counts, "" for bytes
}

func (e *limitError) Error() string {
	return fmt.Sprintf("%s more than %s: over the limit WorkbookLimits.%s", e.what, amount(e.value, e.unit), e.limit)
}

// amount says a limit's value in its unit.
func amount(n int64, unit string) string {
	switch {
	case unit != "":
		return fmt.Sprintf("%d %s", n, unit)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// partReader reads one inflated part of a workbook, failing a token
// longer than TokenBytes: the bytes read between two calls of tokenStart.
// It is an io.ByteReader, so encoding/xml reads it byte by byte without a
// buffer of its own. (PartBytes and TotalBytes are checked on the part's
// declared size when it is opened; the zip reader fails a part that
// inflates to more than it declares.)
type partReader struct {
	name       string
	src        *bufio.Reader
	closer     io.Closer
	tokenBytes int64
	read       int64 // bytes of the part read so far
	token      int64 // read when the current token started
}

// tokenStart marks the start of the next XML token.
func (p *partReader) tokenStart() { p.token = p.read }

func (p *partReader) ReadByte() (byte, error) {
	b, err := p.src.ReadByte()
	if err != nil {
		return 0, err
	}
	if p.read-p.token >= p.tokenBytes {
		return 0, &limitError{what: "part " + p.name + " holds an XML token (a text or a tag) of", limit: "TokenBytes", value: p.tokenBytes}
	}
	p.read++
	return b, nil
}

func (p *partReader) Read(b []byte) (int, error) {
	for i := range b {
		c, err := p.ReadByte()
		if err != nil {
			if i > 0 && errors.Is(err, io.EOF) {
				err = nil
			}
			return i, err
		}
		b[i] = c
	}
	return len(b), nil
}

func partTooLarge(name string, limit int64) error {
	return &limitError{what: "part " + name + " inflates to", limit: "PartBytes", value: limit}
}

func totalTooLarge(limit int64) error {
	return &limitError{what: "the parts read inflate to", limit: "TotalBytes", value: limit}
}
