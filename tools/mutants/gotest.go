package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// Verdicts of a mutation; see the package documentation.
const (
	Killed   = "KILLED"
	Survived = "SURVIVED"
	Stale    = "STALE"
	Invalid  = "INVALID"
	TimedOut = "TIMEOUT"
)

// testRun is what one go test run of a mutation's tests showed.
type testRun struct {
	verdict string
	failed  []string // the tests that failed, leaves first in the order they failed
	detail  string   // why, for a verdict other than KILLED; the first failure's output for KILLED
}

// event is a line of go test -json (test2json's, and the build's).
type event struct {
	Action      string
	Package     string
	Test        string
	Output      string
	FailedBuild string
}

// goTest runs go test on pkg's tests matching run, in root, with timeout
// for the test binary, and judges the outcome. The test processes run in a
// group of their own, killed whole when ctx ends.
func goTest(ctx context.Context, root, pkg, run string, timeout time.Duration) (testRun, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout+buildAllowance)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-json", "-count=1", "-timeout", timeout.String(), "-run", run, pkg)
	cmd.Dir = root
	killGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return testRun{verdict: TimedOut, detail: fmt.Sprintf("go test did not end within %v", timeout+buildAllowance)}, nil
		}
		return testRun{}, ctx.Err()
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return testRun{}, fmt.Errorf("go test %s: %w", pkg, err)
	}
	r := judge(stdout.Bytes(), err == nil)
	if r.verdict == Invalid && r.detail == "" {
		r.detail = firstLine(stderr.String())
	}
	return r, nil
}

// buildAllowance is the time go test may take beyond its -timeout, to
// build the test binary.
const buildAllowance = 5 * time.Minute

// judge reads go test -json output: passed is whether go test exited 0.
func judge(out []byte, passed bool) testRun {
	var (
		failed, running, ran []string
		buildOutput          strings.Builder
		testOutput           = map[string]*strings.Builder{}
		buildFailed          bool
		noTests, timedOut    bool
	)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		var ev event
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Action {
		case "build-output":
			buildOutput.WriteString(ev.Output)
		case "build-fail":
			buildFailed = true
		case "run":
			running, ran = append(running, ev.Test), append(ran, ev.Test)
		case "pass", "skip":
			running = remove(running, ev.Test)
		case "fail":
			buildFailed = buildFailed || ev.FailedBuild != ""
			if ev.Test != "" {
				running = remove(running, ev.Test)
				failed = append(failed, ev.Test)
			}
		case "output":
			noTests = noTests || strings.HasPrefix(ev.Output, "testing: warning: no tests to run")
			timedOut = timedOut || strings.HasPrefix(ev.Output, "panic: test timed out")
			if ev.Test != "" {
				if testOutput[ev.Test] == nil {
					testOutput[ev.Test] = &strings.Builder{}
				}
				testOutput[ev.Test].WriteString(ev.Output)
			}
		}
	}
	switch {
	case buildFailed:
		return testRun{verdict: Invalid, detail: "does not build: " + firstCompileError(buildOutput.String())}
	case timedOut:
		return testRun{verdict: TimedOut, failed: running, detail: "the tests hung until go test's -timeout"}
	case passed && (noTests || len(ran) == 0):
		return testRun{verdict: Invalid, detail: "no test matched -run"}
	case passed:
		return testRun{verdict: Survived, detail: fmt.Sprintf("%d tests passed", len(ran))}
	case len(failed) == 0:
		return testRun{verdict: Killed, failed: []string{"(the test binary)"}, detail: "the package failed outside any test"}
	}
	leaves := leafTests(failed)
	return testRun{verdict: Killed, failed: leaves, detail: failureLines(testOutput[leaves[0]])}
}

// leafTests are the failed tests none of whose subtests failed, in the
// order they failed.
func leafTests(failed []string) []string {
	var leaves []string
	for _, t := range failed {
		if !slices.ContainsFunc(failed, func(u string) bool { return strings.HasPrefix(u, t+"/") }) {
			leaves = append(leaves, t)
		}
	}
	return leaves
}

func remove(list []string, s string) []string {
	if i := slices.Index(list, s); i >= 0 {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// failureLines is the first lines of a failed test's output that say
// why, without go test's framing.
func failureLines(out *strings.Builder) string {
	if out == nil {
		return ""
	}
	var lines []string
	for l := range strings.Lines(out.String()) {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- ") {
			continue
		}
		if lines = append(lines, l); len(lines) == 3 {
			break
		}
	}
	return strings.Join(lines, " | ")
}

// firstCompileError is the first line of build output that is not a
// "# package" header.
func firstCompileError(out string) string {
	for l := range strings.Lines(out) {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return "(no output)"
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
