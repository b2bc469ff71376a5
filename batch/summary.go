package batch

import (
	"time"

	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/tally"
)

// Summary is how every item of a plan stands after a batch.
type Summary struct {
	Items []ItemSummary
	// Queued is how many items waited for a run configuration that another
	// item of the batch was running.
	Queued int
	// Data is how the dataset stands, when the batch writes one
	// (Options.Data); nil otherwise.
	Data *DataSummary
}

// ItemSummary is how one item stands.
type ItemSummary struct {
	Name       string
	ScenarioID ids.ScenarioID
	Status     Status
	// Duration runs from the item's first start to its end, or to now
	// when it has not ended; zero when it never started.
	Duration time.Duration
	Outputs  []string
	Error    string
	// Queued: the item waited for its run configuration, which another
	// item of the batch was running.
	Queued bool
	// State is everything the state file records of the item.
	State ItemState
}

// OK reports whether every item is done and, when the batch writes a
// dataset, it was written.
func (s *Summary) OK() bool {
	return s.Count(Done) == len(s.Items) && (s.Data == nil || s.Data.Err == nil)
}

// Count returns how many items have the status.
func (s *Summary) Count(status Status) int {
	return tally.Count(s.Items, func(it ItemSummary) Status { return it.Status }, status)
}

func (r *Runner) summary() *Summary {
	now := r.opts.Now()
	sum := &Summary{}
	for _, it := range r.plan.Items {
		st := r.st.get(it.Name)
		row := ItemSummary{Name: it.Name, ScenarioID: st.ScenarioID, Status: st.Status, Outputs: st.Outputs, Error: st.Error, State: st,
			Queued: r.gate.waited(it.Name)}
		if row.Queued {
			sum.Queued++
		}
		switch {
		case st.Started != nil && st.Ended != nil:
			row.Duration = st.Ended.Sub(*st.Started)
		case st.Started != nil:
			row.Duration = now.Sub(*st.Started)
		}
		sum.Items = append(sum.Items, row)
	}
	return sum
}
