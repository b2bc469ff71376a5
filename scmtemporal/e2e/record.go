package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/fake"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/scmtemporal"
)

// recordMain is the record subcommand: it runs ItemWorkflow on a Temporal
// development server, against the fake in this process, through the ends
// an item can have (done, failed, unknown, cancelled, its worker killed
// mid-step, queued behind another process's run), and writes each
// workflow's history as JSON (the form `temporal workflow show --output
// json` writes) to -out, for the module's replay test.
func recordMain(args []string) error {
	fs := flag.NewFlagSet("e2e record", flag.ContinueOnError)
	cli := fs.String("temporal-cli", ".tools/temporal/temporal", "the Temporal CLI, for `temporal server start-dev`")
	out := fs.String("out", "scmtemporal/testdata/histories", "directory the histories are written to")
	dir := fs.String("dir", "", "work directory: workbooks, exports, logs (default: a new temporary one)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		var err error
		if *dir, err = os.MkdirTemp("", "scm-e2e-record-"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	dev, addr, err := startDevServer(ctx, *cli, *dir)
	if err != nil {
		return err
	}
	defer dev.stop(10 * time.Second)
	c, err := client.Dial(client.Options{HostPort: addr, Logger: quietLogger{}})
	if err != nil {
		return err
	}
	defer c.Close()
	self, err := os.Executable()
	if err != nil {
		return err
	}
	r := &recorder{c: c, addr: addr, self: self, dir: *dir, out: *out}
	if err := os.MkdirAll(r.out, 0o755); err != nil {
		return err
	}
	for _, rec := range recordings() {
		if err := r.record(ctx, rec); err != nil {
			return fmt.Errorf("recording %s: %w", rec.name, err)
		}
	}
	return nil
}

// recorder runs the recordings on one Temporal server.
type recorder struct {
	c                    client.Client
	addr, self, dir, out string
}

// recording is one item's workflow run to one of its ends.
type recording struct {
	name string
	fake []fake.Option
	item func(dir string) (scmtemporal.ItemInput, error)
	// before runs against the fake before the workflow starts.
	before func(ctx context.Context, fc *facade.Client) error
	// during runs while the workflow runs, on its worker (nil when that
	// worker is another process).
	during func(ctx context.Context, r *recorder, s *session) error
	// killable: the first worker is a process of its own, which during
	// may kill.
	killable bool
	want     enumspb.WorkflowExecutionStatus
}

// itemOptions are the options of every recorded item: a fake whose status
// lags half a second, polled every 200 ms.
var itemOptions = scmtemporal.Options{StaleWindow: time.Second, HeartbeatTimeout: 2 * time.Second,
	Poll: &facade.PollPolicy{MinInterval: 200 * time.Millisecond, MaxInterval: time.Second}}

// existing is an item that runs an existing scenario's experiment.
func existing(scenario ids.ScenarioID, typ gen.ExperimentType) func(string) (scmtemporal.ItemInput, error) {
	return func(string) (scmtemporal.ItemInput, error) {
		return scmtemporal.ItemInput{Name: "recorded", ProjectID: 1, ScenarioID: scenario, Experiment: typ, Options: itemOptions}, nil
	}
}

func recordings() []recording {
	return []recording{
		{name: "done", item: importedItem, want: enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED},
		{name: "failed", item: existing(104, gen.ExperimentTypeSIMULATION), want: enumspb.WORKFLOW_EXECUTION_STATUS_FAILED},
		{name: "unknown", item: existing(103, gen.ExperimentTypeSIMULATION),
			fake: []fake.Option{fake.WithRunDuration(30 * time.Second), fake.WithFault("runExperiment", fake.Fault{Kind: fake.FaultDropAfterHandler})}, want: enumspb.WORKFLOW_EXECUTION_STATUS_FAILED},
		{name: "cancelled", item: copiedItem, fake: []fake.Option{fake.WithRunDuration(time.Minute)},
			during: cancelWhileWaiting, want: enumspb.WORKFLOW_EXECUTION_STATUS_CANCELED},
		{name: "killed", item: existing(101, gen.ExperimentTypeGFA), fake: []fake.Option{fake.WithRunDuration(8 * time.Second)},
			killable: true, during: killWhileWaiting, want: enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED},
		{name: "queued", item: existing(103, gen.ExperimentTypeSIMULATION), fake: []fake.Option{fake.WithRunDuration(3 * time.Second)},
			before: anotherProcessStarts, want: enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED},
	}
}

// importedItem imports a workbook, runs its SIMULATION and writes its
// dashboard and data.
func importedItem(dir string) (scmtemporal.ItemInput, error) {
	book := filepath.Join(dir, "input.xlsx")
	if err := writeWorkbook(book); err != nil {
		return scmtemporal.ItemInput{}, err
	}
	return scmtemporal.ItemInput{Name: "recorded", ProjectID: 1, Workbook: book, ScenarioName: "Recorded", ImportExperiments: true,
		Experiment: gen.ExperimentTypeSIMULATION, Dashboard: filepath.Join(dir, "out", "done.xlsx"), Data: filepath.Join(dir, "out", "done.csv"),
		Options: itemOptions}, nil
}

// copiedItem copies scenario 103 and runs the copy, stopping its run when
// cancelled.
func copiedItem(string) (scmtemporal.ItemInput, error) {
	opts := itemOptions
	opts.StopOnCancel = true
	return scmtemporal.ItemInput{Name: "recorded", ProjectID: 1, CopyOf: 103, CopyType: gen.ScenarioTypeSIM, ScenarioName: "Recorded copy",
		Experiment: gen.ExperimentTypeSIMULATION, Options: opts}, nil
}

// anotherProcessStarts starts the item's experiment as another process
// does: the item's start is refused, and it waits.
func anotherProcessStarts(ctx context.Context, fc *facade.Client) error {
	_, err := fc.Experiments.Start(ctx, 10303, nil)
	return err
}

// session is one recording's workflow and its first worker.
type session struct {
	rec    recording
	queue  string
	run    client.WorkflowRun
	worker *proc // the first worker, when it is a process of its own
	env    []string
	fc     *facade.Client
	stops  []func() // the workers started during the recording
}

func (r *recorder) record(ctx context.Context, rec recording) error {
	srv := fake.NewServer(append([]fake.Option{fake.WithLicense(), fake.WithRunDuration(2 * time.Second),
		fake.WithStatusLag(500 * time.Millisecond), fake.WithImportDuration(time.Second)}, rec.fake...)...)
	defer srv.Close()
	fc, err := facade.New(srv.URL, facade.WithAPIKey(srv.APIKey))
	if err != nil {
		return err
	}
	s := &session{rec: rec, queue: "record-" + rec.name, fc: fc, env: []string{"SCM_BASE_URL=" + srv.URL, "SCM_API_KEY=" + srv.APIKey}}
	if rec.before != nil {
		if err := rec.before(ctx, fc); err != nil {
			return err
		}
	}
	stop, err := r.firstWorker(ctx, s)
	if err != nil {
		return err
	}
	s.stops = append(s.stops, stop)
	defer func() {
		for _, stop := range s.stops {
			stop()
		}
	}()
	in, err := rec.item(r.dir)
	if err != nil {
		return err
	}
	id := fmt.Sprintf("record-%s-%d", rec.name, time.Now().UnixNano())
	if s.run, err = r.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: s.queue}, scmtemporal.WorkflowName, in); err != nil {
		return err
	}
	if rec.during != nil {
		if err := rec.during(ctx, r, s); err != nil {
			return err
		}
	}
	return r.finish(ctx, s)
}

