package facade

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ErrRunUnderWay: a running configuration has a run under way, so a start
// of it was refused, before anything was sent ([ExperimentsService.Prepare]
// read the run under way) or by the server (runExperiment or
// runExperimentSynchronously answered that a run is under way). Nothing
// was started: it never matches [ErrMayHaveBeenApplied], and nothing in
// the SDK settles it as a lost answer ([ExperimentsService.Began]) or waits on the run
// under way, which is not this start's. Start again once that run has
// ended ([ExperimentsService.Activity] tells).
var ErrRunUnderWay = errors.New("the running configuration has a run under way")

// runUnderWayMessages are the words of a server's refusal of a start
// because a run of the configuration is under way, matched in the error's
// message ignoring case: the fake's "rcId N: run M is already running",
// and the usual wordings of such a refusal. The reference does not show
// the real server's; [WithRunUnderWayMessages] adds others.
var runUnderWayMessages = []string{"already running", "is running", "currently running", "still running", "in progress", "already started"}

// maxRunUnderWayMessage bounds a pattern of [WithRunUnderWayMessages].
const maxRunUnderWayMessage = 200

// WithRunUnderWayMessages adds words that, found in the message of an error
// answer to runExperiment or runExperimentSynchronously (ignoring case),
// mean that the server refused the start because a run of the
// configuration is under way: the error then matches [ErrRunUnderWay], not
// [ErrMayHaveBeenApplied]. The fake's wording and the usual ones ("already
// running", "is running", "currently running", "still running", "in
// progress", "already started") are always matched. Each pattern must
// hold a non-space character, no control character, and at most 200
// bytes.
func WithRunUnderWayMessages(patterns ...string) Option {
	return func(c *config) error {
		if len(patterns) == 0 {
			return errors.New("facade: WithRunUnderWayMessages: no pattern given")
		}
		for i, p := range patterns {
			switch {
			case strings.TrimSpace(p) == "":
				return fmt.Errorf("facade: WithRunUnderWayMessages: pattern %d is empty", i+1)
			case len(p) > maxRunUnderWayMessage:
				return fmt.Errorf("facade: WithRunUnderWayMessages: pattern %d is %d bytes, more than %d", i+1, len(p), maxRunUnderWayMessage)
			case strings.ContainsFunc(p, isControl):
				return fmt.Errorf("facade: WithRunUnderWayMessages: pattern %d holds a control character", i+1)
			}
			c.underWayMessages = append(c.underWayMessages, strings.ToLower(p))
		}
		return nil
	}
}

// refusedUnderWay reports an error answer to a start that says a run of
// the configuration is under way: a status that refuses (not one that
// asks to try later: 429, 502, 503, 504) and a message with one of the
// client's patterns.
func (c *Client) refusedUnderWay(op string, e *APIError) bool {
	if op != string(gen.OpRunExperiment) && op != string(gen.OpRunExperimentSynchronously) {
		return false
	}
	switch e.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return false
	}
	msg := e.Message
	if msg == "" {
		msg = string(e.Body)
	}
	msg = strings.ToLower(msg)
	for _, p := range runUnderWayMessages {
		if strings.Contains(msg, p) {
			return e.StatusCode >= 400
		}
	}
	for _, p := range c.cfg.underWayMessages {
		if strings.Contains(msg, p) {
			return e.StatusCode >= 400
		}
	}
	return false
}

// Activity is whether a running configuration has a run under way, as far
// as its status and the evidence beside it can tell ([RunActivity],
// [ExperimentsService.Activity]).
type Activity int

// The activities of a running configuration. The zero value is
// ActivityUnknown.
const (
	// ActivityUnknown: the status shows no end and nothing marks a run
	// under way: the configuration never ran, or its first run is under
	// way. A real server shows both alike.
	ActivityUnknown Activity = iota
	// ActivityIdle: the status shows an end (finished, failed or stopped):
	// no run is under way, as far as the status has caught up with the
	// starts (a start shows there only after a lag).
	ActivityIdle
	// ActivityUnderWay: a run is under way: the status shows no end where
	// an end showed before (finished false after an end, as a real server
	// shows a run under way), or genericState or step other than IDLE, or
	// a state value that is not an end and not IDLE.
	ActivityUnderWay
)

// String names the activity: "unknown", "idle" or "under way".
func (a Activity) String() string {
	switch a {
	case ActivityIdle:
		return "idle"
	case ActivityUnderWay:
		return "under way"
	}
	return "unknown"
}

