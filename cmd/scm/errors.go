package main

import (
	"context"
	"errors"
	"regexp"
	"strings"

	"github.com/scmodel/scmgo/facade"
)

// errorText is how a failed command reports err after its command path:
// without the SDK's package prefix, since the command names the operation
// already, with cobra's and strconv's wording made plain, and with what to
// change when the cause is the connection's settings (the scheme or host
// of --base-url) or a time limit.
func (a *app) errorText(err error) string {
	if text, ok := a.connectionText(err); ok {
		return text
	}
	var reqErr *facade.RequestError
	if maxTimePassed(a.limited) && errors.As(err, &reqErr) {
		return reqErr.Operation + ": no answer before " + maxTimeExceeded{a.maxTime}.Error()
	}
	msg := strings.TrimPrefix(err.Error(), "facade: ")
	if m := badFlagValue.FindStringSubmatch(msg); m != nil {
		return m[2] + ": " + m[1] + " is not " + flagKinds[m[3]]
	}
	if m := badIDFlag.FindStringSubmatch(msg); m != nil {
		return m[1] + ": " + m[2]
	}
	if m := missingFlags.FindStringSubmatch(msg); m != nil {
		names := strings.Split(strings.ReplaceAll(m[1], `"`, ""), ", ")
		return map[bool]string{true: "missing required flag --", false: "missing required flags --"}[len(names) == 1] + strings.Join(names, ", --")
	}
	return msg + a.limitHint(err)
}

// limitHint names the flag whose limit ended a command: --timeout, or
// --request-timeout for a request that waited too long on a silent server.
func (a *app) limitHint(err error) string {
	switch {
	case strings.Contains(err.Error(), "--timeout "):
		return ""
	case maxTimePassed(a.limited):
		return " (" + maxTimeExceeded{a.maxTime}.Error() + ")"
	case a.maxTime > 0 && errors.Is(err, context.DeadlineExceeded):
		return " (--timeout " + a.maxTime.String() + " would pass before the next attempt ended)"
	case errors.Is(err, facade.ErrAttemptTimeout) && !errors.Is(err, facade.ErrValidation):
		return " (--request-timeout " + a.attemptTimeout.String() + " bounds each request's wait on the server; --timeout the whole command)"
	}
	return ""
}

var (
	// invalid argument "abc" for "--rc" flag: strconv.ParseInt: parsing "abc": invalid syntax
	badFlagValue = regexp.MustCompile(`^invalid argument ("[^"]*") for "(-[^"]+)" flag: strconv\.Parse(Int|Uint|Float|Bool|Duration)?`)
	// invalid argument "abc" for "--rc" flag: rcId "abc" is not a whole number
	// (an id flag: ids.ParseError names the kind)
	badIDFlag = regexp.MustCompile(`^invalid argument "[^"]*" for "(-[^"]+)" flag: ([a-zA-Z]+Id ".*)$`)
	// required flag(s) "output", "page" not set
	missingFlags = regexp.MustCompile(`^required flag\(s\) (.*) not set$`)
	flagKinds    = map[string]string{"Int": "an integer", "Uint": "a whole number", "Float": "a number", "Bool": "true or false", "": "valid"}
)
