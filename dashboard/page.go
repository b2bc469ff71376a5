package dashboard

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// pageBook is a page's workbook, whole in memory, read part by part
// through the reader package resultdata shares (internal/xlsxpage):
// every byte a part inflates to counts against the page's limits.
type pageBook struct {
	book *xlsxpage.Book
	ctx  context.Context
	lim  limits
	held int64 // bytes held of the parts read whole
}

// openPage opens the zip of a page's workbook.
func openPage(ctx context.Context, data []byte, lim limits) (*pageBook, error) {
	b, err := xlsxpage.Open(bytes.NewReader(data), int64(len(data)), lim.parts, lim.inflated)
	if err != nil {
		return nil, sharedError(err)
	}
	return &pageBook{book: b, ctx: ctx, lim: lim}, nil
}

// sharedError turns a limit of the shared reader into the option's
// *limits.Error.
func sharedError(err error) error {
	var le *xlsxpage.LimitExceeded
	if errors.As(err, &le) {
		return limitError("Max"+le.Name, le.Max, 0, 0, le.What)
	}
	return err
}

// find returns the part named name; part names compare ignoring case.
func (p *pageBook) find(name string) *zip.File { return p.book.Find(name) }

// open opens a part to read it inflated, within MaxInflatedBytes, all the
// parts read counted together.
func (p *pageBook) open(f *zip.File) (io.ReadCloser, error) {
	rc, err := p.book.Open(p.ctx, f)
	return rc, sharedError(err)
}

// hold counts n bytes more held in memory.
func (p *pageBook) hold(n int64, what string) error {
	p.held += n
	if p.held > p.lim.held {
		return limitError("MaxHeldBytes", p.lim.held, 0, 0, "its "+what+", with what is held of its other parts,")
	}
	return nil
}

// decodeWhole decodes the small XML part name into v, counting its bytes
// as held.
func (p *pageBook) decodeWhole(f *zip.File, v any) error {
	rc, err := p.open(f)
	if err != nil {
		return err
	}
	defer rc.Close()
	left := p.lim.held - p.held
	b, err := io.ReadAll(io.LimitReader(rc, left+1))
	if err != nil {
		return err
	}
	if err := p.hold(int64(len(b)), "part "+f.Name); err != nil {
		return err
	}
	if err := xml.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: part %s: %v", ErrMalformed, f.Name, err)
	}
	return nil
}

// relationship is an entry of a relationships part.
type relationship struct {
	ID     string `xml:"Id,attr"`
	Type   string `xml:"Type,attr"`
	Target string `xml:"Target,attr"`
	Mode   string `xml:"TargetMode,attr"`
}

// relationships reads the relationships of the part named source, by id;
// a part without relationships has none.
func (p *pageBook) relationships(source string) (map[string]relationship, error) {
	f := p.find(xlsxpage.RelsPart(source))
	if f == nil {
		return nil, nil
	}
	var rels struct {
		List []relationship `xml:"Relationship"`
	}
	if err := p.decodeWhole(f, &rels); err != nil {
		return nil, err
	}
	byID := make(map[string]relationship, len(rels.List))
	for _, r := range rels.List {
		if !strings.EqualFold(r.Mode, "External") {
			r.Target = xlsxpage.ResolvePart(source, r.Target)
			byID[r.ID] = r
		}
	}
	return byID, nil
}

// ofType reports whether a relationship type names kind (worksheet,
// sharedStrings, officeDocument), in the transitional or strict namespace.
func ofType(rel relationship, kind string) bool { return strings.HasSuffix(rel.Type, "/"+kind) }

// sourceSheet is a worksheet of a page's workbook.
type sourceSheet struct {
	name string
	part *zip.File
}

// contents finds the page workbook's worksheets, in order, and its shared
// strings part (nil when it has none). Chart sheets and other sheets
// without cells are left out.
func (p *pageBook) contents() (sheets []sourceSheet, sst *zip.File, err error) {
	book, err := p.workbookPart()
	if err != nil {
		return nil, nil, err
	}
	rels, err := p.relationships(book.Name)
	if err != nil {
		return nil, nil, err
	}
	var wb struct {
		Sheets []struct {
			Name  string     `xml:"name,attr"`
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := p.decodeWhole(book, &wb); err != nil {
		return nil, nil, err
	}
	for _, s := range wb.Sheets {
		rel, ok := rels[relID(s.Attrs)]
		switch {
		case !ok:
			return nil, nil, fmt.Errorf("%w: sheet %q has no relationship in the workbook", ErrMalformed, s.Name)
		case !ofType(rel, "worksheet"):
			continue
		}
		part := p.find(rel.Target)
		if part == nil {
			return nil, nil, fmt.Errorf("%w: sheet %q: the workbook has no part %s", ErrMalformed, s.Name, rel.Target)
		}
		if err := p.book.ClaimSheet(s.Name, part); err != nil {
			return nil, nil, err
		}
		sheets = append(sheets, sourceSheet{name: s.Name, part: part})
	}
	for _, rel := range rels {
		if ofType(rel, "sharedStrings") {
			if sst = p.find(rel.Target); sst == nil {
				return nil, nil, fmt.Errorf("%w: the workbook has no part %s for its shared strings", ErrMalformed, rel.Target)
			}
		}
	}
	return sheets, sst, nil
}

// relID is the r:id attribute of a sheet: id in the relationships
// namespace, whatever its prefix.
func relID(attrs []xml.Attr) string {
	for _, a := range attrs {
		if a.Name.Local == "id" && a.Name.Space != "" {
			return a.Value
		}
	}
	return ""
}

// workbookPart finds the workbook part through the package's
// relationships, or at its usual name.
func (p *pageBook) workbookPart() (*zip.File, error) {
	rels, err := p.relationships("")
	if err != nil {
		return nil, err
	}
	name := xlsxpage.UsualWorkbookPart
	for _, rel := range rels {
		if ofType(rel, "officeDocument") {
			name = rel.Target
		}
	}
	if f := p.find(name); f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("%w: no workbook part (%s)", ErrMalformed, name)
}
