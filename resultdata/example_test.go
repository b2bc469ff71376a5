package resultdata_test

import (
	"context"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/resultdata"
)

// Result reads every dashboard page of a result as rows: here the first
// points of the first graph chart (a series, a time, a number), and every
// row written in the long layout as CSV.
func ExampleResult() {
	srv, clock := faketest.StartInstantServer()
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.Experiments.RunSync(ctx, 10303)
	if err != nil {
		log.Fatal(err)
	}
	rows, charts := 0, map[string]bool{}
	for row, err := range resultdata.Result(ctx, c, run.ExperimentResultId, nil) {
		if err != nil {
			log.Fatal(err)
		}
		rows++
		charts[row.Chart.Page+"/"+row.Chart.Sheet] = true
		if row.Chart.Sheet == "Overview line 2" && row.Index <= 2 {
			fmt.Println(row.Chart.Type, "|", row.Values[0].Text, row.Values[1].Time.Format(time.DateOnly), row.Values[2].Kind)
		}
	}
	fmt.Println(rows, "rows of", len(charts), "charts")

	var out strings.Builder
	w := resultdata.NewCSV(&out)
	for row, err := range resultdata.Result(ctx, c, run.ExperimentResultId, nil) {
		if err != nil {
			log.Fatal(err)
		}
		if err := w.Write(row); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	records := strings.Split(strings.TrimSuffix(out.String(), "\r\n"), "\r\n") // RFC 4180 ends records with CRLF
	fmt.Println(records[0])
	fmt.Println(len(records)-1, "records: a value per record")
	// Output:
	// LINE | Plan 2024-01-01 number
	// LINE | Plan 2024-01-08 number
	// 222 rows of 6 charts
	// result_id,page_id,page,sheet,chart_type,statistics,chart_name,row,sheet_row,column,kind,number,time,text,bool
	// 816 records: a value per record
}

// The package doc's snippet: every row of a result of one page with one
// table chart of two rows.
func Example_packageDoc() {
	srv, clock := faketest.StartInstantServer(fake.WithResultSize(1, 1, 2))
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run, err := c.Experiments.RunSync(ctx, 10303)
	if err != nil {
		log.Fatal(err)
	}
	resultID := run.ExperimentResultId

	for row, err := range resultdata.Result(ctx, c, resultID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(row.Chart.Page, "|", row.Chart.Name, "|", row.Values[0], row.Values[1])
	}
	// Output:
	// Overview | Overview table 1 | R1 Name 1
	// Overview | Overview table 1 | R2 Name 2
}
