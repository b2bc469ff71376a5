package batch

import (
	"errors"
	"fmt"
	"strings"

	"github.com/scmodel/scmgo/facade"
)

// ErrTokenNotTheItems: a run's resume token in the state file is not the
// run of its item: its rcId, scenario or experiment type is another's
// (tokens swapped between items, or the file edited). [NewRunner] refuses
// such a state before anything is sent.
var ErrTokenNotTheItems = errors.New("batch: a run's resume token is not its item's")

// checkTokens refuses, before anything is sent, a state file whose items'
// resume tokens (runToken, and the runOrigin of earlier releases) are not
// theirs: a token this client cannot resume (corrupt, edited, or made for
// another server: facade.ErrValidation), or the run of another rcId,
// scenario or experiment type than its item's. Resumed, such a token would
// wait for, and export, another item's run. No error quotes a token.
func (s *store) checkTokens(c *facade.Client, p *Plan) error {
	var errs []error
	for _, it := range p.Items {
		st := s.data.Items[it.Name]
		for _, tok := range st.tokens() {
			if err := tokenOfItem(c, it, st, tok.value); err != nil {
				errs = append(errs, &tokenError{path: s.path, item: it.Name, field: tok.field, err: err})
			}
		}
	}
	return errors.Join(errs...)
}

// tokenError is a token of the state file refused for its item: err
// matches ErrTokenNotTheItems or facade.ErrValidation.
type tokenError struct {
	path, item, field string
	err               error
}

func (e *tokenError) Error() string {
	sep := ": "
	if errors.Is(e.err, ErrTokenNotTheItems) {
		sep = " " // "its runToken is the run of ..."
	}
	return fmt.Sprintf("batch: state file %s: item %q: its %s%s%s", e.path, e.item, e.field, sep, strings.TrimPrefix(e.err.Error(), "facade: "))
}

func (e *tokenError) Unwrap() error { return e.err }

// notTheItems is a token of another run than its item's.
type notTheItems struct{ subject, diffs string }

func (e *notTheItems) Error() string {
	return fmt.Sprintf("is the run of %s, not the item's: %s (tokens swapped between items, or the file edited); restore the state file, or remove the item's entry to start it over",
		e.subject, e.diffs)
}

func (e *notTheItems) Is(target error) bool { return target == ErrTokenNotTheItems }

// recordedToken is a token an item's state records, and its field.
type recordedToken struct{ field, value string }

// tokens are the resume tokens the state records.
func (s *ItemState) tokens() []recordedToken {
	var out []recordedToken
	if s.RunToken != "" {
		out = append(out, recordedToken{"runToken", s.RunToken})
	}
	if s.legacyOrigin() {
		out = append(out, recordedToken{"runOrigin", string(s.RunOrigin)})
	}
	return out
}

// tokenOfItem checks that c can resume token and that it is the run of
// the item: the rcId the state records (when it records one), the
// scenario (the state's, or the item's existing one) and the item's
// experiment type.
func tokenOfItem(c *facade.Client, it Item, st *ItemState, token string) error {
	subject, err := facade.TokenSubject(token)
	if err != nil {
		return err
	}
	if _, err := c.ResumeRunFromToken(token); err != nil {
		return err // made for another server, or started in the future
	}
	scenario := st.ScenarioID
	if scenario == 0 {
		scenario = it.Scenario
	}
	var diffs []string
	if st.RcID != 0 && subject.RcID != st.RcID {
		diffs = append(diffs, fmt.Sprintf("its rcId is %d, the item's %d", subject.RcID, st.RcID))
	}
	if scenario != 0 && subject.ScenarioID != scenario {
		diffs = append(diffs, fmt.Sprintf("its scenario is %d, the item's %d", subject.ScenarioID, scenario))
	}
	if subject.Type != it.Experiment {
		diffs = append(diffs, fmt.Sprintf("its experiment type is %s, the item's %s", subject.Type, it.Experiment))
	}
	if len(diffs) == 0 {
		return nil
	}
	return &notTheItems{subject: subject.String(), diffs: strings.Join(diffs, "; ")}
}
