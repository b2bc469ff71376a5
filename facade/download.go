package facade

import (
	"context"
	"io"
	"mime"
)

// Download is a workbook streamed from the server. Read it or call WriteTo,
// and Close it; it is never buffered whole.
type Download struct {
	io.ReadCloser
	ContentType   string
	ContentLength int64  // -1 when unknown
	Filename      string // from Content-Disposition, "" when none
}

// WriteTo copies the whole workbook to w and closes the download.
func (d *Download) WriteTo(w io.Writer) (int64, error) {
	defer d.Close()
	return io.Copy(w, d.ReadCloser)
}

var _ io.WriterTo = (*Download)(nil)

func (c *Client) download(ctx context.Context, cl call) (*Download, error) {
	resp, err := c.do(ctx, cl, nil)
	if err != nil {
		return nil, err
	}
	d := &Download{ReadCloser: resp.Body, ContentType: resp.Header.Get("Content-Type"), ContentLength: resp.ContentLength}
	if _, params, err := mime.ParseMediaType(resp.Header.Get("Content-Disposition")); err == nil {
		d.Filename = params["filename"]
	}
	return d, nil
}