// RunActivity is the one rule for "a run is under way", from one status
// read: idle when it shows an end; under way when it shows none and
// genericState or step is other than IDLE (a server that marks a run
// there), or its state value is neither an end nor IDLE, or endShownBefore
// says that the configuration's status showed an end before (a real server
// replaces the end by finished false once a run is under way, with
// genericState and step IDLE); unknown otherwise, and for nil. Batch,
// Temporal and the CLI ask it, through [ExperimentsService.Activity] or
// [ExperimentsService.Prepare], and keep no rule of their own.
func RunActivity(s *gen.ExecutionState, endShownBefore bool) Activity {
	if s == nil {
		return ActivityUnknown
	}
	state := string(RunStateValue(s))
	switch {
	case DefaultTerminalRule(state) != Pending:
		return ActivityIdle
	case marked(s) || state != "" && !strings.EqualFold(state, string(gen.ExecutionStateGenericStateIDLE)):
		return ActivityUnderWay
	case endShownBefore:
		return ActivityUnderWay
	}
	return ActivityUnknown
}

// Activity reads whether a running configuration has a run under way
// (getExperimentStatus) and returns it with the status read. Where the
// status alone cannot tell (no end, nothing marked: [ActivityUnknown]), it
// decides from what can: when the scenario lists a run of the
// configuration's type (getExperimentRunsForScenario) and the
// configuration is the scenario's only one of its type (getExperiments,
// which needs opts.ProjectID), an end showed before, so the status's
// finished false is a run under way. Else the answer stays unknown. opts
// may be nil; only its ProjectID, ScenarioID and Type are read (the
// scenario and type are read from the configuration when not given).
//
//scm:helper
func (s *ExperimentsService) Activity(ctx context.Context, rcID ids.RcID, opts *StartOptions) (Activity, *gen.ExecutionState, error) {
	if err := check(gen.OpGetExperimentStatus).rc(rcID).done(); err != nil {
		return ActivityUnknown, nil, err
	}
	st, err := s.readStatus(ctx, rcID)
	if err != nil {
		return ActivityUnknown, nil, err
	}
	if a := RunActivity(st, false); a != ActivityUnknown || opts == nil || opts.ProjectID == 0 {
		return a, st, nil
	}
	o := &origin{RcID: rcID, ScenarioID: opts.ScenarioID, Type: opts.Type}
	if o.ScenarioID == 0 || o.Type == "" {
		if err := s.fillFromConfiguration(ctx, o); err != nil {
			return ActivityUnknown, st, err
		}
	}
	runs, err := s.Runs(ctx, o.ScenarioID)
	if err != nil {
		return ActivityUnknown, st, err
	}
	a, err := s.activityBeside(ctx, st, runs, o, opts.ProjectID)
	return a, st, err
}

// readStatus reads a configuration's status and checks that it can say
// whether a run ended.
func (s *ExperimentsService) readStatus(ctx context.Context, rcID ids.RcID) (*gen.ExecutionState, error) {
	st, err := s.Status(ctx, rcID)
	if err != nil {
		return nil, err
	}
	if err := s.c.listed(checkRunState(gen.OpGetExperimentStatus, st)); err != nil {
		return nil, err
	}
	return st, nil
}

// activityBeside is the activity of a status read with the evidence beside
// it: the runs its scenario lists, and, when they hold one of the
// configuration's type, whether it is the scenario's only configuration of
// that type (getExperiments, in the project given; none given: unknown).
func (s *ExperimentsService) activityBeside(ctx context.Context, st *gen.ExecutionState, runs []gen.ApiBasicRun, o *origin, projectID ids.ProjectID) (Activity, error) {
	if a := RunActivity(st, false); a != ActivityUnknown || projectID == 0 || !listsType(runs, o) {
		return a, nil
	}
	list, err := s.List(ctx, projectID, o.ScenarioID)
	if err != nil {
		return ActivityUnknown, err
	}
	n := 0
	for _, rc := range list {
		if rc.Type == o.Type {
			n++
		}
	}
	if n != 1 {
		return ActivityUnknown, nil
	}
	return RunActivity(st, true), nil
}

// listsType reports whether runs hold a run of the origin's scenario and
// type.
func listsType(runs []gen.ApiBasicRun, o *origin) bool {
	for _, r := range runs {
		if r.ScenarioId == o.ScenarioID && r.Type == o.Type {
			return true
		}
	}
	return false
}

// underWayRefusal is Prepare's refusal of a start while the status shows
// a run under way.
func (c *Client) underWayRefusal(rcID ids.RcID, st *gen.ExecutionState) error {
	shown := "finished false where an end showed before"
	if v := RunStateValue(st); marked(st) || v != "" && !strings.EqualFold(string(v), string(gen.ExecutionStateGenericStateIDLE)) {
		shown = fmt.Sprintf("state %q, genericState %q, step %q", v, st.GenericState, st.Step)
	}
	return fmt.Errorf("facade: %s of rcId %d: %w (the status shows %s); nothing was sent: start it once that run has ended",
		gen.OpRunExperiment, rcID, ErrRunUnderWay, c.secretsOf(call{}, nil).scrubCut(shown, c.cfg.limits.MaxReportedLen))
}
