// Package pagedownload is the walk of a result's dashboard pages that
// package dashboard and package resultdata share ([Walk]): the pages
// listed, each a step of the client's observer, each page's workbook
// downloaded whole within a bound of bytes ([Read]), the next one ahead
// when the caller asks, and handed over in order; the errors name the
// page. It is apart from package xlsxpage, which reads the workbook, so
// that the fake server, which the facade's tests import, can read
// workbooks without linking the facade.
package pagedownload

import (
	"context"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/xlsxpage"
)

// Read reads a page's workbook whole, within max bytes: a download that
// says it is longer is refused before a byte of it is read, one that turns
// out to be is stopped as soon as it goes past, and one that arrived whole
// before the stop took effect is refused all the same.
// Its progress goes to report, which may be nil.
func Read(ctx context.Context, c *facade.Client, resultID ids.ExperimentResultID, page ids.PageID, max int64, report func(received, size int64)) ([]byte, error) {
	tooLong := &xlsxpage.LimitExceeded{Name: "PageBytes", Max: max, What: "its workbook's download"}
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	d, err := c.Dashboards.ExportPage(ctx, resultID, page)
	if err != nil {
		return nil, err
	}
	if d.ContentLength > max {
		// Refused before a byte is read: stopping the read from its first
		// progress report would race the bytes already buffered.
		d.Close()
		return nil, tooLong
	}
	data, err := d.ReadAll(func(received, size int64) {
		if received > max || size > max {
			stop(tooLong)
		}
		if report != nil {
			report(received, size)
		}
	})
	if err != nil && context.Cause(ctx) == tooLong || err == nil && int64(len(data)) > max {
		return nil, tooLong
	}
	return data, err
}
