package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/xuri/excelize/v2"
)

// itemName is the name of item i, and of the scenario it imports.
func itemName(i int) string { return fmt.Sprintf("item-%03d", i) }

// scenarioName is the name item i gives the scenario it imports.
func scenarioName(i int) string { return "e2e-" + itemName(i) }

// exportName is the dashboard workbook of item i, relative to the output
// directory.
func exportName(i int) string { return itemName(i) + ".xlsx" }

// writePlan writes dir/plan.yaml, a plan of n items on the fake's project
// 1, and dir/input.xlsx, the workbook every item imports; exports go to
// dir/out.
func writePlan(dir string, n int) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := writeWorkbook(filepath.Join(dir, "input.xlsx")); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("# The end-to-end plan: every item imports input.xlsx as a scenario of its own,\n# runs its SIMULATION and exports the dashboard.\nproject: 1\noutput: out\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - name: %s\n    workbook: input.xlsx\n    scenarioName: %s\n    experiment: SIMULATION\n    export:\n      dashboard: %s\n",
			itemName(i), scenarioName(i), exportName(i))
	}
	path := filepath.Join(dir, "plan.yaml")
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

// writeWorkbook writes a workbook of one small sheet, Customers.
func writeWorkbook(path string) error {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Customers"); err != nil {
		return err
	}
	for i, row := range [][]any{{"Id", "Name"}, {1, "Acme"}, {2, "Globex"}} {
		if err := f.SetSheetRow("Customers", fmt.Sprintf("A%d", i+1), &row); err != nil {
			return err
		}
	}
	return f.SaveAs(path)
}
