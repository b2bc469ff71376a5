package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"sync"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
	"github.com/scmodel/scmgo/internal/atomicfile"
)

// Status is where an item stands.
type Status string

// The statuses of an item.
const (
	// Pending: nothing was sent for the item yet.
	Pending Status = "pending"
	// Running: a batch is working on the item, or was when it died.
	Running Status = "running"
	// Interrupted: Ctrl-C (a cancelled context) ended the batch while the
	// item was under way; its ids are kept and a resume goes on from them.
	Interrupted Status = "interrupted"
	// Done: the run finished and every export is written.
	Done Status = "done"
	// Failed: a step failed; see the item's error.
	Failed Status = "failed"
	// Unknown: an import or a run was sent, but whether the server took it
	// cannot be told from what it shows (facade.ErrStartUnknown); a
	// resume looks again, and sends it again only with RetryFailed.
	Unknown Status = "unknown"
)

// ItemState is what the state file records of an item: every id as soon as
// it is known, so that a resumed batch never sends an import or a run twice.
type ItemState struct {
	Digest  string     `json:"digest"`
	Status  Status     `json:"status"`
	Error   string     `json:"error,omitempty"`
	Started *time.Time `json:"started,omitempty"`
	Ended   *time.Time `json:"ended,omitempty"`

	// ImportSent: importExcel was sent, or was about to be. Without a
	// JobID, its outcome is unknown.
	ImportSent bool `json:"importSent,omitempty"`
	// KnownScenarios are the scenarios that had the new scenario's name
	// before the import: a scenario of that name not among them is the
	// import's.
	KnownScenarios []ids.ScenarioID `json:"knownScenarios,omitempty"`
	JobID          ids.JobID        `json:"jobId,omitempty"`
	JobStatus      string           `json:"jobStatus,omitempty"` // the job's final status
	ScenarioID     ids.ScenarioID   `json:"scenarioId,omitempty"`

	RcID ids.RcID `json:"rcId,omitempty"`
	// RunToken is the run's resume token (facade.Run.ResumeToken): what
	// tells this item's run from earlier ones (the scenario's runs and the
	// status just before its start), recorded before runExperiment is sent.
	RunToken string `json:"runToken,omitempty"`
	// RunOrigin is the same evidence as an earlier release recorded it;
	// it is read (facade.Client.ResumeRunFromToken takes it), never written.
	RunOrigin json.RawMessage `json:"runOrigin,omitempty"`
	// RunSent: runExperiment was sent, or was about to be; RunStarted: the
	// server answered it (or the run was found listed or under way).
	RunSent    bool      `json:"runSent,omitempty"`
	RunStarted bool      `json:"runStarted,omitempty"`
	RunID      ids.RunID `json:"runId,omitempty"`    // the run's id in its scenario's runs, once its result is found
	RunState   string    `json:"runState,omitempty"` // the run's final state

	ExperimentResultID ids.ExperimentResultID `json:"experimentResultId,omitempty"`
	Outputs            []string               `json:"outputs,omitempty"`
	// Data is the item's part of the batch's dataset ([Options.Data]),
	// recorded once written whole, before the item is done.
	Data *DataPart `json:"data,omitempty"`

	// StoppedRuns and CancelledJobs are the runs (by rcId: a run is listed,
	// and its own id known, only once it has finished) and the jobs the
	// batch stopped on Ctrl-C (with stop-on-cancel); a resume starts anew.
	StoppedRuns   []ids.RcID  `json:"stoppedRuns,omitempty"`
	CancelledJobs []ids.JobID `json:"cancelledJobs,omitempty"`
}

// jobFailed and runFailed report a job or run that ended other than well.
func (s *ItemState) jobFailed() bool {
	return s.JobStatus != "" && facade.DefaultTerminalRule(s.JobStatus) != facade.Succeeded
}

func (s *ItemState) runFailed() bool {
	return s.RunState != "" && facade.DefaultTerminalRule(s.RunState) != facade.Succeeded
}

func (s *ItemState) clone() ItemState {
	c := *s
	c.KnownScenarios = append([]ids.ScenarioID(nil), s.KnownScenarios...)
	c.Outputs = append([]string(nil), s.Outputs...)
	c.StoppedRuns = append([]ids.RcID(nil), s.StoppedRuns...)
	c.CancelledJobs = append([]ids.JobID(nil), s.CancelledJobs...)
	if s.Data != nil {
		d := *s.Data
		c.Data = &d
	}
	c.RunOrigin = bytes.Clone(s.RunOrigin)
	return c
}

// stateVersion is the format of the state file.
const stateVersion = 1

// stateFile is the state file's content.
type stateFile struct {
	Version int                   `json:"version"`
	Plan    string                `json:"plan"`
	Items   map[string]*ItemState `json:"items"`
	// Dataset is the dataset last written, when a batch wrote one.
	Dataset *datasetRecord `json:"dataset,omitempty"`
}

// store keeps the state of a batch and writes it to its file, atomically,
// after every change.
type store struct {
	path string
	fs   atomicfile.FS // nil: the operating system's
	mu   sync.Mutex
	data stateFile
	kept *keptFields // what the file held that this release does not read
}

