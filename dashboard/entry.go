package dashboard

import (
	"archive/zip"
	"compress/flate"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// dataDescriptor is the zip flag of an entry whose checksum and sizes
// follow its data, as a streamed entry's must.
const dataDescriptor = 0x8

// deflateLevel is how hard a sheet is compressed: the fastest level, as
// a merged sheet's XML, regular as it is, compresses well at any level and
// the default level costs the export more time than the rest of the merge.
const deflateLevel = flate.BestSpeed

// entry is a sheet's zip entry, compressed here rather than by the zip
// writer so that it can be ended, all its bytes written, before the next
// entry begins.
type entry struct {
	hdr  *zip.FileHeader
	crc  hash.Hash32
	comp *flate.Writer
	out  countWriter
	size uint64
}

// countWriter counts the bytes written through it.
type countWriter struct {
	w io.Writer
	n uint64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += uint64(n)
	return n, err
}

// entry begins the entry of hdr, made with CreateRaw, whose raw writer is
// raw.
func (b *workbook) entry(hdr *zip.FileHeader, raw io.Writer) *entry {
	e := &entry{hdr: hdr, crc: crc32.NewIEEE(), out: countWriter{w: raw}}
	if b.deflate == nil {
		b.deflate, _ = flate.NewWriter(&e.out, deflateLevel) // the level is valid
	} else {
		b.deflate.Reset(&e.out)
	}
	e.comp = b.deflate
	return e
}

func (e *entry) Write(p []byte) (int, error) {
	e.crc.Write(p)
	e.size += uint64(len(p))
	return e.comp.Write(p)
}

// close ends the compressed stream and sets the header's checksum and
// sizes, which the zip writer writes after the data and in its directory.
func (e *entry) close() error {
	if err := e.comp.Close(); err != nil {
		return err
	}
	h := e.hdr
	h.CRC32 = e.crc.Sum32()
	h.CompressedSize64, h.UncompressedSize64 = e.out.n, e.size
	// archive/zip's writer reads the 32-bit sizes of an entry made with
	// CreateRaw, in its data descriptor and its directory (it sets them
	// from the 64-bit ones only for the entries it compresses): without
	// them a sheet's entry says 0 bytes and no reader opens the workbook.
	//lint:ignore SA1019 see above: CreateRaw's entries need the 32-bit sizes
	h.CompressedSize = uint32(min(e.out.n, math.MaxUint32))
	//lint:ignore SA1019 see above
	h.UncompressedSize = uint32(min(e.size, math.MaxUint32))
	return nil
}
