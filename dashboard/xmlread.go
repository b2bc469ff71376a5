package dashboard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// The XML of a page's parts is read by xmlReader, a small streaming reader
// made for the parts a spreadsheet writes: it hands out one tag at a time,
// with the two attributes the merge needs (r and t), and the text of the
// elements whose text is a value, decoded. It holds at most one tag
// (maxTag bytes) and the text asked for, whatever the size of the part, and
// it checks the context each time it reads more of the part (every 64 KiB
// of XML at most): so between rows, and within what it reads past.

// maxTag bounds the bytes of one tag, attributes included.
const maxTag = 64 << 10

// readChunk is how much of a part is read at a time.
const readChunk = 64 << 10

// tagKind is what a tag is.
type tagKind uint8

const (
	tagStart tagKind = iota + 1 // <name ...>
	tagEmpty                    // <name .../>
	tagEnd                      // </name>
)

// elem names the elements the merge reads; every other is elemOther.
type elem uint8

const (
	elemOther elem = iota
	elemWorksheet
	elemSheetData
	elemRow
	elemC
	elemV
	elemF
	elemIs
	elemT
	elemRun // r, a run of rich text
	elemRPh // a phonetic run, which is no part of the text
	elemSst
	elemSi
)

// maxAttr is the longest r or t attribute kept; a longer one is malformed.
const maxAttr = 24

// tag is one tag read, with the attributes the merge needs copied out.
type tag struct {
	kind tagKind
	name elem
	r    []byte // the r attribute, nil when absent (aliases rBuf)
	t    []byte // the t attribute, nil when absent (aliases tBuf)
	rBuf [maxAttr]byte
	tBuf [maxAttr]byte
}

// ErrMalformed matches the error of a page workbook that is not what a
// spreadsheet writes: not a zip, a zip cut off, a part whose deflate
// stream or checksum is wrong, a zip without a workbook, a part whose XML
// breaks off or is not well-formed, rows or cells out of order, a part
// named by two sheets, a shared string that is not in the table. The
// error says which part, row or cell. It is resultdata.ErrMalformed too:
// both read page workbooks with the same reader.
var ErrMalformed = xlsxpage.ErrMalformed

// xmlReader reads the XML of one part.
type xmlReader struct {
	ctx    context.Context
	r      io.Reader
	buf    []byte
	pos    int   // the next byte to read
	end    int   // buf[pos:end] is read and not yet consumed
	offset int64 // the part's offset of buf[0]
	err    error // what r returned last, once it returned an error
}

func newXMLReader(ctx context.Context, r io.Reader, buf []byte) *xmlReader {
	return &xmlReader{ctx: ctx, r: r, buf: buf[:cap(buf)]}
}

// malformed is a format error at the reader's position.
func (x *xmlReader) malformed(format string, args ...any) error {
	return fmt.Errorf("%w at byte %d: %s", ErrMalformed, x.offset+int64(x.pos), fmt.Sprintf(format, args...))
}

