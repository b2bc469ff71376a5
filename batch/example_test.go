package batch_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake/faketest"
	"github.com/scmodel/scmgo/resultdata/parquetfile"
)

// A batch of two items: one finishes and exports its dashboard, the other
// runs scenario 104, whose runs fail. A second batch of the same plan reads
// the state file and sends nothing again.
func ExampleRunner() {
	srv, clock := faketest.StartInstantServer()
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "scm-batch")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "plan.yaml")
	err = os.WriteFile(path, []byte(`project: 1
items:
  - {name: baseline, scenario: 101, experiment: GFA, export: {dashboard: baseline.xlsx}}
  - {name: broken, scenario: 104, experiment: SIMULATION}
`), 0o644)
	if err != nil {
		log.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for range 2 {
		plan, err := batch.ReadPlan(path)
		if err != nil {
			log.Fatal(err)
		}
		r, err := batch.NewRunner(c, plan, &batch.Options{Parallel: 2})
		if err != nil {
			log.Fatal(err)
		}
		summary, err := r.Run(ctx)
		if err != nil {
			log.Fatal(err)
		}
		for _, it := range summary.Items {
			fmt.Println(it.Name, it.Status, it.ScenarioID, it.State.RcID, it.Outputs)
		}
		fmt.Println("runs started:", srv.Applied("runExperiment"))
	}
	// Output:
	// baseline done 101 10101 [baseline.xlsx]
	// broken failed 104 10403 []
	// runs started: 2
	// baseline done 101 10101 [baseline.xlsx]
	// broken failed 104 10403 []
	// runs started: 2
}

// A plan's mistakes are reported with their line and field, before anything
// is sent.
func ExampleParsePlan() {
	_, err := batch.ParsePlan("plan.yaml", []byte(`project: 1
items:
  - name: baseline
    scenario: 101
    experiment: SIMULATON
`))
	fmt.Println(err)
	// Output:
	// plan.yaml:5: items[0].experiment: "SIMULATON" is not an experiment type; want one of GFA, GFA_WITH_ROADS, SIMULATION, NETWORK_OPTIMIZATION, VARIATION, COMPARISON, SAFETY_STOCK, RISK_ANALYSIS, LAST_MILE_OPTIMIZATION
}

// A batch writes every item's rows into one Parquet dataset, each record
// keyed by its item, scenario and run configuration.
func ExampleDataset() {
	srv, clock := faketest.StartInstantServer()
	defer srv.Close()
	c, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey), facade.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "scm-batch")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	plan, err := batch.ParsePlan(filepath.Join(dir, "plan.yaml"), []byte(`project: 1
items:
  - {name: baseline, scenario: 101, experiment: GFA}
  - {name: simulation, scenario: 103, experiment: SIMULATION}
`))
	if err != nil {
		log.Fatal(err)
	}

	format := &batch.DataFormat{Name: "parquet", Ext: ".parquet", NewWriter: parquetfile.NewKeyedLong, Concat: parquetfile.Concat}
	data := &batch.Dataset{Path: filepath.Join(dir, "results.parquet"), Format: format}
	r, err := batch.NewRunner(c, plan, &batch.Options{Data: data})
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	summary, err := r.Run(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range summary.Items {
		fmt.Println(it.Name, it.Status, filepath.Base(it.State.Data.File), it.State.Data.Rows > 0)
	}
	fmt.Println("items in the dataset:", summary.Data.Items, summary.Data.Err)

	// What a reader of the file finds: the records of each item.
	records, err := parquet.ReadFile[struct {
		Item     string `parquet:"item"`
		RcID     int64  `parquet:"rc_id"`
		ResultID int64  `parquet:"result_id"`
	}](data.Path)
	if err != nil {
		log.Fatal(err)
	}
	perItem := map[string]int64{}
	for _, rec := range records {
		perItem[rec.Item]++
	}
	fmt.Println(perItem["baseline"] == summary.Items[0].State.Data.Records, perItem["simulation"] == summary.Items[1].State.Data.Records)
	// Output:
	// baseline done baseline.parquet true
	// simulation done simulation.parquet true
	// items in the dataset: 2 <nil>
	// true true
}
