package dashboard_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake/faketest"
)

// Export writes every dashboard page of a result into one workbook, a
// sheet per page, writing each page's sheet as soon as the page is merged.
func ExampleExport() {
	srv, clock := faketest.StartInstantServer()
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.Experiments.RunSync(ctx, 10303)
	if err != nil {
		log.Fatal(err)
	}
	var out bytes.Buffer
	progress := func(p dashboard.Progress) {
		if p.Stage == dashboard.Written {
			fmt.Printf("page %d/%d %s written\n", p.Index, p.Total, p.Page.Name)
		}
	}
	err = dashboard.Export(ctx, c, run.ExperimentResultId, &out, &dashboard.Options{Progress: progress})
	if err != nil {
		log.Fatal(err)
	}
	book, err := excelize.OpenReader(&out)
	if err != nil {
		log.Fatal(err)
	}
	defer book.Close()
	fmt.Println(book.GetSheetList())
	// Output:
	// page 1/3 Overview written
	// page 2/3 Costs written
	// page 3/3 Service written
	// [Overview Costs Service]
}