// fill reads more of the part, keeping buf[pos:end]. It returns false at
// the end of the part, with x.err set to what ended it (io.EOF at a clean
// end).
func (x *xmlReader) fill() bool {
	if x.err != nil {
		return false
	}
	if err := x.ctx.Err(); err != nil {
		x.err = context.Cause(x.ctx)
		return false
	}
	if x.pos > 0 {
		n := copy(x.buf, x.buf[x.pos:x.end])
		x.offset += int64(x.pos)
		x.pos, x.end = 0, n
	}
	if x.end == len(x.buf) {
		x.err = x.malformed("a tag of more than %d bytes", maxTag)
		return false
	}
	for range 100 {
		n, err := x.r.Read(x.buf[x.end:min(len(x.buf), x.end+readChunk)])
		x.end += n
		if err != nil {
			x.err = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	x.err = io.ErrNoProgress
	return false
}

// failure is the error that ended the part: a part that ends is cut off
// (what ends the part before the reader expects it), any other error is
// what the inflating reader or the context said.
func (x *xmlReader) failure(where string) error {
	if x.err == nil || errors.Is(x.err, io.EOF) {
		return x.malformed("the XML breaks off %s", where)
	}
	return x.err
}

// endedIn is err, from next, when the part was not to end here: a clean
// end is a part cut off.
func (x *xmlReader) endedIn(err error, where string) error {
	if errors.Is(err, io.EOF) {
		return x.malformed("the XML breaks off %s", where)
	}
	return err
}

// skipText consumes character data up to the next '<', and reports
// whether any of it was other than white space.
func (x *xmlReader) skipText() (nonSpace bool, err error) {
	for {
		i := bytes.IndexByte(x.buf[x.pos:x.end], '<')
		chunk := x.buf[x.pos:x.end]
		if i >= 0 {
			chunk = chunk[:i]
		}
		nonSpace = nonSpace || len(trimLeftSpace(chunk)) > 0
		x.pos += len(chunk)
		if i >= 0 {
			return nonSpace, nil
		}
		if !x.fill() {
			return nonSpace, io.EOF
		}
	}
}

// next reads the next tag, skipping character data, comments and
// processing instructions. It returns io.EOF at a clean end of the part.
func (x *xmlReader) next(t *tag) error {
	for {
		if _, err := x.skipText(); err != nil {
			if errors.Is(x.err, io.EOF) {
				return io.EOF
			}
			return x.failure("")
		}
		skipped, err := x.markup(t)
		if err != nil || !skipped {
			return err
		}
	}
}

// markup reads the markup at x.pos (a '<'): a tag into t, or a comment or
// processing instruction, skipped (skipped reports which). A CDATA section
// here is character data outside a value, skipped too; a DTD is refused.
func (x *xmlReader) markup(t *tag) (skipped bool, err error) {
	if !x.ensure(2) {
		return false, x.failure("in a tag")
	}
	switch x.buf[x.pos+1] {
	case '?':
		return true, x.skipPast("?>")
	case '!':
		switch {
		case x.hasPrefix("<!--"):
			return true, x.skipPast("-->")
		case x.hasPrefix("<![CDATA["):
			x.pos += len("<![CDATA[")
			return true, x.skipPast("]]>")
		}
		return false, x.malformed("a DTD or declaration, which a workbook part has none of")
	}
	return false, x.tag(t)
}

// ensure makes at least n bytes available at x.pos, reading as needed.
func (x *xmlReader) ensure(n int) bool {
	for x.end-x.pos < n {
		if !x.fill() {
			return false
		}
	}
	return true
}

// hasPrefix reports whether the unread bytes begin with p.
func (x *xmlReader) hasPrefix(p string) bool {
	return x.ensure(len(p)) && string(x.buf[x.pos:x.pos+len(p)]) == p
}

// skipPast consumes up to and including delim.
func (x *xmlReader) skipPast(delim string) error {
	_, err := x.appendUntil(nil, []byte(delim), discard)
	return err
}

// discard is the bound of appendUntil that keeps nothing.
const discard = -1

// appendUntil consumes up to and including delim, appending what comes
// before it to dst, which grows to at most max bytes: errTooLong ends the
// read past them. max discard keeps nothing.
func (x *xmlReader) appendUntil(dst, delim []byte, max int) ([]byte, error) {
	for {
		chunk := x.buf[x.pos:x.end]
		if i := bytes.Index(chunk, delim); i >= 0 {
			dst, err := appendBounded(dst, chunk[:i], max)
			x.pos += i + len(delim)
			return dst, err
		}
		keep := min(len(chunk), len(delim)-1) // delim may straddle the next read
		var err error
		if dst, err = appendBounded(dst, chunk[:len(chunk)-keep], max); err != nil {
			return dst, err
		}
		x.pos += len(chunk) - keep
		if !x.fill() {
			return dst, x.failure("in a comment, CDATA section or processing instruction")
		}
	}
}

// errTooLong is text longer than the bound it was read within.
var errTooLong = errors.New("too long")

func appendBounded(dst, b []byte, max int) ([]byte, error) {
	switch {
	case max == discard:
		return dst, nil
	case len(dst)+len(b) > max:
		return dst, errTooLong
	}
	return append(dst, b...), nil
}

// tag reads the tag at x.pos.
func (x *xmlReader) tag(t *tag) error {
	end, err := x.tagEnd()
	if err != nil {
		return err
	}
	body := x.buf[x.pos+1 : end] // between '<' and '>'
	x.pos = end + 1
	t.r, t.t = nil, nil
	if len(body) > 0 && body[0] == '/' {
		t.kind, t.name = tagEnd, elemOf(trimSpace(body[1:]))
		return nil
	}
	t.kind = tagStart
	if len(body) > 0 && body[len(body)-1] == '/' {
		t.kind, body = tagEmpty, body[:len(body)-1]
	}
	i := 0
	for i < len(body) && !isSpace(body[i]) {
		i++
	}
	if i == 0 {
		return x.malformed("a tag without a name")
	}
	t.name = elemOf(body[:i])
	return x.attributes(t, body[i:])
}

// tagEnd finds the '>' that ends the tag at x.pos, outside quoted
// attribute values, reading as needed.
func (x *xmlReader) tagEnd() (int, error) {
	rel, quote := 1, byte(0) // where to go on, relative to x.pos, which fill moves
	for {
		j := x.pos + rel
		for j < x.end {
			if quote != 0 {
				k := bytes.IndexByte(x.buf[j:x.end], quote)
				if k < 0 {
					j = x.end
					break
				}
				j, quote = j+k+1, 0
				continue
			}
			switch c := x.buf[j]; c {
			case '"', '\'':
				quote = c
			case '>':
				return j, nil
			}
			j++
		}
		rel = j - x.pos
		if !x.fill() {
			return 0, x.failure("in a tag")
		}
	}
}

// elemOf names an element by its local name (any prefix dropped).
func elemOf(name []byte) elem {
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	switch string(name) {
	case "c":
		return elemC
	case "v":
		return elemV
	case "row":
		return elemRow
	case "is":
		return elemIs
	case "t":
		return elemT
	case "f":
		return elemF
	case "r":
		return elemRun
	case "rPh":
		return elemRPh
	case "si":
		return elemSi
	case "sheetData":
		return elemSheetData
	case "worksheet":
		return elemWorksheet
	case "sst":
		return elemSst
	}
	return elemOther
}

// attributes reads the attributes of a tag, keeping r and t.
func (x *xmlReader) attributes(t *tag, b []byte) error {
	for {
		b = trimLeftSpace(b)
		if len(b) == 0 {
			return nil
		}
		eq := bytes.IndexByte(b, '=')
		if eq <= 0 {
			return x.malformed("an attribute without a value")
		}
		name := trimSpace(b[:eq])
		b = trimLeftSpace(b[eq+1:])
		if len(b) == 0 || (b[0] != '"' && b[0] != '\'') {
			return x.malformed("an attribute value without quotes")
		}
		end := bytes.IndexByte(b[1:], b[0])
		if end < 0 {
			return x.malformed("an attribute value without its closing quote")
		}
		value := b[1 : 1+end]
		b = b[end+2:]
		if len(name) != 1 {
			continue
		}
		switch name[0] {
		case 'r':
			if len(value) > maxAttr {
				return x.malformed("an r attribute of %d bytes", len(value))
			}
			t.r = t.rBuf[:copy(t.rBuf[:], value)]
		case 't':
			if len(value) > maxAttr {
				return x.malformed("a t attribute of %d bytes", len(value))
			}
			t.t = t.tBuf[:copy(t.tBuf[:], value)]
		}
	}
}

func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	return b
}

// text appends the character data of the element being read to dst,
// entities decoded, CDATA sections kept and comments skipped, and reads the
// tag that ends it into t. dst grows to at most max bytes; past them the
// read stops with errTooLong.
func (x *xmlReader) text(dst []byte, max int, t *tag) ([]byte, error) {
	for {
		chunk := x.buf[x.pos:x.end]
		lt := bytes.IndexByte(chunk, '<')
		if lt >= 0 {
			chunk = chunk[:lt]
		}
		n, out, err := decodeText(dst, chunk, lt >= 0)
		dst, x.pos = out, x.pos+n
		if err != nil {
			return dst, x.malformed("%v", err)
		}
		if len(dst) > max {
			return dst, errTooLong
		}
		if lt < 0 || n < len(chunk) {
			if !x.fill() {
				return dst, x.failure("in a value")
			}
			continue
		}
		if x.hasPrefix("<![CDATA[") {
			x.pos += len("<![CDATA[")
			if dst, err = x.appendUntil(dst, []byte("]]>"), max); err != nil {
				return dst, err
			}
			continue
		}
		skipped, err := x.markup(t)
		if err != nil || !skipped {
			return dst, err
		}
	}
}

// decodeText appends the character data b to dst with its entities
// decoded and its line ends normalised (\r\n and \r to \n, as XML reads
// them). It returns how much of b it consumed: all of it, but an entity or
// \r cut off by the end of b when more may follow (final false).
func decodeText(dst, b []byte, final bool) (int, []byte, error) {
	i := 0
	for i < len(b) {
		j := i
		for j < len(b) && b[j] != '&' && b[j] != '\r' {
			j++
		}
		dst = append(dst, b[i:j]...)
		if i = j; i == len(b) {
			return i, dst, nil
		}
		if b[i] == '\r' {
			if i+1 == len(b) && !final {
				return i, dst, nil
			}
			dst = append(dst, '\n')
			i++
			if i < len(b) && b[i] == '\n' {
				i++
			}
			continue
		}
		semi := bytes.IndexByte(b[i:min(len(b), i+12)], ';')
		if semi < 0 {
			if len(b)-i < 12 && !final {
				return i, dst, nil
			}
			return i, dst, errors.New("an & that begins no entity")
		}
		var err error
		if dst, err = appendEntity(dst, b[i+1:i+semi]); err != nil {
			return i, dst, err
		}
		i += semi + 1
	}
	return i, dst, nil
}

// appendEntity appends the character an entity (between & and ;) stands
// for.
func appendEntity(dst, name []byte) ([]byte, error) {
	switch string(name) {
	case "lt":
		return append(dst, '<'), nil
	case "gt":
		return append(dst, '>'), nil
	case "amp":
		return append(dst, '&'), nil
	case "quot":
		return append(dst, '"'), nil
	case "apos":
		return append(dst, '\''), nil
	}
	if len(name) < 2 || name[0] != '#' {
		return dst, fmt.Errorf("the entity &%s;, which XML does not define", name)
	}
	var n uint64
	var err error
	if name[1] == 'x' {
		n, err = strconv.ParseUint(string(name[2:]), 16, 32)
	} else {
		n, err = strconv.ParseUint(string(name[1:]), 10, 32)
	}
	if err != nil || !isXMLChar(rune(n)) {
		return dst, fmt.Errorf("the character reference &%s;, which is no XML character", name)
	}
	return utf8.AppendRune(dst, rune(n)), nil
}

// isXMLChar reports whether XML 1.0 can carry r.
func isXMLChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || (r >= 0x20 && r <= 0xD7FF) ||
		(r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// skipElement skips the content of the element whose start tag was just
// read, up to and including its end tag.
func (x *xmlReader) skipElement(t *tag) error {
	for depth := 1; depth > 0; {
		if err := x.next(t); err != nil {
			return x.endedIn(err, "in an element")
		}
		switch t.kind {
		case tagStart:
			depth++
		case tagEnd:
			depth--
		}
	}
	return nil
}
