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
// optionFlags are the SDK's options that SDK messages name, as the flags
// that set them: a message for the shell names the flag.
var optionFlags = strings.NewReplacer(
	"WithCACertFile", "--ca-cert",
	"WithInsecureSkipVerify", "--insecure-skip-verify",
	"WithInsecureHTTP", "--insecure-http",
	"WithAPIKey", "--api-key",
	"WithKeyPrefix", "--api-key-prefix",
	"WithTLSConfig", "a TLS configuration of the SDK (scm has no flag for it)",
	"WithFormerServers", "an option of the SDK (scm has no flag for it)",
)

// forShell is an SDK message as the shell user needs it: the constructor's
// name dropped, and each option named by the flag that sets it.
func forShell(msg string) string {
	return optionFlags.Replace(strings.TrimPrefix(msg, "New: "))
}

// unstutter drops from an error's text the words that the line already
// begins with: the command's own words ("batch: ", "import excel: ") and
// the SDK's package name, however often they lead it.
func unstutter(path, text string) string {
	words := strings.Fields(path)
	var prefixes []string
	for i := 1; i < len(words); i++ {
		prefixes = append(prefixes, strings.Join(words[i:], " ")+": ")
	}
	prefixes = append(prefixes, "facade: ")
	for again := true; again; {
		again = false
		for _, p := range prefixes {
			if rest, ok := strings.CutPrefix(text, p); ok {
				text, again = rest, true
			}
		}
	}
	return text
}

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
	return forShell(msg) + a.limitHint(err)
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
	case attemptTimedOut(err) && !errors.As(err, new(*facade.ValidationError)):
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

// attemptTimedOut reports a request that saw nothing move for the attempt
// timeout (--request-timeout): a *facade.RequestError or *facade.APIError
// matching facade.ErrTimeout (a wait's MaxWait is neither).
func attemptTimedOut(err error) bool {
	var reqErr *facade.RequestError
	var apiErr *facade.APIError
	return errors.Is(err, facade.ErrTimeout) && (errors.As(err, &reqErr) || errors.As(err, &apiErr))
}
