package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/scmodel/scmgo/dashboard"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// itemFacts is what the fake and the output directory say of one item.
type itemFacts struct {
	Name      string
	Scenarios []ids.ScenarioID // of the item's name: imports that took effect
	Results   []ids.ExperimentResultID
	// Runs are the SIMULATION runs its scenarios list that the busy
	// process did not start: the item's runs.
	Runs int
	// Busy are the runs of its scenario the busy process started.
	Busy int
	// Export is the state of the item's workbook: own, other, missing or
	// unreadable (with why).
	Export string
}

// Export states.
const (
	exportOwn     = "own"
	exportOther   = "not its own"
	exportMissing = "missing"
)

// facts reads every item's facts from the fake and from outDir; busy are
// the runs another process started, which are no item's.
func facts(ctx context.Context, c *facade.Client, outDir string, n int, busy map[ids.ExperimentResultID]string) ([]itemFacts, error) {
	scenarios, err := c.Scenarios.List(ctx, 1)
	if err != nil {
		return nil, fmt.Errorf("listing the scenarios of project 1: %w", err)
	}
	byName := map[string][]ids.ScenarioID{}
	for _, s := range scenarios {
		name := ""
		if s.Name != nil {
			name = *s.Name
		}
		byName[name] = append(byName[name], s.Id)
	}
	out := make([]itemFacts, n)
	for i := range n {
		f := itemFacts{Name: itemName(i), Scenarios: byName[scenarioName(i)]}
		for _, id := range f.Scenarios {
			runs, err := c.Experiments.Runs(ctx, id)
			if err != nil {
				return nil, fmt.Errorf("%s: listing the runs of scenario %d: %w", f.Name, id, err)
			}
			for _, r := range runs {
				switch {
				case r.Type != gen.ExperimentTypeSIMULATION:
				case busy[r.RcId] != "":
					f.Busy++
				default:
					f.Runs++
					f.Results = append(f.Results, r.RcId)
				}
			}
		}
		if f.Export, err = exportState(ctx, c, filepath.Join(outDir, exportName(i)), f.Results); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		out[i] = f
	}
	return out, nil
}

// exportState compares the workbook at path with a fresh export of the
// item's own result: own when their cells are the same. An item with no
// run or several has no single result of its own: its workbook is not its
// own.
func exportState(ctx context.Context, c *facade.Client, path string, results []ids.ExperimentResultID) (string, error) {
	got, err := readCells(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return exportMissing, nil
	case err != nil:
		return "unreadable: " + err.Error(), nil
	case len(results) != 1:
		return exportOther, nil
	}
	want, err := exportCells(ctx, c, results[0])
	if err != nil {
		return "", fmt.Errorf("exporting result %d again: %w", results[0], err)
	}
	if !slices.Equal(got, want) {
		return exportOther, nil
	}
	return exportOwn, nil
}

// exportCells exports a result's dashboard now and returns its cells.
func exportCells(ctx context.Context, c *facade.Client, result ids.ExperimentResultID) ([]string, error) {
	var buf bytes.Buffer
	if err := dashboard.Export(ctx, c, result, &buf, nil); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return cells(f)
}

// readCells returns every cell of the workbook at path: sheet, row,
// column and value, in order.
func readCells(path string) ([]string, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return cells(f)
}

func cells(f *excelize.File) ([]string, error) {
	var out []string
	for _, sheet := range f.GetSheetList() {
		rows, err := f.GetRows(sheet)
		if err != nil {
			return nil, fmt.Errorf("sheet %q: %w", sheet, err)
		}
		for r, row := range rows {
			out = append(out, fmt.Sprintf("%s!%d: %s", sheet, r+1, strings.Join(row, "\t")))
		}
	}
	return out, nil
}

// checkTellsApart checks that the export check can fail: the first
// workbook that is its item's own, compared with another item's result,
// must not pass as that item's own.
func checkTellsApart(ctx context.Context, c *facade.Client, outDir string, items []itemFacts) error {
	own, other := -1, -1
	for i, f := range items {
		switch {
		case own < 0 && f.Export == exportOwn:
			own = i
		case other < 0 && len(f.Results) == 1:
			other = i
		}
	}
	if own < 0 || other < 0 {
		return errors.New("the export check could not be checked: no item exported its own result, or no other item has a single result")
	}
	state, err := exportState(ctx, c, filepath.Join(outDir, exportName(own)), items[other].Results)
	if err != nil {
		return err
	}
	if state == exportOwn {
		return fmt.Errorf("the export check cannot tell results apart: %s's workbook passes as %s's result %d",
			items[own].Name, items[other].Name, items[other].Results[0])
	}
	return nil
}

// strayFiles lists the files in outDir that are no item's workbook, such
// as the .partial files of a killed writer.
func strayFiles(outDir string, n int) ([]string, error) {
	want := map[string]bool{}
	for i := range n {
		want[exportName(i)] = true
	}
	entries, err := os.ReadDir(outDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var stray []string
	for _, e := range entries {
		if !want[e.Name()] {
			stray = append(stray, e.Name())
		}
	}
	return stray, nil
}