// openStore reads the state file at path, or starts one when there is no
// file, and checks that the items it has begun are those of the plan.
//
// A missing file is a new batch, and only a missing file: [Runner.Run]
// writes the state file, atomically, before its first call to the server,
// so a batch that sent anything left a file. Anything else that is not a
// whole state is refused, naming the file and what to do, before anything
// is sent: an empty file or one of white space (what a crash leaves on
// some file systems), a file cut short, one without its version or items,
// and one that records no items for a plan that has some. Taken for a new
// batch, each would import and run again every item it recorded. So are a
// file larger than MaxStateBytes, refused before it is read, and one that
// repeats a key in an object (see readState).
func openStore(path string, p *Plan) (*store, error) {
	s := &store{path: path, data: stateFile{Version: stateVersion, Plan: filepath.Base(p.File), Items: map[string]*ItemState{}}}
	b, err := readStateFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist): // a new batch
	case err != nil:
		return nil, err
	case len(b) == 0:
		return nil, damagedState(path, "is empty (0 bytes)")
	case len(bytes.TrimSpace(b)) == 0:
		return nil, damagedState(path, fmt.Sprintf("holds only white space (%d bytes)", len(b)))
	default:
		if s.kept, err = readState(path, b, &s.data); err != nil {
			return nil, err
		}
		if len(s.data.Items) == 0 && len(p.Items) > 0 {
			return nil, damagedState(path, fmt.Sprintf("records no items, and the plan has %d", len(p.Items)))
		}
	}
	return s, s.adopt(p)
}

// damagedState is the error of a state file that is not a whole state.
func damagedState(path, what string) error {
	return fmt.Errorf("batch: state file %s %s: it is not a batch's state, or was damaged (a batch writes its state file before it sends anything); "+
		"restore it, or remove it to start the batch anew (every item is imported and run again)", path, what)
}

// readState decodes the state file at path and returns what it holds that
// this release does not read. A file that is not JSON (cut short, say), or
// without its version or its items, or with an item that is null, is
// refused: taken as a new batch, it would send every import and run it
// records again. So is a key repeated in an object, wherever it is, which
// encoding/json would take silently, the last one winning: an item
// recorded twice, or an id written twice in an item (as encoding/json
// matches keys to fields, "jobId" and "JobID" are the same). Fields no
// field of this release takes are kept, and written back where they were
// (keptFields), so that resuming a state a later release wrote loses
// nothing of it.
func readState(path string, b []byte, data *stateFile) (*keptFields, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, damagedState(path, fmt.Sprintf("is not JSON (%v)", err))
	}
	for _, name := range []string{"version", "items"} {
		if v, ok := fields[name]; !ok || string(v) == "null" {
			return nil, damagedState(path, "has no "+name)
		}
	}
	unknown, err := checkStateKeys(b)
	if err != nil {
		return nil, fmt.Errorf("batch: state file %s: %w", path, err)
	}
	if err := json.Unmarshal(b, data); err != nil {
		return nil, fmt.Errorf("batch: state file %s: %w", path, err)
	}
	if data.Version != stateVersion {
		return nil, fmt.Errorf("batch: state file %s has version %d; this batch reads version %d", path, data.Version, stateVersion)
	}
	for name, st := range data.Items {
		if st == nil {
			return nil, fmt.Errorf("batch: state file %s: item %q is null; restore the file, or remove the item's entry to start it over", path, name)
		}
	}
	if !unknown {
		return nil, nil
	}
	return keptOf(b, reflect.TypeFor[stateFile]()), nil
}

// adopt adds the plan's new items and refuses an item that changed after it
// began.
func (s *store) adopt(p *Plan) error {
	var errs []error
	for _, it := range p.Items {
		st := s.data.Items[it.Name]
		switch {
		case st == nil:
			s.data.Items[it.Name] = &ItemState{Digest: it.Digest(), Status: Pending}
		case st.Digest != it.Digest() && st.Status == Pending:
			st.Digest = it.Digest()
		case st.Digest != it.Digest():
			errs = append(errs, fmt.Errorf("%s:%d: item %q changed since the state file %s recorded it (%s); give it a new name, or remove its entry from the state file to start it over",
				p.File, it.Line, it.Name, s.path, st.Status))
		}
	}
	return errors.Join(errs...)
}

// get returns a copy of an item's state.
func (s *store) get(name string) ItemState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data.Items[name].clone()
}

// update changes an item's state and writes the file before returning.
func (s *store) update(name string, change func(*ItemState)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	change(s.data.Items[name])
	return s.save()
}

// flush writes the state file as it is.
func (s *store) flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.save()
}

// save writes the state through atomicfile: a temporary file beside the
// state file, synced, renamed over it, and the directory synced. A reader,
// or a batch started after a crash, sees the old state or the new one, never
// a torn one, and a state written has reached the disk.
func (s *store) save() error {
	b, err := marshalState(&s.data, s.kept)
	if err != nil {
		return err
	}
	opts := &atomicfile.Options{Perm: statePerm, Suffix: stateTempSuffix, FS: s.fs}
	if err := atomicfile.WriteBytes(s.path, append(b, '\n'), opts); err != nil {
		return fmt.Errorf("batch: writing the state file: %w", err)
	}
	return nil
}

// The state file's mode, and the suffix of its temporary files
// (.plan.state.json.<digits>.tmp).
const (
	statePerm       = 0o600
	stateTempSuffix = ".tmp"
)
