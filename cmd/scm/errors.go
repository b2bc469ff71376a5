package main

import (
	"regexp"
	"strings"
)

// errorText is how a failed command reports err after its command path:
// without the SDK's package prefix, since the command names the operation
// already, and with cobra's and strconv's wording made plain.
func errorText(err error) string {
	msg := strings.TrimPrefix(err.Error(), "facade: ")
	if m := badFlagValue.FindStringSubmatch(msg); m != nil {
		return m[2] + ": " + m[1] + " is not " + flagKinds[m[3]]
	}
	if m := missingFlags.FindStringSubmatch(msg); m != nil {
		names := strings.Split(strings.ReplaceAll(m[1], `"`, ""), ", ")
		return map[bool]string{true: "missing required flag --", false: "missing required flags --"}[len(names) == 1] + strings.Join(names, ", --")
	}
	return msg
}

var (
	// invalid argument "abc" for "--rc" flag: strconv.ParseInt: parsing "abc": invalid syntax
	badFlagValue = regexp.MustCompile(`^invalid argument ("[^"]*") for "(-[^"]+)" flag: strconv\.Parse(Int|Uint|Float|Bool|Duration)?`)
	// required flag(s) "output", "page" not set
	missingFlags = regexp.MustCompile(`^required flag\(s\) (.*) not set$`)
	flagKinds    = map[string]string{"Int": "an integer", "Uint": "a whole number", "Float": "a number", "Bool": "true or false", "": "valid"}
)
