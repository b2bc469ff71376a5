package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// batchOutcome is what `scm batch` reported: each item's state, and how
// long it took.
type batchOutcome struct {
	states map[string]string // item -> state (done, failed, ...)
	wall   time.Duration
	exit   error
}

// runBatch runs `scm batch --parallel P --format csv PLAN` against the
// fake and reads its summary. Its output goes to dir/scm-batch.log.
func runBatch(ctx context.Context, scm, plan string, parallel int, f *fakeServer, dir string) (batchOutcome, error) {
	var stdout bytes.Buffer
	logf, err := os.Create(filepath.Join(dir, "scm-batch.log"))
	if err != nil {
		return batchOutcome{}, err
	}
	defer logf.Close()
	cmd := exec.CommandContext(ctx, scm, "batch", "--parallel", strconv.Itoa(parallel), "--format", "csv", plan)
	cmd.Env = append(os.Environ(), f.env()...)
	cmd.Stdout, cmd.Stderr = &stdout, logf
	began := time.Now()
	exit := cmd.Run()
	out := batchOutcome{wall: time.Since(began), exit: exit, states: map[string]string{}}
	fmt.Fprintf(logf, "\n-- summary --\n%s", stdout.String())
	rows, err := csv.NewReader(&stdout).ReadAll()
	if err != nil {
		return out, fmt.Errorf("scm batch's summary (exit %v): %w", exit, err)
	}
	for _, row := range rows[min(1, len(rows)):] { // item, scenario, state, duration, outputs, error
		if len(row) >= 3 {
			out.states[row[0]] = row[2]
		}
	}
	return out, nil
}
