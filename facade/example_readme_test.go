package facade_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
)

// report runs a project's simulation the way real clients do and writes every
// dashboard page of its result into one workbook, a sheet per page.
func report(ctx context.Context, c *facade.Client, projectName string, out io.Writer) error {
	project, err := c.Projects.OpenByName(ctx, projectName, nil)
	if err != nil {
		return err
	}
	scenarios, err := c.Scenarios.List(ctx, project.Id)
	if err != nil {
		return err
	}
	sim := slices.IndexFunc(scenarios, func(s gen.ApiScenarioData) bool { return s.Type == gen.ScenarioTypeSIM })
	if sim < 0 {
		return fmt.Errorf("project %q has no simulation scenario", projectName)
	}
	experiments, err := c.Experiments.List(ctx, project.Id, scenarios[sim].Id)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(experiments, func(e gen.ApiBasicRunConfiguration) bool { return e.Type == gen.ExperimentTypeSIMULATION })
	if i < 0 {
		return fmt.Errorf("scenario %d has no simulation experiment", scenarios[sim].Id)
	}
	run, err := c.Experiments.RunSync(ctx, experiments[i].Id) // returns when done; a run that could not start is a *facade.StateError
	if err != nil {
		return err
	}
	return dashboard.Export(ctx, c, run.ExperimentResultId, out, nil)
}

// The README's first snippet, run against the fake.
func Example_report() {
	srv, c := setup()
	defer srv.Close()
	var out bytes.Buffer
	if err := report(context.Background(), c, "Retail Network", &out); err != nil {
		log.Fatal(err)
	}
	book, err := excelize.OpenReader(&out)
	if err != nil {
		log.Fatal(err)
	}
	defer book.Close()
	fmt.Println(book.GetSheetList())
	// Output: [Overview Costs Service]
}

// TestReadmeSnippetIsExampleReport keeps the README's snippet and report
// above the same code.
func TestReadmeSnippetIsExampleReport(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("example_readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	snippet := regexp.MustCompile("(?s)```go\n(// report .*?\n})\n```").FindSubmatch(readme)
	if snippet == nil {
		t.Fatal("README.md has no go snippet starting with // report")
	}
	if !strings.Contains(string(self), string(snippet[1])) {
		t.Errorf("the README's snippet differs from report in example_readme_test.go:\n%s", snippet[1])
	}
}
