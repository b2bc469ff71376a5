package facade_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// A page export whose body is cut off after part of it was read: the
// fake, like the real server as far as it was seen, takes no Range
// requests, so the download cannot go on and says how far it got.
// ExportDashboard, which reads each page whole first, fetches such a page
// again instead.
func ExampleDownloadError() {
	srv, c := setup()
	defer srv.Close()
	ctx := context.Background()
	result, err := c.Experiments.RunSync(ctx, 10101)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate})

	d, err := c.Results.ExportPage(ctx, result.ExperimentResultId, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	var page bytes.Buffer
	_, err = d.WriteTo(&page)
	var dlErr *facade.DownloadError
	fmt.Println(errors.As(err, &dlErr), dlErr.Delivered == int64(page.Len()), dlErr.Delivered < dlErr.Size)
	fmt.Println(dlErr.Reason)

	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate})
	var book bytes.Buffer
	err = c.Results.ExportDashboard(ctx, result.ExperimentResultId, &book, nil)
	fmt.Println(err, strings.HasPrefix(book.String(), "PK"))
	// Output:
	// true true true
	// the server does not support resuming (its answer had no Accept-Ranges: bytes)
	// <nil> true
}
