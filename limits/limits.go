package limits

import (
	"errors"
	"fmt"
	"strings"
)

// ErrLimit matches every [*Error], whichever package returned it.
var ErrLimit = errors.New("limit exceeded")

// Error is an answer, or a part of one, larger than a limit allows: the
// one limit error of the SDK. It matches [ErrLimit].
type Error struct {
	// Package is the package that refused, e.g. "facade", "dashboard".
	Package string
	// Operation is the camelCase operationId that refused, e.g.
	// "getExperiments"; "" when the limit is not one operation's, or when
	// the error that wraps this one names the step (dashboard's page and
	// sheet, resultdata's page).
	Operation string
	// Limit is the option that sets the limit, as it is spelled after the
	// package's name, e.g. "Limits.MaxBodyBytes", "Options.MaxRows".
	Limit string
	// Max is the limit's value.
	Max int64
	// Seen is the value seen past Max, when it was known before the reading
	// stopped (a row's number, a cell's length); 0 when it was not, as of a
	// body, which is read no further than one byte past Max.
	Seen int64
	// Unit is what Max and Seen count, e.g. "bytes", "rows"; "" when What
	// says it.
	Unit string
	// What is what went past the limit, e.g. "the answer's body",
	// `sheet "Data": row 12`.
	What string
	// Fixed is set when Max is a bound of the format, such as the rows a
	// workbook holds, which no option raises: Limit is then at its most.
	Fixed bool
}

// Error names what went past which limit and how to raise it.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Operation != "" {
		fmt.Fprintf(&b, "%s: %s: ", e.Package, e.Operation)
	}
	if e.Fixed {
		fmt.Fprintf(&b, "%s exceeds %d, the most a workbook holds (%s cannot go higher)", e.What, e.Max, e.Limit)
		return b.String()
	}
	fmt.Fprintf(&b, "%s exceeds %s (%s): raise it if the server is trusted to send more", e.What, e.option(), e.quantity())
	return b.String()
}

// option is the limit's name with its package's, in words rather than as
// a Go name, as a command's message may quote it.
func (e *Error) option() string {
	if e.Package == "" {
		return e.Limit
	}
	return e.Package + "'s " + e.Limit
}

// quantity is Max with its unit. (What says what was seen, where it was
// known: "row 12", "cell A2, 40000 characters,".)
func (e *Error) quantity() string {
	if e.Unit == "" {
		return fmt.Sprint(e.Max)
	}
	return fmt.Sprintf("%d %s", e.Max, e.Unit)
}

// Is matches [ErrLimit].
func (e *Error) Is(target error) bool { return target == ErrLimit }
