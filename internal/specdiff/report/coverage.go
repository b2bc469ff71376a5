package report

import (
	"fmt"
	"strings"
)

// Coverage says which of the read-only operations (x-changes-state: false)
// a probe checked: an operation counts as checked only when it answered
// 2xx at least once, so that its success answer was compared with the
// spec. The others are named by why.
type Coverage struct {
	ReadOnly           int      `json:"readOnly"`           // the read-only operations of the spec
	Checked            int      `json:"checked"`            // those that answered 2xx at least once
	AnsweredOnlyErrors []string `json:"answeredOnlyErrors"` // called, every answer an error status
	NoAnswer           []string `json:"noAnswer"`           // called, no call got an answer (timeouts, connections)
	NotCalled          []string `json:"notCalled"`          // never called: see the probe-not-called notes for why
}

// Short is the count alone: "checked 38 of 41 read-only operations".
func (c *Coverage) Short() string {
	return fmt.Sprintf("checked %d of %s", c.Checked, Plural(c.ReadOnly, "read-only operation"))
}

// String is the count with the operations not checked, by why:
// "checked 38 of 41 read-only operations; 3 not checked (1 answered only
// errors, 2 not called): a, b, c".
func (c *Coverage) String() string {
	if c.Checked == c.ReadOnly {
		return c.Short()
	}
	var why, names []string
	for _, g := range []struct {
		ops  []string
		what string
	}{{c.AnsweredOnlyErrors, "answered only errors"}, {c.NoAnswer, "got no answer"}, {c.NotCalled, "not called"}} {
		if len(g.ops) > 0 {
			why = append(why, fmt.Sprintf("%d %s", len(g.ops), g.what))
			names = append(names, g.ops...)
		}
	}
	return fmt.Sprintf("%s; %d not checked (%s): %s", c.Short(), c.ReadOnly-c.Checked, strings.Join(why, ", "), strings.Join(names, ", "))
}
