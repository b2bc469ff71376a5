// Command racepkgs splits the packages given (go list patterns, ./... by
// default) into those whose tests run under the race detector and those
// whose tests run without it, and prints one of the two lists, a package
// per line: -race prints the packages whose own code (its non-test files)
// starts a goroutine or imports sync, sync/atomic or errgroup; -plain
// prints the others.
//
// The race detector finds races between goroutines. A package whose code
// starts none and shares nothing through sync runs one goroutine of its
// own: the goroutines its tests meet belong to other packages (the fake,
// the facade), whose own tests run under the detector. make test runs the
// plain packages' tests without it, three to four times faster.
package main
