package main

import (
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxSuggestDistance is how many letters a misspelt flag may differ from
// the flag it is taken for: cobra's distance for its command suggestions.
const maxSuggestDistance = 2

var (
	// unknown flag: --wiat
	unknownLongFlag = regexp.MustCompile(`^unknown flag: --(\S+)`)
	// unknown shorthand flag: 'w' in -wiat
	unknownShortFlag = regexp.MustCompile(`^unknown shorthand flag: '.' in -(\S+)`)
)

// flagError is a usage error for a command line cobra could not parse: an
// unknown flag says which of the command's flags it may be ("did you mean
// --wait?"), as cobra does for commands.
func flagError(cmd *cobra.Command, err error) error {
	if s := suggestFlag(cmd.Flags(), err.Error()); s != "" {
		return usagef("%v; did you mean %s?", err, s)
	}
	return usageError{err}
}

// suggestFlag is the flags an unknown flag's text may mean, "" for none:
// --wiat is --wait; -wait (one dash) is --wait; -O is -o.
func suggestFlag(flags *pflag.FlagSet, msg string) string {
	if m := unknownLongFlag.FindStringSubmatch(msg); m != nil {
		return closestFlags(flags, strings.SplitN(m[1], "=", 2)[0])
	}
	if m := unknownShortFlag.FindStringSubmatch(msg); m != nil {
		word := strings.SplitN(m[1], "=", 2)[0]
		if len([]rune(word)) == 1 {
			return shorthandLike(flags, word)
		}
		return closestFlags(flags, word)
	}
	return ""
}

// closestFlags names the visible flags nearest to name, within
// maxSuggestDistance letters, or the flag whose shorthand name is.
func closestFlags(flags *pflag.FlagSet, name string) string {
	best, names := maxSuggestDistance+1, []string(nil)
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Hidden || f.Deprecated != "" {
			return
		}
		if f.Shorthand != "" && f.Shorthand == name {
			best, names = 0, []string{"-" + f.Shorthand}
			return
		}
		switch d := levenshtein(strings.ToLower(name), strings.ToLower(f.Name)); {
		case d > maxSuggestDistance:
		case d < best:
			best, names = d, []string{"--" + f.Name}
		case d == best:
			names = append(names, "--"+f.Name)
		}
	})
	slices.Sort(names)
	return strings.Join(names, " or ")
}

// shorthandLike names the flag whose shorthand is letter in another case.
func shorthandLike(flags *pflag.FlagSet, letter string) string {
	var found string
	flags.VisitAll(func(f *pflag.Flag) {
		if f.Shorthand != "" && !f.Hidden && strings.EqualFold(f.Shorthand, letter) {
			found = "-" + f.Shorthand
		}
	})
	return found
}

// levenshtein is how many letters must be inserted, deleted or changed to
// turn a into b.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
