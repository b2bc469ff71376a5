package facade

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/scmodel/scmgo/internal/textcut"

	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// ErrResumeToken: a resume token is not one this SDK can read: corrupt,
// cut, of another kind or of a newer release. Nothing was sent.
var ErrResumeToken = errors.New("not a run's resume token")

// runTokenPrefix begins every resume token of a run this release makes:
// the kind and the version of the evidence that follows (base64url JSON).
const runTokenPrefix = "scmrun.2."

// maxResumeToken bounds a token read back: a scenario's listed runs are
// its largest part (about 12 bytes each).
const maxResumeToken = 16 << 20

// runToken is the evidence of a start as a token carries it.
type runToken struct {
	RcID       ids.RcID           `json:"rcId"`
	ScenarioID ids.ScenarioID     `json:"scenarioId"`
	Type       gen.ExperimentType `json:"type"`
	Listed     []ids.RunID        `json:"listed"`
	Started    time.Time          `json:"started"`
	// The status before the start: ended, and when that end's kind is
	// known its outcome ("succeeded", "failed", "stopped", "cancelled") and
	// text; marked when genericState or step were not IDLE.
	Ended   bool   `json:"ended"`
	Outcome string `json:"outcome,omitempty"`
	Text    string `json:"text,omitempty"`
	Marked  bool   `json:"marked,omitempty"`
}

// legacyOrigin is the evidence of the first release, kept as JSON in batch
// state files (runOrigin): whether an end showed before the start, not
// which.
type legacyOrigin struct {
	RcID        ids.RcID           `json:"rcId"`
	ScenarioID  ids.ScenarioID     `json:"scenarioId"`
	Type        gen.ExperimentType `json:"type"`
	Listed      []ids.RunID        `json:"listed"`
	EndedBefore bool               `json:"endedBefore"`
	Started     time.Time          `json:"started"`
}

// weakLegacy says why evidence of the first release is weaker.
const weakLegacy = "recorded by an earlier release, which kept whether an end showed before the start but not which: a start whose answer was lost is more often answered unknown"

// ResumeToken returns the run's evidence of its start as an opaque,
// versioned token: keep it (in a state file, a workflow's state) before the
// start is sent, and rebuild the run from it in any process with
// [Client.ResumeRunFromToken], to wait for it, find its result or settle a
// start whose answer was lost ([Run.Began]). A Run made from its rcId
// alone has no start to resume, and fails matching [ErrNoOrigin].
func (r *Run) ResumeToken() (string, error) {
	o := r.origin()
	if o == nil {
		return "", fmt.Errorf("facade: run of rcId %d: %w: it has no resume token", r.rcID, ErrNoOrigin)
	}
	tok := runToken{RcID: o.RcID, ScenarioID: o.ScenarioID, Type: o.Type, Listed: o.Listed, Started: o.Started,
		Ended: o.Before.Ended, Text: o.Before.Text, Marked: o.Before.Marked}
	if o.Before.Ended && o.Before.KindKnown {
		tok.Outcome = o.Before.Outcome.String()
	}
	if tok.Listed == nil {
		tok.Listed = []ids.RunID{}
	}
	b, err := json.Marshal(tok)
	if err != nil {
		return "", err
	}
	return runTokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// ResumeRunFromToken rebuilds a run from its [Run.ResumeToken]: its wait,
// result and [Run.Began] tell it apart from earlier runs as they did in the
// process that started it. It also reads the first release's evidence, the
// JSON object that batch state files kept as runOrigin; such a run's
// [Run.WeakEvidence] says what that evidence lacks. A token it cannot read
// (corrupt, cut, foreign, of a newer release) is refused with an error
// matching [ErrResumeToken] that names it. It sends nothing.
func (c *Client) ResumeRunFromToken(token string) (*Run, error) {
	o, weak, err := parseRunToken(token)
	if err != nil {
		return nil, fmt.Errorf("facade: resume token %q (%d bytes): %w: %w", textcut.Cut(token, 48), len(token), ErrResumeToken, err)
	}
	return c.runFrom(o, weak), nil
}

// WeakEvidence says why the evidence of this run's start is weaker than a
// start of this release records, "" when it is not.
func (r *Run) WeakEvidence() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ev.weak
}

func parseRunToken(token string) (*origin, string, error) {
	switch {
	case len(token) > maxResumeToken:
		return nil, "", fmt.Errorf("longer than %d bytes", maxResumeToken)
	case strings.HasPrefix(token, runTokenPrefix):
		b, err := base64.RawURLEncoding.DecodeString(token[len(runTokenPrefix):])
		if err != nil {
			return nil, "", fmt.Errorf("its evidence is not base64url: %w", err)
		}
		var tok runToken
		if err := strictJSON(b, &tok); err != nil {
			return nil, "", err
		}
		return tok.origin()
	case strings.HasPrefix(strings.TrimSpace(token), "{"):
		var old legacyOrigin
		if err := strictJSON([]byte(token), &old); err != nil {
			return nil, "", err
		}
		return old.origin()
	case strings.HasPrefix(token, "scmrun."):
		return nil, "", errors.New("of another version than this release reads (" + runTokenPrefix + ")")
	}
	return nil, "", errors.New("it does not begin with " + runTokenPrefix)
}

// strictJSON decodes one JSON object with no unknown fields and nothing
// after it.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("its evidence does not decode: %w", err)
	}
	if dec.More() {
		return errors.New("its evidence has data after its end")
	}
	return nil
}

func (t runToken) origin() (*origin, string, error) {
	o := &origin{RcID: t.RcID, ScenarioID: t.ScenarioID, Type: t.Type, Listed: t.Listed, Started: t.Started,
		Before: priorStatus{Ended: t.Ended, Text: t.Text, Marked: t.Marked, KindKnown: true}}
	if t.Ended {
		out, ok := outcomeNamed(t.Outcome)
		if !ok && t.Outcome != "" {
			return nil, "", fmt.Errorf("outcome %q is not an end", t.Outcome)
		}
		o.Before.Outcome, o.Before.KindKnown = out, ok
	}
	if err := o.check(); err != nil {
		return nil, "", err
	}
	if !o.Before.KindKnown {
		return o, weakLegacy, nil
	}
	return o, "", nil
}

func (t legacyOrigin) origin() (*origin, string, error) {
	// Marked is unknown: genericState is not taken as evidence.
	o := &origin{RcID: t.RcID, ScenarioID: t.ScenarioID, Type: t.Type, Listed: t.Listed, Started: t.Started,
		Before: priorStatus{Ended: t.EndedBefore, KindKnown: !t.EndedBefore, Marked: true}}
	if err := o.check(); err != nil {
		return nil, "", err
	}
	if t.EndedBefore {
		return o, weakLegacy, nil
	}
	return o, "", nil
}

// outcomeNamed is the end an Outcome's String names.
func outcomeNamed(name string) (Outcome, bool) {
	for _, o := range []Outcome{Succeeded, Failed, Stopped, Cancelled} {
		if o.String() == name {
			return o, true
		}
	}
	return Pending, false
}

// check refuses evidence that no start recorded.
func (o *origin) check() error {
	switch {
	case o.RcID <= 0:
		return fmt.Errorf("rcId %d is not an id", o.RcID)
	case o.ScenarioID <= 0:
		return fmt.Errorf("scenarioId %d is not an id", o.ScenarioID)
	case o.Type == "":
		return errors.New("it has no experiment type")
	case o.Started.IsZero():
		return errors.New("it has no start time")
	}
	return nil
}
