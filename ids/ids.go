package ids

import (
	"fmt"
	"strconv"
)

// ProjectID is the id of a project (projectId).
type ProjectID int64

// ScenarioID is the id of a scenario (scenarioId).
type ScenarioID int64

// JobID is the id of an import or copy job (jobId).
type JobID int64

// RcID is the id of a run configuration (rcId): the setup of one
// experiment of a scenario, which is run, polled and stopped by it.
type RcID int64

// ExperimentResultID is the id of the result of one run of a run
// configuration (experimentResultId): the dashboard operations take it.
type ExperimentResultID int64

// RunID is the id of a listed run (ApiBasicRun's id, the runId of the
// convert operations).
type RunID int64

// VariationID is the id of a variation parameter (variationId).
type VariationID int64

// PageID is the id of a dashboard or statistics page (pageId).
type PageID int64

// ObjectID is the id of an object whose parameters a variation varies
// (objectId).
type ObjectID string

// NewVariation is the variationId of a variation not yet created, which
// the operations that accept one send as the string new
// (doesVariableParameterHasSelectedData,
// updateExistingVariableParameterTableDataByIndex). It is no id of the
// server: the others refuse it.
const NewVariation VariationID = -1

// Int is every integer kind of id, for code that handles any of them
// ([Parse], a flag of the CLI).
type Int interface {
	ProjectID | ScenarioID | JobID | RcID | ExperimentResultID | RunID | VariationID | PageID
	String() string
}

func (id ProjectID) String() string          { return strconv.FormatInt(int64(id), 10) }
func (id ScenarioID) String() string         { return strconv.FormatInt(int64(id), 10) }
func (id JobID) String() string              { return strconv.FormatInt(int64(id), 10) }
func (id RcID) String() string               { return strconv.FormatInt(int64(id), 10) }
func (id ExperimentResultID) String() string { return strconv.FormatInt(int64(id), 10) }
func (id RunID) String() string              { return strconv.FormatInt(int64(id), 10) }
func (id PageID) String() string             { return strconv.FormatInt(int64(id), 10) }
func (id ObjectID) String() string           { return string(id) }

// String writes the decimal form of the id, and new for [NewVariation], as
// the operations that accept it send it.
func (id VariationID) String() string {
	if id == NewVariation {
		return "new"
	}
	return strconv.FormatInt(int64(id), 10)
}

// Any is every kind of id.
type Any interface {
	ProjectID | ScenarioID | JobID | RcID | ExperimentResultID | RunID | VariationID | PageID | ObjectID
}

// Name returns the name the interface gives an id of kind T: rcId,
// experimentResultId, ...
func Name[T Any]() string {
	var zero T
	switch any(zero).(type) {
	case ProjectID:
		return "projectId"
	case ScenarioID:
		return "scenarioId"
	case JobID:
		return "jobId"
	case RcID:
		return "rcId"
	case ExperimentResultID:
		return "experimentResultId"
	case RunID:
		return "runId"
	case VariationID:
		return "variationId"
	case PageID:
		return "pageId"
	}
	return "objectId"
}

// Parse reads an id of kind T from its decimal form, as String writes it
// (and as the statistics pages list their ids); for a [VariationID] the
// text new is [NewVariation]. The error names the kind:
//
//	rcId "abc" is not a whole number
func Parse[T Int](s string) (T, error) {
	if _, ok := any(T(0)).(VariationID); ok && s == "new" {
		return T(NewVariation), nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, &ParseError{Kind: Name[T](), Text: s, Err: err}
	}
	return T(n), nil
}

// ParseError is text that is not an id of a kind.
type ParseError struct {
	Kind string // the id's name: rcId, experimentResultId, ...
	Text string // the text that was read
	Err  error  // strconv's error
}

func (e *ParseError) Error() string {
	if ne, ok := e.Err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return fmt.Sprintf("%s %q is out of the range of a 64-bit integer", e.Kind, e.Text)
	}
	return fmt.Sprintf("%s %q is not a whole number", e.Kind, e.Text)
}

func (e *ParseError) Unwrap() error { return e.Err }
