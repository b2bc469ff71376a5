package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/scmodel/scmgo/extra"
	"github.com/scmodel/scmgo/internal/textcut"
)

// userSeen is what the key check read of the user.
type userSeen struct {
	name  string
	id    int64
	props extra.Properties // the fields of getCurrentUser's answer the spec does not name
}

// license says what can be known of the user's license without changing
// it. The interface has no operation that reads a license: requestLicense
// takes one and dropLicense gives it back, and both change state, so the
// check never sends them. It reports a field of getCurrentUser's answer
// that names a license, where a server sends one; else that it cannot
// tell, and how a missing license shows.
func (d *doctor) license(context.Context) bool {
	for name, raw := range d.user.props.All() {
		if strings.Contains(strings.ToLower(name), "licen") {
			d.add(CheckLicense, OK, fmt.Sprintf("getCurrentUser answers %s: %s", name, textcut.Cut(string(raw), 80)), "")
			return true
		}
	}
	seen := "not known: the interface has no operation that reads a license without taking one, and getCurrentUser's answer names none; " +
		"a user without one gets 500 \"Access is denied\" from runExperiment"
	fix := fmt.Sprintf("if runs are refused so, take a license with %s (requestLicense: it changes state, so the doctor never sends it; dropLicense gives it back)",
		d.names.RequestLicense)
	if d.opts.Run != 0 {
		seen += "; the run below tells"
	}
	d.add(CheckLicense, Warn, seen, fix)
	return true
}