// firstWorker starts the recording's first worker: in this process, or a
// process of its own that during may kill.
func (r *recorder) firstWorker(ctx context.Context, s *session) (stop func(), err error) {
	if s.rec.killable {
		s.worker, _, err = startProc(ctx, "worker", filepath.Join(r.dir, "worker-"+s.rec.name+".log"), s.env, "worker ready",
			r.self, "worker", "-temporal", r.addr, "-queue", s.queue, "-identity", "first")
		if err != nil {
			return nil, err
		}
		return s.worker.kill, nil
	}
	return r.inProcessWorker(s)
}

func (r *recorder) inProcessWorker(s *session) (stop func(), err error) {
	w, err := scmtemporal.NewWorker(r.c, s.queue, &scmtemporal.Activities{Client: s.fc}, worker.Options{})
	if err != nil {
		return nil, err
	}
	if err := w.Start(); err != nil {
		return nil, err
	}
	return w.Stop, nil
}

// finish waits for the workflow's end, checks it, and writes its history.
func (r *recorder) finish(ctx context.Context, s *session) error {
	runErr := s.run.Get(ctx, nil)
	desc, err := describe(ctx, r.c, s.run.GetID(), s.run.GetRunID())
	if err != nil {
		return err
	}
	if got := desc.GetWorkflowExecutionInfo().GetStatus(); got != s.rec.want {
		return fmt.Errorf("the workflow ended %v, want %v: %v", got, s.rec.want, runErr)
	}
	var h historypb.History
	it := r.c.GetWorkflowHistory(ctx, s.run.GetID(), s.run.GetRunID(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return err
		}
		h.Events = append(h.Events, ev)
	}
	b, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(&h)
	if err != nil {
		return err
	}
	path := filepath.Join(r.out, s.rec.name+".json")
	fmt.Printf("record: %s: %v, %d events, %s\n", s.rec.name, s.rec.want, len(h.Events), path)
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// awaitActivity waits until an attempt of the activity has started.
func (r *recorder) awaitActivity(ctx context.Context, s *session, name string) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		desc, err := describe(ctx, r.c, s.run.GetID(), s.run.GetRunID())
		if err != nil {
			return err
		}
		for _, a := range desc.GetPendingActivities() {
			if a.GetActivityType().GetName() == name && a.GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return errors.New("no attempt of " + name + " started within a minute")
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// cancelWhileWaiting cancels the workflow once its wait for the run has
// begun.
func cancelWhileWaiting(ctx context.Context, r *recorder, s *session) error {
	if err := r.awaitActivity(ctx, s, "scm.WaitRun"); err != nil {
		return err
	}
	return r.c.CancelWorkflow(ctx, s.run.GetID(), s.run.GetRunID())
}

// killWhileWaiting kills the first worker (SIGKILL) once its wait for the
// run has begun, and starts another in this process: the wait moves to it
// after its heartbeat timeout.
func killWhileWaiting(ctx context.Context, r *recorder, s *session) error {
	if err := r.awaitActivity(ctx, s, "scm.WaitRun"); err != nil {
		return err
	}
	time.Sleep(time.Second)
	s.worker.kill()
	stop, err := r.inProcessWorker(s)
	if err != nil {
		return err
	}
	s.stops = append(s.stops, stop)
	return nil
}
