package facade

import (
	"context"
	"io"
	"net/http"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/internal/gendecode"
	"github.com/scmodel/scmgo/internal/jsondec"
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
			if err := gendecode.DecodeAnswerWith(batch, &part, c.decodeOptions(ctx, cl.op)); err != nil {
				return err
			}
			list = append(list, part...)
			return nil
		})
	})
	return list, err
}

// listBatch is the size of the text of the elements decoded together.
const listBatch = 256 << 10

// decodeList hands the elements of the JSON list in body to each, a batch
// at a time, as the text of a JSON list of them (jsondec.EachBatch frames
// them). An answer that is not a list (null, or another JSON type) is
// decoded whole into list, as any answer is, so that it is reported as
// other answers are. A malformed answer is a *gen.SyntaxError with its
// offset in the answer; ctx stops the decoding between batches and within
// one.
func (c *Client) decodeList(ctx context.Context, op gen.Operation, body io.Reader, list any, each func(batch []byte) error) error {
	return jsondec.EachBatch(body, listBatch, func(batch []byte, _ int64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return each(batch)
	}, func(doc []byte) error {
		return c.decodeAnswer(ctx, op, doc, list)
	})
}
