package batch

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/atomicfile"
)

// DefaultParallel is how many items run at once when Options.Parallel is
// zero.
const DefaultParallel = 2

// Options are the optional settings of a [Runner].
type Options struct {
	// Parallel is how many items are worked on at once; zero means
	// DefaultParallel. An item waiting for a run configuration that another
	// item of the batch is running does not count.
	Parallel int
	// StopOnCancel stops the runs (and cancels the import jobs) under way
	// when ctx ends; a resume starts them anew. Without it they go on, and
	// a resume waits for them.
	StopOnCancel bool
	// RetryFailed works again on the items that failed in an earlier
	// batch: a failed job or run is started anew, other steps are repeated;
	// an import or start of unknown outcome is sent again when what the
	// server shows still does not settle it. Without it failed items are
	// skipped, and unknown ones only looked for again.
	RetryFailed bool
	// StatePath is the state file; empty means [Plan.StatePath].
	StatePath string
	// Poll paces the polling of jobs and runs; nil means the client's.
	Poll *facade.PollPolicy
	// MaxRunLength is the longest a run takes, as the user knows it, for
	// the items whose plan declares none (Plan.MaxRunLength,
	// Item.MaxRunLength). With it, a start whose answer was lost can be
	// ruled out (facade.WaitOptions.MaxRunLength) and sent again, once;
	// without it, such a start is begun or unknown, never sent again by the
	// batch. Zero means not declared; at most [MaxRunLengthBound].
	MaxRunLength time.Duration
	// StaleWindow is how long the server's status may lag behind a start
	// (facade.WaitOptions.StaleWindow), for the items whose plan declares
	// none: a run's end is taken as its start's once settled for that
	// long, and a lost start is settled within it (plus MaxRunLength).
	// Zero means facade.DefaultStaleWindow; at most [StaleWindowBound].
	StaleWindow time.Duration
	// Clock paces the batch's own pauses (an item that waits for a run it
	// did not start) and, when Now is nil, times its items; nil means the
	// system's. Give the client's clock (facade.WithClock) so that both
	// keep one time.
	Clock clock.Clock
	// Progress, when set, receives every step and state change of every
	// item, one call at a time.
	Progress func(Event)
	// Now is the clock of the durations; nil means Clock's.
	Now func() time.Time
	// Data, when set, writes the rows of every item's result into one
	// dataset: each item's to a part of its own as it ends, recorded in
	// the state file before the item is done, and the dataset from the
	// parts of every item done when the batch ends. Items done by an
	// earlier batch whose part is not recorded, or not there, are worked
	// on again to write it (and nothing else). See the package
	// documentation.
	Data *Dataset
}

// Step is a stage of an item.
type Step string

// The steps of an item, in order.
const (
	StepImport     Step = "import"
	StepExperiment Step = "experiment"
	// StepQueue: the item waits for its run configuration (rcId): another
	// item of the batch is running it, or it has a run under way that the
	// batch did not start (another process's); State says which.
	StepQueue  Step = "queue"
	StepRun    Step = "run"
	StepResult Step = "result"
	StepExport Step = "export"
	// StepData: the item's rows are being written to its part of the
	// dataset; State says which page.
	StepData Step = "data"
	StepEnd  Step = "end"
)

// Event is a change in an item: the step it is at, the state the server
// reported and the progress of the step.
type Event struct {
	Item    string
	Step    Step
	Status  Status  // the item's status; Done, Failed, Unknown or Interrupted at StepEnd
	State   string  // the job's or run's state, or the page being exported
	Percent float64 // the step's progress, 0 to 100, when Measured
	// Measured: Percent measures the step's progress (an import's, an
	// export's pages). A run's is measured only when the server reports
	// progress, which a real server does not: show its elapsed time.
	Measured bool
	// Since is when the step's work began (a run's start, a queue's
	// first wait), so that a display can show its elapsed time as it
	// grows; zero when not known.
	Since time.Time
	Err   error // why it failed, at StepEnd
}

// Runner runs a plan's items with bounded concurrency and records every id
// in the state file as soon as it is known. Started again on the same state
// file, it goes on where the last batch stopped. See the package
// documentation for what it does when a call's outcome is unknown.
type Runner struct {
	c    *facade.Client
	plan *Plan
	opts Options
	st   *store
	path string
	gate *rcGate // set by Run
	data *dataset
	// dataFS is the file system of the dataset and its parts; nil means
	// the operating system's.
	dataFS atomicfile.FS

	emitMu sync.Mutex
}

