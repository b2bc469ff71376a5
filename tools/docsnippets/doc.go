// Package docsnippets holds the tests that keep the Go snippets of the
// README, CONTRIBUTING.md, the guides under docs/ and the packages'
// documentation compiling and running: each snippet must be the code of an
// Example function with an Output comment somewhere in the repository,
// which go test runs, and the examples of snippets whose package has no
// example file of ours live here. It also
// checks that every transcript of those documents (a code block starting
// "$ ") is one that cmd/scm's or cmd/specdiff's tests replay.
package docsnippets
