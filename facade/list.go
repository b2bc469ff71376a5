package facade

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"

	"github.com/scmodel/scmgo/gen"
)

// callList sends a call whose answer is a JSON list, and decodes the list
// a batch of elements at a time as its body streams in: a long list costs
// the memory of the decoded elements and of one batch's text, never the
// whole body and the decoded list at once. Elements decode as callJSON
// decodes answers: liberally, with what differs from the spec collected.
func callList[T any](ctx context.Context, c *Client, cl call) ([]T, error) {
	var list []T
	_, err := c.do(ctx, cl, func(resp *http.Response) error {
		list = []T{} // a retried attempt starts over; [] is an empty list, not null
		ctx := requestContext(resp)
		return c.decodeList(ctx, cl.op, resp.Body, &list, func(batch []byte) error {
			var part []T
			if err := gen.DecodeAnswer(batch, &part, answerRoot(cl.op), c.noteDrift(ctx, cl.op)); err != nil {
				return err
			}
			list = append(list, part...)
			return nil
		})
	})
	return list, err
}

// listBuffer is the size of the buffer a list's body streams through, and
// listBatch the size of the text of the elements decoded together.
const listBuffer, listBatch = 64 << 10, 256 << 10

// decodeList hands the elements of the JSON list in body to each, a batch
// at a time, as the text of a JSON list of them. An answer that is not a
// list (null, or another JSON type) is decoded whole into list, as any
// answer is, so that it is reported as other answers are.
func (c *Client) decodeList(ctx context.Context, op gen.Operation, body io.Reader, list any, each func(batch []byte) error) error {
	s := &listScanner{r: bufio.NewReaderSize(body, listBuffer)}
	first, err := s.skipSpace()
	if err != nil && err != io.EOF {
		return err
	}
	if first != '[' {
		rest, err := io.ReadAll(s.r)
		if err != nil {
			return err
		}
		return c.decodeAnswer(ctx, op, append(s.head(), rest...), list)
	}
	var b batch
	err = s.elements(func(elem []byte, at int64) error {
		if b.add(elem, at); b.text.Len() < listBatch {
			return nil
		}
		return b.flush(each)
	})
	if err != nil {
		return err
	}
	return b.flush(each)
}

// batch is the text of a JSON list of elements, with where each element
// starts in it and in the answer, to tell a malformed element's offset in
// the answer.
type batch struct {
	text   bytes.Buffer
	starts [][2]int64 // offset in text, offset in the answer
}

func (b *batch) add(elem []byte, at int64) {
	if b.text.Len() == 0 {
		b.text.WriteByte('[')
	} else {
		b.text.WriteByte(',')
	}
	b.starts = append(b.starts, [2]int64{int64(b.text.Len()), at})
	b.text.Write(elem)
}

// flush hands the batch to each, when it holds any element, and empties it.
func (b *batch) flush(each func([]byte) error) error {
	if len(b.starts) == 0 {
		return nil
	}
	b.text.WriteByte(']')
	err := b.offset(each(b.text.Bytes()))
	b.text.Reset()
	b.starts = b.starts[:0]
	return err
}

// offset moves the offset of a malformed-JSON error in the batch to the
// answer's: into the element it falls in.
func (b *batch) offset(err error) error {
	var syntax *gen.SyntaxError
	if !errors.As(err, &syntax) {
		return err
	}
	e := *syntax
	for _, s := range slices.Backward(b.starts) {
		if e.Offset >= s[0] {
			e.Offset = e.Offset - s[0] + s[1]
			break
		}
	}
	return &e
}

// listScanner splits a JSON list, as it streams, into the text of its
// elements. It checks only the list's own punctuation and the nesting of
// each element; the decoders check the rest.
type listScanner struct {
	r    *bufio.Reader
	read int64        // bytes read so far
	ws   bytes.Buffer // what skipSpace passed over, for head
	elem bytes.Buffer // the element being read
}

func (s *listScanner) readByte() (byte, error) {
	b, err := s.r.ReadByte()
	if err == nil {
		s.read++
	}
	return b, err
}

// skipSpace reads up to the next byte that is not white space and returns
// it, unread.
func (s *listScanner) skipSpace() (byte, error) {
	for {
		b, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		if b != ' ' && b != '\t' && b != '\n' && b != '\r' {
			return b, s.r.UnreadByte()
		}
		s.read++
		s.ws.WriteByte(b)
	}
}

// head is what was read before an answer found not to be a list.
func (s *listScanner) head() []byte { return s.ws.Bytes() }

// elements reads the list from its opening bracket and hands each element's
// text, and its offset in the answer, to fn.
func (s *listScanner) elements(fn func(elem []byte, at int64) error) error {
	if _, err := s.readByte(); err != nil { // [
		return err
	}
	for n := 0; ; n++ {
		b, err := s.skipSpace()
		if err != nil {
			return s.malformed(err, "the list does not end")
		}
		if b == ']' && n == 0 {
			_, err := s.readByte()
			return s.end(err)
		}
		at := s.read
		if err := s.element(); err != nil {
			return err
		}
		if err := fn(s.elem.Bytes(), at); err != nil {
			return err
		}
		if done, err := s.separator(); done || err != nil {
			return err
		}
	}
}

// separator reads the comma after an element, or the closing bracket.
func (s *listScanner) separator() (bool, error) {
	if _, err := s.skipSpace(); err != nil {
		return false, s.malformed(err, "the list does not end")
	}
	at := s.read
	switch b, _ := s.readByte(); b {
	case ',':
		return false, nil
	case ']':
		return true, s.end(nil)
	default:
		return false, &gen.SyntaxError{Offset: at, Msg: fmt.Sprintf("invalid character %q after array element", b)}
	}
}

// end checks that nothing but white space follows the list.
func (s *listScanner) end(err error) error {
	if err != nil {
		return err
	}
	switch _, err := s.skipSpace(); {
	case err == io.EOF:
		return nil
	case err != nil:
		return err
	}
	b, _ := s.r.ReadByte()
	return &gen.SyntaxError{Offset: s.read, Msg: fmt.Sprintf("invalid character %q after top-level value", b)}
}

// element reads one element's text into s.elem: a string, an object or a
// list to its matching end, or a literal or number to the next separator.
func (s *listScanner) element() error {
	s.elem.Reset()
	depth, inString, escaped := 0, false, false
	for {
		b, err := s.r.ReadByte()
		if err != nil {
			return s.malformed(err, "an element of the list does not end")
		}
		if depth == 0 && !inString && (b == ',' || b == ']' || b == ' ' || b == '\t' || b == '\n' || b == '\r') {
			return s.r.UnreadByte()
		}
		s.read++
		s.elem.WriteByte(b)
		switch {
		case escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
			if !inString && depth == 0 {
				return nil
			}
		case inString:
		case b == '{' || b == '[':
			depth++
		case b == '}' || b == ']':
			if depth--; depth == 0 {
				return nil
			}
		}
	}
}

// malformed is the error of a list that ends early or is not JSON, at the
// offset reached. A read error other than the body's end is returned as it
// is (a body cut off, io.ErrUnexpectedEOF, or a stall), so that a broken
// body is retried like any other.
func (s *listScanner) malformed(err error, what string) error {
	switch {
	case err == io.EOF:
		return &gen.SyntaxError{Offset: s.read, Msg: what + ": unexpected end of JSON input"}
	case err != nil:
		return err
	}
	return &gen.SyntaxError{Offset: s.read, Msg: what}
}
