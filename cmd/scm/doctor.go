package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/doctor"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// doctorClock and doctorPoll time and pace scm doctor --run: nil and zero,
// the real clock and the doctor's default pause. The tests run the
// doctor and its fake on one virtual clock.
var (
	doctorClock clock.Clock
	doctorPoll  time.Duration
)

// doctorNames are the settings the report's fixes name: scm's flags.
var doctorNames = doctor.Names{
	BaseURL: "--base-url or SCM_BASE_URL", APIKey: "--api-key or SCM_API_KEY", KeyPrefix: "--api-key-prefix",
	CACert: "--ca-cert FILE (or SCM_CA_CERT)", SkipVerify: "--insecure-skip-verify", InsecureHTTP: "--insecure-http",
	Project: "--project", Drift: "--overlay-out FILE (a spec change, for specdiff overlay apply) or --format json",
	RequestLicense: "scm call requestLicense",
}

// doctorFlags are scm doctor's settings.
type doctorFlags struct {
	project    ids.ProjectID
	run        ids.RcID
	yes        bool
	out        *listOutput
	overlayOut string
}

func (a *app) doctorCommand() *cobra.Command {
	f := &doctorFlags{}
	cmd := &cobra.Command{
		Use:   "doctor [--project PROJECT] [--run RCID --yes] [--format table|json|jsonl|csv] [-o PATH]",
		Short: "Check a server in one go: configuration, network and TLS, key, license, spec, answers",
		Long: `doctor goes through what the first contact with a server needs, a line per
check (ok, warn or fail, what it saw, what to change), and stops at a
check that makes the rest pointless:

  base-url, api-key, proxy   the settings, and the proxy net/http applies
  dns, connect, tls          getCurrentUser's connection, traced
  key                        whose key it is, or that the server refused it
  license                    what can be known without taking one
  spec                       the server's OpenAPI document against the spec
  probe                      a project's lists, and where the answers
                             differed from the spec (--overlay-out FILE
                             writes them as a spec change)
  run                        with --run RCID --yes only: one run, measured

It sends nothing that changes state, unless --run RCID --yes is given:
then it starts one run of that configuration (runExperiment) and measures
how long the status shows the last run's end (the status lag), when the
run is listed and how long it takes, and recommends the stale window and
the maximum run length run identity uses.

Exit codes: 0 when no check failed (warnings allowed), 1 when one failed,
2 for a usage mistake.`,
		Example: `  scm doctor
  scm doctor --format json -o doctor.json
  scm doctor --project 1 --overlay-out drift-overlay.yaml
  scm doctor --run 10303 --yes
  scm doctor --run 10303          # exits 2: says what --run would do, and sends nothing`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(cmd); err != nil {
				return err
			}
			return a.doctor(cmd.Context(), f)
		},
	}
	fl := cmd.Flags()
	idVar(cmd, &f.project, "project", "the project whose lists the probe reads (default: the first listed)")
	idVar(cmd, &f.run, "run", "start one run of this running configuration to measure the status lag (needs --yes)")
	fl.BoolVar(&f.yes, "yes", false, "let --run start the run")
	fl.StringVar(&f.overlayOut, "overlay-out", "", "when the answers differ from the spec, write an OpenAPI Overlay that changes it to `FILE`")
	f.out = a.withListOutput(cmd)
	return a.withTimeLimits(cmd)
}

// check refuses what the command line gets wrong, before anything is sent.
func (f *doctorFlags) check(*cobra.Command) error {
	switch {
	case f.run != 0 && !f.yes:
		return usagef("--run %d starts one run of rcId %d (runExperiment, which changes state: the run takes a license while it runs and makes a new result) "+
			"to measure how long the status shows the last run's end; add --yes to let it", f.run, f.run)
	case f.yes && f.run == 0:
		return usagef("--yes lets --run start a run, and no --run was given")
	case f.overlayOut == "-":
		return usagef("--overlay-out -: give a file; standard output holds the report")
	}
	return nil
}

// doctor runs the checks, writes the report and fails when a check did.
func (a *app) doctor(ctx context.Context, f *doctorFlags) error {
	rep := a.doctorReport(ctx, f)
	forShellReport(&rep)
	if err := a.writeReport(f, rep); err != nil {
		return err
	}
	if err := a.writeOverlay(f.overlayOut, rep); err != nil {
		return err
	}
	if rep.Failed() {
		return wholeOutput{doctorFailed{rep}} // the report is whole: -o's file is written
	}
	return nil
}

