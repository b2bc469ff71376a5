package scmtemporal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/scmodel/scmgo/batch"
	"github.com/scmodel/scmgo/internal/atomicfile"
	"github.com/scmodel/scmgo/internal/tally"
)

// maxWaiters bounds the workflows Wait waits for at once (a long poll
// each).
const maxWaiters = 64

// Wait waits for every workflow of the plan and returns their summary, in
// the plan's order, calling PlanOptions.Progress as items end. An error of
// the wait itself (the service cutting its long poll, a connection lost)
// is not the item's: the wait goes on, up to maxWaitFailures such errors
// in a row. When ctx ends first, or the waits keep failing, it returns the
// summary with every item not seen ending as [ItemNotEnded], and the
// error. With PlanOptions.Data it then writes the dataset from the parts
// of the items done (Summary.Data).
func (p *PlanRun) Wait(ctx context.Context) (*Summary, error) {
	s := &Summary{Items: make([]ItemOutcome, len(p.runs))}
	for i := range p.runs {
		s.Items[i] = ItemOutcome{StartedItem: p.Items[i], Result: ItemResult{Name: p.inputs[i].Name, ScenarioID: p.inputs[i].ScenarioID}, Status: ItemNotEnded}
	}
	waitErr := p.waitAll(ctx, s)
	if p.opts.Data != "" {
		s.Data = p.writeDataset(s)
	}
	return s, waitErr
}

