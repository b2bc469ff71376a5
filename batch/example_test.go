package batch_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake/faketest"
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

	for range 2 {
		plan, err := batch.ReadPlan(path)
		if err != nil {
			log.Fatal(err)
		}
		r, err := batch.NewRunner(c, plan, &batch.Options{Parallel: 2})
		if err != nil {
			log.Fatal(err)
		}
		summary, err := r.Run(context.Background())
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