// doctorReport is the doctor's report, or that of the settings when no
// client can be made of them.
func (a *app) doctorReport(ctx context.Context, f *doctorFlags) doctor.Report {
	if rep, ok := a.doctorConfigFailure(); !ok {
		return rep
	}
	c, err := a.doctorClient(f)
	if err != nil { // the SDK refused the base URL: plain http to another host, a query
		rep := configFailure(doctor.CheckBaseURL, forShell(unstutter("scm doctor", err.Error())), "correct the base URL ("+doctorNames.BaseURL+") as this says")
		rep.BaseURL = shownURL(a.baseURL)
		return rep
	}
	return doctor.Run(ctx, c, a.doctorOptions(f))
}

// writeReport writes the report to standard output (-o's file): CSV
// through csvsafe, as every CSV scm writes.
func (a *app) writeReport(f *doctorFlags, rep doctor.Report) error {
	if f.out.format != formatCSV {
		return rep.Write(a.stdout, doctor.Format(f.out.format))
	}
	l := listTable{header: []string{"status", "check", "seen", "fix"}}
	for _, c := range rep.Checks {
		l.add(textCell(string(c.Status)), textCell(c.Name), textCell(c.Seen), textCell(c.Fix))
	}
	return f.out.write(l)
}

// doctorConfigFailure is the report of settings too wrong to make a
// client of: no base URL, one that is no http(s) URL or holds a password,
// no key. ok is true when a client can be made.
func (a *app) doctorConfigFailure() (doctor.Report, bool) {
	fail := func(check, seen, fix string) (doctor.Report, bool) {
		rep := configFailure(check, seen, fix)
		rep.BaseURL = shownURL(a.baseURL)
		return rep, false
	}
	if _, err := a.base(); err != nil {
		return fail(doctor.CheckBaseURL, err.Error(), "give the server's base URL, ending in /api/v1, with "+doctorNames.BaseURL)
	}
	if a.apiKey == "" {
		return fail(doctor.CheckAPIKey, "no API key is set: the server refuses every call without one", "give the key of a user of this server with "+doctorNames.APIKey)
	}
	if _, err := a.tlsConfig(); err != nil {
		return fail(doctor.CheckTLS, err.Error(), "give the PEM file of the server's CA with --ca-cert")
	}
	return doctor.Report{}, true
}

// configFailure is the report of settings the doctor cannot go on with.
func configFailure(check, seen, fix string) doctor.Report {
	return doctor.Report{StoppedAfter: check, Checks: []doctor.Check{{Name: check, Status: doctor.Fail, Seen: seen, Fix: fix}}}
}

// doctorClient is the client of the checks: every operation that changes
// state is refused before it leaves, but runExperiment with --run --yes.
func (a *app) doctorClient(f *doctorFlags) (*facade.Client, error) {
	hc, err := a.httpClient(a.attemptTimeout)
	if err != nil {
		return nil, err
	}
	hc.Transport = doctorGuard{base: hc.Transport, allowRun: f.run != 0 && f.yes}
	opts := []facade.Option{facade.WithHTTPClient(hc)}
	if doctorClock != nil {
		opts = append(opts, facade.WithClock(doctorClock))
	}
	return a.client(opts...)
}

func (a *app) doctorOptions(f *doctorFlags) doctor.Options {
	return doctor.Options{Project: f.project, Run: f.run, CompareSpec: a.compareSpec(), Clock: doctorClock, PollInterval: doctorPoll, Names: doctorNames}
}

// doctorGuard sends only the operations the spec marks as not changing
// state, and runExperiment when allowRun: scm doctor reads, and with
// --run --yes starts one run.
type doctorGuard struct {
	base     http.RoundTripper
	allowRun bool
}

func (g doctorGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	name, _ := facade.OperationFromContext(req.Context())
	op, ok := gen.LookupOperation(name)
	if !ok || op.ChangesState && !(g.allowRun && op.ID == string(gen.OpRunExperiment)) {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, fmt.Errorf("scm doctor sends nothing that changes state, and %s does", name)
	}
	return g.base.RoundTrip(req)
}

// forShellReport names scm's flags where the SDK's messages in the report
// name its options.
func forShellReport(rep *doctor.Report) {
	for i, c := range rep.Checks {
		rep.Checks[i].Seen, rep.Checks[i].Fix = optionFlags.Replace(c.Seen), optionFlags.Replace(c.Fix)
	}
}

// doctorFailed is the end of a doctor whose report has a failed check: the
// report said what to change, the error names the check.
type doctorFailed struct{ rep doctor.Report }

func (e doctorFailed) Error() string {
	var failed []string
	for _, c := range e.rep.Checks {
		if c.Status == doctor.Fail {
			failed = append(failed, c.Name)
		}
	}
	return fmt.Sprintf("the %s check failed: the report says what to change", strings.Join(failed, ", "))
}