// waitAll waits for the workflows, maxWaiters at a time, and fills s in.
// The first error of a wait's own ends the others.
func (p *PlanRun) waitAll(parent context.Context, s *Summary) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	var (
		mu      sync.Mutex
		waitErr error
		next    int
		wg      sync.WaitGroup
	)
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		next++
		return next - 1
	}
	for range min(maxWaiters, len(p.runs)) {
		wg.Go(func() {
			for i := take(); i < len(p.runs) && ctx.Err() == nil; i = take() {
				var res ItemResult
				ended, err := waitFor(ctx, p.runs[i], &res)
				mu.Lock()
				if err != nil {
					waitErr = cmpErr(waitErr, err)
					cancel()
				} else {
					p.ended(s, i, res, ended)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if waitErr == nil && parent.Err() != nil && s.Count(ItemNotEnded) > 0 {
		waitErr = fmt.Errorf("scmtemporal: waiting for the plan's workflows: %w", context.Cause(parent))
	}
	return waitErr
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// ended records how item i ended and reports the progress; the caller
// holds the lock.
func (p *PlanRun) ended(s *Summary, i int, res ItemResult, err error) {
	out := &s.Items[i]
	out.Err, out.Status = err, statusOf(err)
	if err == nil {
		out.Result = res
	}
	if p.opts.Progress != nil {
		p.opts.Progress(&Summary{Items: append([]ItemOutcome(nil), s.Items...)})
	}
}

// maxWaitFailures bounds the errors in a row of the wait for one workflow
// that are the wait's own, not the workflow's.
const maxWaitFailures = 10

// waitFor waits for a workflow's end and returns how it ended (nil: done;
// else the workflow's error). The second error is the wait's own: ctx
// ended, or the service kept failing the wait.
func waitFor(ctx context.Context, r client.WorkflowRun, res *ItemResult) (ended, waitErr error) {
	pause := time.Duration(0)
	for failures := 1; ; failures++ {
		err := r.Get(ctx, res)
		var svcErr serviceerror.ServiceError
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("scmtemporal: waiting for %s: %w", r.GetID(), context.Cause(ctx))
		case err == nil || !errors.As(err, &svcErr):
			return err, nil
		case failures == maxWaitFailures:
			return nil, fmt.Errorf("scmtemporal: waiting for %s failed %d times in a row: %w", r.GetID(), failures, err)
		}
		t := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("scmtemporal: waiting for %s: %w", r.GetID(), context.Cause(ctx))
		case <-t.C:
		}
		pause = min(max(2*pause, time.Second), 30*time.Second)
	}
}

// writeDataset writes the plan's dataset from the parts of the items done,
// in the plan's order: whole or not at all (written beside it, synced,
// renamed).
func (p *PlanRun) writeDataset(s *Summary) *batch.DataSummary {
	sum := &batch.DataSummary{Path: p.opts.Data}
	f, err := p.opts.dataFormat()
	if err != nil {
		sum.Err = err
		return sum
	}
	var parts []string
	for i, it := range s.Items {
		if it.Status == ItemDone && p.inputs[i].Data != "" {
			parts = append(parts, p.inputs[i].Data)
			sum.Items, sum.Rows, sum.Records = sum.Items+1, sum.Rows+it.Result.DataRows, sum.Records+it.Result.DataRecords
		}
	}
	if err := os.MkdirAll(filepath.Dir(p.opts.Data), 0o755); err != nil {
		sum.Err = fmt.Errorf("scmtemporal: writing the dataset %s: %w", p.opts.Data, err)
		return sum
	}
	err = atomicfile.Write(p.opts.Data, func(w io.Writer) error {
		if len(parts) == 0 {
			return f.NewWriter(w, dataKeys("", 0, 0)).Close()
		}
		return f.Concat(w, parts)
	}, atomicfile.Output())
	if err != nil {
		sum.Err = fmt.Errorf("scmtemporal: writing the dataset %s from %d parts: %w", p.opts.Data, len(parts), err)
		return sum
	}
	sum.Written = true
	return sum
}

// ItemStatus is how an item's workflow ended.
type ItemStatus string

// The ends of an item.
const (
	ItemDone ItemStatus = "done"
	// ItemUnknown: whether a start whose answer was lost took effect, or
	// which run is its own, cannot be told; the error says what to check
	// on the server.
	ItemUnknown   ItemStatus = "unknown"
	ItemFailed    ItemStatus = "failed"
	ItemCancelled ItemStatus = "cancelled"
	// ItemNotEnded: Wait returned before the item's workflow was seen to
	// end (its context ended, or the service kept failing the wait); the
	// workflow may still be running.
	ItemNotEnded ItemStatus = "not ended"
)

func statusOf(err error) ItemStatus {
	var appErr *temporal.ApplicationError
	switch {
	case err == nil:
		return ItemDone
	case temporal.IsCanceledError(err):
		return ItemCancelled
	case errors.As(err, &appErr) && appErr.Type() == ErrTypeStartUnknown:
		return ItemUnknown
	}
	return ItemFailed
}

// ItemOutcome is how an item ended: its result, or the error its
// workflow failed with (and of the result only the item's name and, when
// the plan names one, its scenario).
type ItemOutcome struct {
	StartedItem
	Status ItemStatus
	Result ItemResult
	Err    error
}

// Summary is how a plan's items ended, in the plan's order, and the
// plan's dataset (nil without PlanOptions.Data).
type Summary struct {
	Items []ItemOutcome
	Data  *batch.DataSummary
}

// Count is how many items ended with the status.
func (s *Summary) Count(status ItemStatus) int {
	return tally.Count(s.Items, func(it ItemOutcome) ItemStatus { return it.Status }, status)
}

// Err is nil when every item is done and the dataset written, else an
// error counting the others.
func (s *Summary) Err() error {
	if done := s.Count(ItemDone); done < len(s.Items) {
		return fmt.Errorf("%d of %d items did not finish (%d failed, %d unknown, %d cancelled, %d not seen to end)",
			len(s.Items)-done, len(s.Items), s.Count(ItemFailed), s.Count(ItemUnknown), s.Count(ItemCancelled), s.Count(ItemNotEnded))
	}
	if s.Data != nil && s.Data.Err != nil {
		return s.Data.Err
	}
	return nil
}

// WriteTable writes the summary as a table: a row per item with its
// workflow, status, scenario, result, outputs and error.
func (s *Summary) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKFLOW\tSTATUS\tSCENARIO\tRESULT\tOUTPUTS\tERROR")
	for _, it := range s.Items {
		msg := ""
		if it.Err != nil {
			msg = it.Err.Error()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", it.WorkflowID, it.Status, it.Result.ScenarioID, it.Result.ExperimentResultID,
			strings.Join(it.Result.Outputs, ", "), msg)
	}
	return tw.Flush()
}
