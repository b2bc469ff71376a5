package doctor

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// RunMeasurement is what one run showed of the server's timing, which run
// identity depends on (see facade.Run): a real server answers a status
// read right after a start with the last run's end, lists a run only once
// it has finished, and never lists a VARIATION's. Durations are measured
// from just before runExperiment was sent, to the poll that first saw
// each thing, so they are at most a poll's pause late.
type RunMeasurement struct {
	RcID ids.RcID
	Type gen.ExperimentType
	// Before is the status before the start: the last run's end, or a
	// state that is none (IDLE) for a configuration that never ran.
	Before facade.RunState
	// StatusLag is how long after the start the status still showed
	// Before, when LagSeen. It is not seen when Before was no end (a run
	// under way reads like one that never ran), nor when the status showed
	// an end throughout (the lag lasted the whole run).
	StatusLag time.Duration
	LagSeen   bool
	// ListedAfter is when the run was first listed
	// (getExperimentRunsForScenario), when Listed.
	ListedAfter time.Duration
	Listed      bool
	// Ended is the run's end, Length how long after the start it was seen.
	Ended  facade.RunState
	Length time.Duration
	// StaleWindow and MaxRunLength are the settings recommended for run
	// identity (WaitOptions.StaleWindow and WaitOptions.MaxRunLength):
	// twice the lag seen and a poll's pause, rounded up to a second; three
	// times the run's length, rounded up to a second (a minute past ten
	// minutes). StaleWindow is zero when the lag could not be seen nor
	// bounded.
	StaleWindow  time.Duration
	MaxRunLength time.Duration
}

// recommend sets the recommended settings from what was seen; pause is
// the poll's shortest pause.
func (m *RunMeasurement) recommend(pause time.Duration) {
	lag, known := m.lagBound()
	if known {
		m.StaleWindow = roundUp(2*lag+pause, time.Second)
	}
	unit := time.Second
	if 3*m.Length > 10*time.Minute {
		unit = time.Minute
	}
	m.MaxRunLength = max(roundUp(3*m.Length, unit), time.Second)
}

// lagBound is the lag seen, or, when the status showed the last run's end
// throughout, the run's length, which the lag lasted at least.
func (m RunMeasurement) lagBound() (time.Duration, bool) {
	switch {
	case m.LagSeen:
		return m.StatusLag, true
	case isEnd(m.Before):
		return m.Length, true
	}
	return 0, false
}

func roundUp(d, unit time.Duration) time.Duration {
	return (d + unit - 1) / unit * unit
}

// seen says what the run showed, in a sentence.
func (m RunMeasurement) seen() string {
	s := fmt.Sprintf("rcId %d (%s) %s %s after its start", m.RcID, m.Type, m.Ended, m.Length)
	switch {
	case m.LagSeen:
		s += fmt.Sprintf("; the status showed the last run's end (%s) for %s after the start (the status lag)", m.Before, m.StatusLag)
	case isEnd(m.Before):
		s += fmt.Sprintf("; the status showed an end (%s) throughout: the status lag lasted the whole run", m.Before)
	default:
		s += fmt.Sprintf("; the status lag could not be seen: the configuration had not run before (status %s), and a run under way reads the same; run the doctor again to see it",
			orDash(string(m.Before)))
	}
	switch {
	case m.Listed:
		s += fmt.Sprintf("; it was listed %s after the start", m.ListedAfter)
	case m.Type == gen.ExperimentTypeVARIATION:
		s += "; VARIATION runs are never listed"
	default:
		s += "; it was not listed"
	}
	return s
}

// fix says which settings to use and how to set them.
func (m RunMeasurement) fix() string {
	maxLen := fmt.Sprintf("a maximum run length of %s for rcId %d (scm run and scm batch: --max-run-length %s; WaitOptions.MaxRunLength; the Temporal module's Options.MaxRunLength)",
		m.MaxRunLength, m.RcID, m.MaxRunLength)
	if m.StaleWindow == 0 {
		return "set " + maxLen
	}
	return fmt.Sprintf("set a stale window of %s (WaitOptions.StaleWindow; the Temporal module's Options.StaleWindow; the default is %s) and %s",
		m.StaleWindow, facade.DefaultStaleWindow, maxLen)
}

// MarshalJSON writes the durations as Go writes them ("1.5s"), a
// duration not seen left out.
func (m RunMeasurement) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		RcID         ids.RcID           `json:"rcId"`
		Type         gen.ExperimentType `json:"type"`
		Before       facade.RunState    `json:"before"`
		StatusLag    string             `json:"statusLag,omitempty"`
		ListedAfter  string             `json:"listedAfter,omitempty"`
		Ended        facade.RunState    `json:"ended"`
		Length       string             `json:"length"`
		StaleWindow  string             `json:"recommendedStaleWindow,omitempty"`
		MaxRunLength string             `json:"recommendedMaxRunLength"`
	}{m.RcID, m.Type, m.Before, durationIf(m.StatusLag, m.LagSeen), durationIf(m.ListedAfter, m.Listed), m.Ended, m.Length.String(),
		durationIf(m.StaleWindow, m.StaleWindow > 0), m.MaxRunLength.String()})
}

func durationIf(d time.Duration, ok bool) string {
	if !ok {
		return ""
	}
	return d.String()
}
