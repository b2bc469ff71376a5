package facade_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
)

// A page export whose body is cut off after part of it was read: the
// fake, like the real server as far as it was seen, takes no Range
// requests, so the download cannot go on and says how far it got.
// Download.ReadAll, which hands out nothing before the end, fetches such a
// page again instead.
func ExampleRequestError_download() {
	srv, c := setup()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	result, err := c.Experiments.RunSync(ctx, 10101)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate})

	pages, err := c.Dashboards.Pages(ctx, result.ExperimentResultId)
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := c.Dashboards.ExportPage(ctx, result.ExperimentResultId, pages[0].Id) // its first page
	if err != nil {
		fmt.Println(err)
		return
	}
	var page bytes.Buffer
	_, err = d.WriteTo(&page)
	var dlErr *facade.RequestError
	fmt.Println(errors.As(err, &dlErr), dlErr.Broken.Delivered == int64(page.Len()), dlErr.Broken.Delivered < dlErr.Broken.Size)
	fmt.Println(dlErr.Broken.Reason)
	// Output:
	// true true true
	// the server does not support resuming (its answer had no Accept-Ranges: bytes)
}

// ReadAll reads a download whole into memory. It hands out nothing before
// the end, so a page whose answer breaks off is fetched again from its
// first byte, and its progress starts over at 0.
func ExampleDownload_ReadAll() {
	srv, c := setup()
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	result, err := c.Experiments.RunSync(ctx, 10101)
	if err != nil {
		fmt.Println(err)
		return
	}
	srv.InjectFault("exportDashboardPage", fake.Fault{Kind: fake.FaultTruncate})

	pages, err := c.Dashboards.Pages(ctx, result.ExperimentResultId)
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := c.Dashboards.ExportPage(ctx, result.ExperimentResultId, pages[0].Id) // its first page
	if err != nil {
		fmt.Println(err)
		return
	}
	starts, last := 0, int64(0)
	book, err := d.ReadAll(func(received, size int64) {
		if received == 0 {
			starts++
		}
		last = received
	})
	fmt.Println(err, strings.HasPrefix(string(book), "PK"), last == int64(len(book)))
	fmt.Println("started", starts, "times; requests:", srv.Calls("exportDashboardPage"))
	// Output:
	// <nil> true true
	// started 2 times; requests: 2
}
