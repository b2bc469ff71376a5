package dashboard

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
)

// sharedStrings is a page workbook's table of shared strings, decoded: the
// texts one after the other, and where each ends.
type sharedStrings struct {
	text []byte
	ends []uint32
}

// count is the number of strings.
func (s *sharedStrings) count() int { return len(s.ends) }

// get returns string i.
func (s *sharedStrings) get(i int) []byte {
	from := uint32(0)
	if i > 0 {
		from = s.ends[i-1]
	}
	return s.text[from:s.ends[i]]
}

// bytesPerString is what the table holds for each string besides its text.
const bytesPerString = 4

// readSharedStrings reads the shared strings part f of p; a workbook
// without one (f nil) has none. What it holds counts against
// MaxHeldBytes as it is read.
func (p *pageBook) readSharedStrings(ctx context.Context, f *zip.File, buf []byte) (*sharedStrings, error) {
	s := &sharedStrings{}
	if f == nil {
		return s, nil
	}
	rc, err := p.open(f)
	if err == nil {
		defer rc.Close()
		err = s.read(newXMLReader(ctx, rc, buf), p)
	}
	if err != nil {
		return nil, fmt.Errorf("shared strings (%s): %w", f.Name, err)
	}
	return s, nil
}

// read reads the sst element and its si elements.
func (s *sharedStrings) read(x *xmlReader, p *pageBook) error {
	var t tag
	if err := rootElement(x, &t, elemSst); err != nil || t.kind == tagEmpty {
		return err
	}
	for {
		if err := x.next(&t); err != nil {
			return x.endedIn(err, "in the shared strings")
		}
		switch {
		case t.kind == tagEnd && t.name == elemSst:
			return trailer(x)
		case t.name == elemSi && t.kind == tagStart:
			if err := s.readString(x, p, &t); err != nil {
				return err
			}
		case t.name == elemSi: // an empty string
			s.ends = append(s.ends, uint32(len(s.text)))
		case t.kind == tagStart:
			if err := x.skipElement(&t); err != nil {
				return err
			}
		}
	}
}

// readString reads the text of one si element, up to the held limit.
func (s *sharedStrings) readString(x *xmlReader, p *pageBook, t *tag) error {
	left := p.lim.held - p.held - bytesPerString
	from := len(s.text)
	text, err := richText(x, s.text, int(min(max(left, 0), 1<<31-1)+int64(from)), t, elemSi)
	s.text = text
	if errors.Is(err, errTooLong) {
		return limitError("MaxHeldBytes", p.lim.held, 0, 0, "the text held")
	}
	if err != nil {
		return err
	}
	s.ends = append(s.ends, uint32(len(s.text)))
	return p.hold(int64(len(s.text)-from)+bytesPerString, "shared strings")
}

// richText appends to dst the text of the element being read (si or is):
// its t elements, its own and those of its runs (r), leaving out phonetic
// runs (rPh) and every other element. dst grows to at most max bytes. It
// reads up to the end tag of the element, end.
func richText(x *xmlReader, dst []byte, max int, t *tag, end elem) ([]byte, error) {
	for {
		if err := x.next(t); err != nil {
			return dst, x.endedIn(err, "in a text")
		}
		var err error
		switch {
		case t.kind == tagEnd && t.name == end:
			return dst, nil
		case t.kind == tagEnd && t.name == elemRun:
			// the end of a run: its t elements were read on the way
		case t.kind == tagStart && t.name == elemRun:
			// a run: read its t elements as they come
		case t.kind == tagStart && t.name == elemT:
			if dst, err = x.text(dst, max, t); err != nil {
				return dst, err
			}
			if t.kind != tagEnd || t.name != elemT {
				return dst, x.malformed("an element within a text (t)")
			}
		case t.kind == tagStart:
			err = x.skipElement(t)
		case t.kind == tagEnd:
			return dst, x.malformed("an end tag that ends no element begun")
		}
		if err != nil {
			return dst, err
		}
	}
}

// rootElement reads up to the root element's start tag, which must name
// want.
func rootElement(x *xmlReader, t *tag, want elem) error {
	if err := x.next(t); err != nil {
		return x.endedIn(err, "before its root element")
	}
	if t.name != want || t.kind == tagEnd {
		return x.malformed("the root element is not the one expected")
	}
	return nil
}

// trailer reads what follows the root element: nothing but white space,
// comments and processing instructions, up to the end of the part, whose
// checksum the zip reader checks there.
func trailer(x *xmlReader) error {
	for {
		nonSpace, _ := x.skipText()
		if nonSpace {
			return x.malformed("text after the root element")
		}
		if x.pos == x.end && !x.fill() {
			if errors.Is(x.err, io.EOF) {
				return nil
			}
			return x.err
		}
		if x.pos < x.end && x.buf[x.pos] == '<' {
			var t tag
			skipped, err := x.markup(&t)
			if err != nil {
				return err
			}
			if !skipped {
				return x.malformed("an element after the root element")
			}
		}
	}
}