// NewRunner prepares a batch of plan on c. It checks the plan as ReadPlan
// does ([Plan.Check]), so a plan built in code obeys the same rules. It reads the state file when
// there is one, and fails when an item begun there has changed in the plan.
// opts may be nil.
func NewRunner(c *facade.Client, plan *Plan, opts *Options) (*Runner, error) {
	if err := plan.Check(); err != nil {
		return nil, err
	}
	r := &Runner{c: c, plan: plan}
	if opts != nil {
		r.opts = *opts
	}
	if r.opts.Parallel <= 0 {
		r.opts.Parallel = DefaultParallel
	}
	if err := r.opts.checkBounds(); err != nil {
		return nil, err
	}
	if r.opts.Clock == nil {
		r.opts.Clock = clock.Real{}
	}
	if r.opts.Now == nil {
		r.opts.Now = r.opts.Clock.Now
	}
	data, err := newDataset(r.opts.Data, plan)
	if err != nil {
		return nil, err
	}
	r.data = data
	r.path = r.opts.StatePath
	if r.path == "" {
		r.path = plan.StatePath()
	}
	st, err := openStore(r.path, plan)
	if err != nil {
		return nil, err
	}
	if err := st.checkTokens(c, plan); err != nil {
		return nil, err
	}
	r.st = st
	return r, nil
}

// StatePath is the state file the runner writes.
func (r *Runner) StatePath() string { return r.path }

// State returns what the state file records of an item.
func (r *Runner) State(item string) ItemState { return r.st.get(item) }

// Run works on every item that is not done, at most Options.Parallel at a
// time, and returns the summary. A failed item does not stop the others.
// When ctx ends, the items under way are recorded as interrupted, those not
// begun stay pending, and Run returns. With Options.Data, the dataset is
// then written from the parts of the items done, whether ctx ended or not
// (Summary.Data says how it went). The error is for the batch as a whole:
// the state file could not be locked or written.
func (r *Runner) Run(ctx context.Context) (*Summary, error) {
	unlock, err := lockFile(lockPath(r.path))
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := r.removeLeftovers(); err != nil {
		return nil, err
	}
	if err := r.st.flush(); err != nil {
		return nil, err // the state file cannot be written: send nothing
	}
	r.gate = newRCGate(r.runsUnderWay())
	slots := make(chan struct{}, r.opts.Parallel)
	var wg sync.WaitGroup
	for _, it := range r.plan.Items {
		retry, ok := r.due(it)
		if !ok {
			continue
		}
		sl := &slot{c: slots}
		if sl.take(ctx) != nil || ctx.Err() != nil {
			sl.give()
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer sl.give()
			(&worker{r: r, it: it, retry: retry, slot: sl}).run(ctx)
		}()
	}
	wg.Wait()
	sum := r.summary()
	if r.data != nil {
		sum.Data = r.writeDataset()
	}
	return sum, nil
}

// runsUnderWay returns, per rcId, the items to work on whose run was sent or
// started and has not ended: they use their run configuration first.
func (r *Runner) runsUnderWay() map[ids.RcID]map[string]bool {
	first := map[ids.RcID]map[string]bool{}
	for _, it := range r.plan.Items {
		st := r.st.get(it.Name)
		if _, due := r.due(it); !due || st.RcID == 0 || !(st.RunSent || st.RunStarted) || st.RunState != "" {
			continue
		}
		if first[st.RcID] == nil {
			first[st.RcID] = map[string]bool{}
		}
		first[st.RcID][it.Name] = true
	}
	return first
}

// due reports whether an item is to be worked on, and whether as a retry.
func (r *Runner) due(it Item) (retry, ok bool) {
	st := r.st.get(it.Name)
	switch st.Status {
	case Done:
		return false, r.data != nil && !r.data.hasPart(it.Name, st) // its rows only
	case Failed:
		return true, r.opts.RetryFailed
	case Unknown:
		return r.opts.RetryFailed, true // looking again sends nothing
	}
	return false, true
}

func (r *Runner) emit(e Event) {
	if r.opts.Progress == nil {
		return
	}
	r.emitMu.Lock()
	defer r.emitMu.Unlock()
	r.opts.Progress(e)
}

func lockPath(statePath string) string { return statePath + ".lock" }

// errInterrupted marks a step that ctx ended.
var errInterrupted = errors.New("interrupted")
