package xlsxpage

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The records of a zip's directory end, as archive/zip reads them.
const (
	dirEndLen       = 22
	dirEndSearch    = 65 * 1024 // archive/zip looks for the end record this far from the end
	dir64LocatorLen = 20
	dir64EndLen     = 56
	dirBytesPerPart = 256                                                 // directory bytes allowed per part on average
	dirBytesAllowed = 1024 + dirEndSearch + dir64LocatorLen + dir64EndLen // the reads of the end records
)

var (
	dirEndSig       = []byte("PK\x05\x06")
	dir64LocatorSig = []byte("PK\x06\x07")
	dir64EndSig     = []byte("PK\x06\x06")
)

// openZip opens a zip whose directory lists at most parts entries.
// archive/zip allocates room for every entry the directory's end record
// claims (up to the file's size / 30) and then for every entry the
// directory holds, so both are bounded before and while it reads: the
// claim from the end records, the entries by the bytes the reader may
// read while it opens the zip.
func openZip(r io.ReaderAt, size, parts int64) (*zip.Reader, error) {
	if n := claimedEntries(r, size); n > uint64(parts) {
		return nil, tooManyParts(parts, fmt.Sprintf("its workbook, whose directory claims %d parts,", n))
	}
	ra := &budgetReaderAt{r: r, left: parts*dirBytesPerPart + dirBytesAllowed}
	zr, err := zip.NewReader(ra, size)
	if ra.spent {
		return nil, tooManyParts(parts, "its workbook, whose directory is longer than that many parts take,")
	}
	if err != nil {
		return nil, fmt.Errorf("%w: not a zip: %w", ErrMalformed, err)
	}
	ra.left = -1 // the zip is open: reads of parts are bounded part by part
	if int64(len(zr.File)) > parts {
		return nil, tooManyParts(parts, fmt.Sprintf("its workbook, of %d parts,", len(zr.File)))
	}
	return zr, nil
}

// tooManyParts is the error of a zip of more parts than the limit.
func tooManyParts(parts int64, what string) error {
	return &LimitExceeded{Name: "Parts", Max: parts, What: what}
}

// budgetReaderAt fails reads past a budget of bytes, while left is not
// negative.
type budgetReaderAt struct {
	r     io.ReaderAt
	left  int64
	spent bool
}

var errBudgetSpent = errors.New("zip directory larger than the limit on parts allows")

func (b *budgetReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if b.left < 0 {
		return b.r.ReadAt(p, off)
	}
	if int64(len(p)) > b.left {
		b.spent = true
		return 0, errBudgetSpent
	}
	b.left -= int64(len(p))
	return b.r.ReadAt(p, off)
}

// claimedEntries is the largest number of entries any end record in the
// zip's last 65 KiB claims, zip64 records included: whichever one
// archive/zip settles on claims no more. It is 0 when there is none.
func claimedEntries(r io.ReaderAt, size int64) uint64 {
	n := min(size, dirEndSearch)
	tail := make([]byte, n)
	if _, err := r.ReadAt(tail, size-n); err != nil && !errors.Is(err, io.EOF) {
		return 0
	}
	var most uint64
	for i := bytes.LastIndex(tail, dirEndSig); i >= 0; i = bytes.LastIndex(tail[:i], dirEndSig) {
		if i+dirEndLen > len(tail) {
			continue
		}
		most = max(most, uint64(binary.LittleEndian.Uint16(tail[i+10:])))
		most = max(most, zip64Entries(r, size-n+int64(i)))
	}
	return most
}

// zip64Entries reads the entries a zip64 end record claims, found through
// the locator just before the end record at endOffset; 0 when there is none.
func zip64Entries(r io.ReaderAt, endOffset int64) uint64 {
	loc := make([]byte, dir64LocatorLen)
	if endOffset < dir64LocatorLen {
		return 0
	}
	if _, err := r.ReadAt(loc, endOffset-dir64LocatorLen); err != nil || !bytes.HasPrefix(loc, dir64LocatorSig) {
		return 0
	}
	rec := make([]byte, dir64EndLen)
	off := binary.LittleEndian.Uint64(loc[8:])
	if off > uint64(endOffset) {
		return 0
	}
	if _, err := r.ReadAt(rec, int64(off)); err != nil || !bytes.HasPrefix(rec, dir64EndSig) {
		return 0
	}
	return binary.LittleEndian.Uint64(rec[32:])
}
