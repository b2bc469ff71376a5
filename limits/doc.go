// Package limits holds the one error every package of the SDK returns when
// a server sends more than a limit allows: [*Error], found with errors.As
// whichever package refused (facade, dashboard, resultdata), and matching
// the one sentinel [ErrLimit] with errors.Is.
//
// # What an Error says
//
// An [*Error] names the package that refused and, where there is one, the
// operation; the limit by the name of the option that sets it, as a user
// writes it after the package's name ("Limits.MaxBodyBytes" of facade,
// "Options.MaxRows" of dashboard, "Limits.RowsPerSheet" of resultdata);
// the limit's value and what it counts; the value seen past it, when the
// reader knew it before it stopped; what went past it; and whether an
// option can raise it ([Error.Fixed] is set for the bounds of a format,
// such as the rows a workbook holds, which none can).
//
// Each package keeps its own limits (facade.Limits, dashboard.Options,
// resultdata.Limits): this package holds only what they refuse with, under
// one name.
//
// A caller tells a limit from other errors, and finds which, the same way
// whatever it called:
//
//	var le *limits.Error
//	if errors.As(err, &le) && !le.Fixed {
//		fmt.Printf("%s refused in %s: raise %s's %s above %d %s\n", le.Package, le.Operation, le.Package, le.Limit, le.Max, le.Unit)
//	}
//
// An error's text is for people: it names the limit and how to raise it,
// and may change; the fields are the contract.
package limits
