package main

// table is every mutation, by area: each a bug that once existed, was
// found in a review, or is the easy slip beside a rule the docs promise,
// with the narrowest tests that catch it. TESTING.md at the module root
// lists them with the last run's verdicts.
var table = []Mutation{
	// Dashboard sheet names: the workbook library counts UTF-16 units
	// and refuses a name that begins or ends with an apostrophe.
	{
		Name:   "sheet-name-counts-runes",
		Breaks: "sheet names are cut at 31 runes, not 31 UTF-16 units: 16 emoji make a name excelize refuses",
		File:   "dashboard/names.go",
		Old:    `units += utf16.RuneLen(r)`,
		New:    `units += min(utf16.RuneLen(r), 1)`,
		Pkg:    "./dashboard",
		Run:    `^TestSheetNamesPassTheLibrarysCheck$`,
	},
	{
		Name:   "sheet-name-cut-ends-with-apostrophe",
		Breaks: "a name cut just after an apostrophe keeps it last, which excelize refuses",
		File:   "dashboard/names.go",
		Old:    `return trimName(s[:i])`,
		New:    `return s[:i]`,
		Pkg:    "./dashboard",
		Run:    `^TestSheetNamesPassTheLibrarysCheck$`,
	},
	{
		Name:   "sheet-name-keeps-outer-apostrophes",
		Breaks: "a page name beginning or ending with an apostrophe keeps it",
		File:   "dashboard/names.go",
		Old:    `return r == '\'' || unicode.IsSpace(r)`,
		New:    `return unicode.IsSpace(r)`,
		Pkg:    "./dashboard",
		Run:    `^TestSheetNamesPassTheLibrarysCheck$`,
	},

	// Documented outcome rules.
	{
		Name:   "runsync-fails-only-on-has-errors",
		Breaks: "RunSync takes only the exact value HAS_ERRORS as a failed start",
		File:   "facade/experiments.go",
		Old:    `case !strings.EqualFold(status, string(gen.ApiExperimentResultValidationStatusOK)):`,
		New:    `case status == "HAS_ERRORS":`,
		Pkg:    "./facade",
		Run:    `^TestRunSyncValidationStatusRule$`,
	},
	{
		Name:   "runsync-ok-case-sensitive",
		Breaks: "RunSync compares OK case-sensitively: ok is a failed start",
		File:   "facade/experiments.go",
		Old:    `case !strings.EqualFold(status, string(gen.ApiExperimentResultValidationStatusOK)):`,
		New:    `case status != string(gen.ApiExperimentResultValidationStatusOK):`,
		Pkg:    "./facade",
		Run:    `^TestRunSyncValidationStatusRule$`,
	},
	{
		Name:   "import-wait-ignores-missing-scenario",
		Breaks: "ImportExcelAndWait counts a job that ends without scenarioId as a success",
		File:   "facade/job.go",
		Old: `	job, err := c.Imports.Excel(ctx, projectID, newScenarioName, file, importOpts)
	if err != nil {
		return nil, err
	}
	return c.withScenario(job.Wait(ctx, waitOpts))`,
		New: `	job, err := c.Imports.Excel(ctx, projectID, newScenarioName, file, importOpts)
	if err != nil {
		return nil, err
	}
	return job.Wait(ctx, waitOpts)`,
		Pkg: "./facade",
		Run: `^TestJobWithoutScenarioIsAnError$/^ImportExcelAndWait$`,
	},
	{
		Name:   "copy-wait-ignores-missing-scenario",
		Breaks: "CopyScenarioAndWait counts a job that ends without scenarioId as a success",
		File:   "facade/job.go",
		Old: `	job, err := c.Scenarios.Copy(ctx, scenarioID, newType, copyOpts)
	if err != nil {
		return nil, err
	}
	return c.withScenario(job.Wait(ctx, waitOpts))`,
		New: `	job, err := c.Scenarios.Copy(ctx, scenarioID, newType, copyOpts)
	if err != nil {
		return nil, err
	}
	return job.Wait(ctx, waitOpts)`,
		Pkg: "./facade",
		Run: `^TestJobWithoutScenarioIsAnError$/^CopyScenarioAndWait$`,
	},
	{
		Name:   "job-scenario-zero-accepted",
		Breaks: "a job that ends with scenarioId 0 names a scenario",
		File:   "facade/job.go",
		Old:    `"scenarioId", deref(status.ScenarioId), false, presentFields(status)`,
		New:    `"scenarioId", deref(status.ScenarioId), true, presentFields(status)`,
		Pkg:    "./facade",
		Run:    `^TestJobWithoutScenarioIsAnError$`,
	},
	{
		Name:   "run-finished-read-before-failed",
		Breaks: "a run state with finished and failed both true reads as FINISHED",
		File:   "facade/run.go",
		Old: `	case isTrue(s.Failed):
		return RunFailed
	case isTrue(s.Finished):
		return RunFinished`,
		New: `	case isTrue(s.Finished):
		return RunFinished
	case isTrue(s.Failed):
		return RunFailed`,
		Pkg: "./facade",
		Run: `^TestRunStateFlagsRule$`,
	},

	// Retries, and the clock they wait on.
	{
		Name:   "retry-after-cap-removed",
		Breaks: "a Retry-After past RetryPolicy.MaxRetryAfter is waited for",
		File:   "facade/call.go",
		Old: `	if apiErr.RetryAfter > p.MaxRetryAfter {
		return 0, false
	}
`,
		New: ``,
		Pkg: "./facade",
		Run: `^TestMaxRetryAfterCapsTheWait$`,
	},
	{
		Name:   "retry-after-cap-excludes-the-cap",
		Breaks: "a Retry-After of exactly MaxRetryAfter is refused",
		File:   "facade/call.go",
		Old:    `if apiErr.RetryAfter > p.MaxRetryAfter {`,
		New:    `if apiErr.RetryAfter >= p.MaxRetryAfter {`,
		Pkg:    "./facade",
		Run:    `^TestMaxRetryAfterCapsTheWait$`,
	},
	{
		Name:   "retry-wait-past-deadline-begun",
		Breaks: "a retry wait that the context's deadline would cut is begun, and the call ends only with the context",
		File:   "facade/call.go",
		Old:    `if deadline, ok := ctx.Deadline(); ok && delay > 0 && c.realClock() && time.Until(deadline) < delay {`,
		New:    `if deadline, ok := ctx.Deadline(); false && ok && delay > 0 && c.realClock() && time.Until(deadline) < delay {`,
		Pkg:    "./facade",
		Run:    `^TestRetryWaitPastTheDeadlineIsNotBegun$`,
	},
	{
		Name:   "retry-wait-mixes-real-and-injected-time",
		Breaks: "retrySleep measures a wait on the injected clock against the real time left before the deadline",
		File:   "facade/call.go",
		Old:    `ok && delay > 0 && c.realClock() && time.Until(deadline) < delay {`,
		New:    `ok && delay > 0 && time.Until(deadline) < delay {`,
		Pkg:    "./facade",
		Run:    `^TestRetryWaitPastTheDeadlineIsNotBegun$`,
	},
	{
		Name:   "attempt-timeout-on-real-time",
		Breaks: "the attempt timeout runs on real time whatever clock WithClock injects",
		File:   "facade/options.go",
		Old: `		c.watchClock = watchClockOf(clock)
`,
		New: ``,
		Pkg: "./facade",
		Run: `^TestAttemptTimeoutRunsOnTheInjectedClock$`,
	},
	{
		Name:   "attempt-timeout-of-after-only-clock-on-real-time",
		Breaks: "for a clock with After but no timers, the attempt timeout falls back to real time",
		File:   "facade/watchdog.go",
		Old:    `return afterTimers{clk}`,
		New:    `return clock.Real{}`,
		Pkg:    "./facade",
		Run:    `^TestAttemptTimeoutRunsOnTheInjectedClock$/^After_only$`,
	},
	{
		Name:   "instant-clock-timers-fire",
		Breaks: "an instant clock's timers are the virtual clock's, so other waits that move it time every attempt out",
		File:   "fake/faketest/faketest.go",
		Old:    `func (c InstantClock) AfterFunc(time.Duration, func()) clock.Timer { return new(stillTimer) }`,
		New:    ``,
		Pkg:    "./fake/faketest",
		Run:    `^TestInstantClockTimersNeverFire$`,
	},
	{
		Name:   "virtual-timer-reset-not-rearmed",
		Breaks: "Reset of a stopped virtual timer does not make it pending again",
		File:   "clock/virtual_timer.go",
		Old: `	was := t.pending
	t.arm(d)
	return was`,
		New: `	was := t.pending
	if was {
		t.arm(d)
	}
	return was`,
		Pkg: "./clock",
		Run: `^TestVirtualTimerStopAndReset$`,
	},
	{
		Name:   "virtual-timer-reset-keeps-its-time",
		Breaks: "Reset of a pending virtual timer keeps the time it had",
		File:   "clock/virtual_timer.go",
		Old: `	was := t.pending
	t.arm(d)
	return was`,
		New: `	was := t.pending
	if !was {
		t.arm(d)
	}
	return was`,
		Pkg: "./clock",
		Run: `^TestVirtualTimerStopAndReset$`,
	},

	// Waits on a run, and the settling of a start whose answer was lost.
	{
		Name:   "run-wait-takes-an-earlier-end",
		Breaks: "Run.Wait takes the end of the run before the start as its own",
		File:   "facade/runorigin.go",
		Old: `	case !before.Ended:
		r.newEnd = EndNotEndedBefore`,
		New: `	default:
		r.newEnd = EndNotEndedBefore`,
		Pkg: "./facade",
		Run: `^(TestWaitNeverTakesAnEarlierRun|TestRecordedStatusStream|TestBeganAfterALostRequest)$`,
	},
	{
		Name:   "run-wait-takes-an-unlisted-success",
		Breaks: "Run.Wait takes a success of a listable run as its own before the scenario lists it",
		File:   "facade/runbegan.go",
		Old:    `return false, nil // a listable run's success needs its entry: the server lists it once finished`,
		New:    `return r.ended(or(by, EndAssumed), nil), nil`,
		Pkg:    "./facade",
		Run:    `^(TestWaitNeverTakesAnEarlierRun|TestAListedSuccessNeedsItsEntry)$`,
	},
	{
		Name:   "run-result-one-of-several",
		Breaks: "a start's result is the oldest of several runs listed since it: another client's",
		File:   "facade/runbegan.go",
		Old:    `case o == Succeeded && len(fresh) == 1:`,
		New:    `case o == Succeeded && len(fresh) >= 1:`,
		Pkg:    "./facade",
		Run:    `^TestAnotherClientsRunIsNeverTaken$`,
	},
	{
		Name:   "run-result-ignores-type",
		Breaks: "a start's result is any new run of its scenario, whatever its type: two experiments on one scenario take each other's",
		File:   "facade/runorigin.go",
		Old:    `run.ScenarioId == o.ScenarioID && run.Type == o.Type &&`,
		New:    `run.ScenarioId == o.ScenarioID &&`,
		Pkg:    "./facade",
		Run:    `^TestConcurrentRunsOfTwoTypesFindTheirOwnResults$`,
	},
	{
		Name:   "stale-window-a-tenth",
		Breaks: "the default stale window is a tenth as long: a lagging status's last end is taken as the run's",
		File:   "facade/runorigin.go",
		Old:    `const DefaultStaleWindow = 10 * time.Second`,
		New:    `const DefaultStaleWindow = time.Second`,
		Pkg:    "./facade",
		Run:    `^TestStaleWindowHoldsTheLastRunsEnd$`,
	},
	{
		Name:   "stale-window-option-ignored",
		Breaks: "WaitOptions.StaleWindow is ignored: the default window is used",
		File:   "facade/poll.go",
		Old:    `if o == nil || o.StaleWindow <= 0 {`,
		New:    `if o == nil || o.StaleWindow >= 0 {`,
		Pkg:    "./facade",
		Run:    `^TestStaleWindowHoldsTheLastRunsEnd$`,
	},
	{
		Name:   "began-not-begun-forced-true",
		Breaks: "Began's deciding branch answers began where the evidence proves the start took no effect",
		File:   "facade/runbegan.go",
		Old: `	case ruled && ruledOut(o, rd):
		return false, true, nil`,
		New: `	case ruled && ruledOut(o, rd):
		return true, true, nil`,
		Pkg: "./facade",
		Run: `^TestBeganAfterALostRequest$`,
	},
	{
		Name:   "began-unknown-folded-into-no",
		Breaks: "a start whose effect the evidence cannot tell is answered not begun, so it is sent again",
		File:   "facade/runbegan.go",
		Old:    `return false, true, r.unknown(o, rd, ruled)`,
		New:    `return false, true, nil`,
		Pkg:    "./facade",
		Run:    `^(TestBeganAfterALostRequest|TestBeganAfterALostAnswerForEveryTypeAndPreviousEnd)$`,
	},
	{
		Name:   "under-way-only-by-generic-state",
		Breaks: "a run under way is seen only where genericState leaves IDLE, which a real server was never seen to send",
		File:   "facade/runorigin.go",
		Old:    `r.underWay = RunActivity(s, before.Ended) == ActivityUnderWay && (before.Ended || !before.Marked)`,
		New:    `r.underWay = RunActivity(s, false) == ActivityUnderWay && !before.Marked`,
		Pkg:    "./facade",
		Run:    `^(TestRecordedStatusStream|TestBeganAfterALostAnswerForEveryTypeAndPreviousEnd)$`,
	},
	{
		Name:   "stale-end-shown",
		Breaks: "Run.States yields the last run's end that the status shows right after a start",
		File:   "facade/poll.go",
		Old:    `if t.outcomeOf(s) == Pending && (!havePrev || changed(prev, s)) {`,
		New:    `if !t.done() && (!havePrev || changed(prev, s)) {`,
		Pkg:    "./facade",
		Run:    `^TestEveryRunAndJobMethod$`,
	},
	// A start's result is its own on a busy and a slow server: refusals,
	// the one rule of a run under way, settled ends, tokens bound to their
	// server, and the rules of Began that held unpinned.
	{
		Name:   "run-under-way-refusal-may-have-applied",
		Breaks: "a start refused because a run is under way counts as may-have-been-applied, and is settled with Began, which takes the other run as its own",
		File:   "facade/call.go",
		Old:    `!apiErr.refusedBeforeActing() && !apiErr.underWay`,
		New:    `!apiErr.refusedBeforeActing()`,
		Pkg:    "./facade",
		Run:    `^(TestRunUnderWayRefusals|TestAnotherClientsRunIsNeverTaken)$`,
	},
	{
		Name:   "run-under-way-message-case-sensitive",
		Breaks: "a refusal's words are matched case-sensitively: Experiment IS RUNNING is a lost answer",
		File:   "facade/underway.go",
		Old:    `	msg = strings.ToLower(msg)`,
		New:    ``,
		Pkg:    "./facade",
		Run:    `^TestRunUnderWayRefusals$`,
	},
	{
		Name:   "prepare-ignores-run-under-way",
		Breaks: "Prepare starts a configuration whose status shows a run under way",
		File:   "facade/runorigin.go",
		Old: `	case a == ActivityUnderWay:
		return nil, s.c.underWayRefusal(rcID, st)`,
		New: `	case a == ActivityUnderWay && false:
		return nil, s.c.underWayRefusal(rcID, st)`,
		Pkg: "./facade",
		Run: `^(TestActivityOnTheFake|TestAnotherClientsRunIsNeverTaken)$`,
	},
	{
		Name:   "activity-ignores-other-configurations",
		Breaks: "a listed run of the type counts as the configuration's own end though another configuration of the type may have made it",
		File:   "facade/underway.go",
		Old:    `	if n != 1 {`,
		New:    `	if n < 1 {`,
		Pkg:    "./facade",
		Run:    `^TestActivityOnTheFake$`,
	},
	{
		Name:   "run-end-not-settled",
		Breaks: "a run's end is taken as soon as it is read, not once a read a stale window later still shows it: a queued run's predecessor is taken",
		File:   "facade/runbegan.go",
		Old:    `	if now.Sub(seen) < window {`,
		New:    `	if false && now.Sub(seen) < window {`,
		Pkg:    "./facade",
		Run:    `^TestAnotherClientsRunIsNeverTaken$`,
	},
	{
		Name:   "began-not-begun-without-max-run-length",
		Breaks: "Began answers not begun once the stale window passes with nothing new, whether or not the longest run was declared: a run under way behind a lagging status is started again",
		File:   "facade/runbegan.go",
		Old:    `		began, decided, err := r.beganNow(ctx, o, deadline, opts.maxRunLength() > 0)`,
		New:    `		began, decided, err := r.beganNow(ctx, o, deadline, true)`,
		Pkg:    "./facade",
		Run:    `^(TestBeganAfterALostRequest|TestLostAnswerOnASlowServer)$`,
	},
	{
		Name:   "began-window-from-the-token",
		Breaks: "Began's window runs from the token's start alone: a token kept an hour before its send answers not begun on a status that has not caught up",
		File:   "facade/runbegan.go",
		Old:    `p, from := r.t.policy(opts), later(o.Started, r.t.c.now())`,
		New:    `p, from := r.t.policy(opts), o.Started`,
		Pkg:    "./facade",
		Run:    `^TestBeganWindowRunsFromTheLaterOfTokenAndNow$`,
	},
	{
		Name:   "legacy-evidence-taken-as-known",
		Breaks: "the first release's runOrigin is read as knowing which end showed before the start: every end after it is new, and Began answers began",
		File:   "facade/resumetoken.go",
		Old:    `Before: priorStatus{Ended: t.EndedBefore, KindKnown: !t.EndedBefore, Marked: true}}`,
		New:    `Before: priorStatus{Ended: t.EndedBefore, KindKnown: true, Marked: true}}`,
		Pkg:    "./facade",
		Run:    `^TestLegacyEvidenceIsSettled$`,
	},
	{
		Name:   "legacy-evidence-ruled-out",
		Breaks: "an end before the start of unknown kind (the first release's evidence) is taken as a success, so Began rules the start out",
		File:   "facade/runbegan.go",
		Old:    `return listable(o.Type) && o.Before.KindKnown && (!o.Before.Ended || o.Before.Outcome == Succeeded) &&`,
		New:    `return listable(o.Type) && (!o.Before.Ended || o.Before.Outcome == Succeeded || !o.Before.KindKnown) &&`,
		Pkg:    "./facade",
		Run:    `^TestLegacyEvidenceIsSettled$`,
	},
	{
		Name:   "end-changed-ignores-text",
		Breaks: "an end of the same outcome with another text is not a new end",
		File:   "facade/runorigin.go",
		Old:    `case before.KindKnown && (r.outcome != before.Outcome || textcut.Cut(deref(s.Text), maxEvidenceText) != before.Text):`,
		New:    `case before.KindKnown && r.outcome != before.Outcome:`,
		Pkg:    "./facade",
		Run:    `^TestAnotherTextOfTheSameEndIsNew$`,
	},
	{
		Name:   "start-time-not-moved-to-the-send",
		Breaks: "StartPrepared keeps Prepare's time as the start's: the token and what to check name a time before the send",
		File:   "facade/experiments.go",
		Old: `	if !sent {
		run.ev.origin.Started = now`,
		New: `	if !sent {
		_ = now`,
		Pkg: "./facade",
		Run: `^TestStartPreparedMovesTheStartToTheSend$`,
	},
	{
		Name:   "cancelled-send-recorded-not-sent",
		Breaks: "a send the context cuts after its headers left is recorded as not sent, so a batch sends the start again",
		File:   "facade/wiretrace.go",
		Old:    `	if w.wrote.Load() && (hasBody || !writeFailed(err)) {`,
		New:    `	if w.wrote.Load() && (hasBody || !writeFailed(err)) && !errors.Is(err, context.Canceled) {`,
		Pkg:    "./facade",
		Run:    `^TestASendCutByCancellationMayHaveBeenApplied$`,
	},
	{
		Name:   "wait-window-shared",
		Breaks: "two waits on one Run share one stale window: a short wait that gives up shortens the settling of a long one",
		File:   "facade/poll.go",
		Old:    `	return &waitSettings{window: opts.staleWindow()}`,
		New: `	t.mu.Lock()
	defer t.mu.Unlock()
	t.polled.window = opts.staleWindow()
	return t.polled`,
		Pkg: "./facade",
		Run: `^TestEachWaitKeepsItsStaleWindow$`,
	},
	{
		Name:   "token-server-unchecked",
		Breaks: "a resume token made for another server is resumed",
		File:   "facade/resumetoken.go",
		Old:    `	if o.Server != "" && o.Server != c.server() && !c.formerServer(o.Server) {`,
		New:    `	if false {`,
		Pkg:    "./facade",
		Run:    `^(TestResumeTokensRefused|TestFormerServers)$`,
	},
	{
		Name:   "token-checksum-unchecked",
		Breaks: "an edited resume token is resumed: its checksum is not compared",
		File:   "facade/resumetoken.go",
		Old:    `	if body, sum := token[:dot], token[dot+1:]; sum != tokenChecksum(body) {`,
		New:    `	if body, sum := token[:dot], token[dot+1:]; sum == "" && body == "" {`,
		Pkg:    "./facade",
		Run:    `^TestResumeTokensRefused$`,
	},
	{
		Name:   "token-duplicate-keys-nested",
		Breaks: "a key given twice is found only at the top of a token's evidence",
		File:   "facade/resumetoken.go",
		Old:    `		if key, ok := tok.(string); ok && top != nil && top.wantKey {`,
		New:    `		if key, ok := tok.(string); ok && top != nil && top.wantKey && len(stack) == 1 {`,
		Pkg:    "./facade",
		Run:    `^TestResumeTokensRefused$`,
	},
	// The poll policy: the pause without progress follows the work's age.
	{
		Name:   "poll-pace-ignores-age",
		Breaks: "the pause without progress stays Lateness × 40 s (2 s) whatever the run's age: a 10 min run costs 300 status requests",
		File:   "facade/pollpolicy.go",
		Old:    `d := time.Duration(p.Lateness * float64(max(elapsed, youngWork)))`,
		New:    `d := time.Duration(p.Lateness * float64(youngWork))`,
		Pkg:    "./facade",
		Run:    `^TestDefaultPolicyPacesByTheRunsAge$`,
	},
	{
		Name:   "poll-pace-past-its-bound",
		Breaks: "the pause without progress is drawn up to twice the bound: a run's end is seen later than Lateness × its length",
		File:   "facade/pollpolicy.go",
		Old:    `return max(bound-p.jitter.below(bound/4+1), p.MinInterval)`,
		New:    `return max(bound+p.jitter.below(bound+1), p.MinInterval)`,
		Pkg:    "./facade",
		Run:    `^(TestDefaultPolicyPacesByTheRunsAge|TestPauseWithoutProgressFollowsTheAge)$`,
	},
	{
		Name:   "poll-jitter-removed",
		Breaks: "every waiter pauses exactly the bound: many waiters poll in step",
		File:   "facade/pollpolicy.go",
		Old:    `return max(bound-p.jitter.below(bound/4+1), p.MinInterval)`,
		New:    `return max(bound, p.MinInterval)`,
		Pkg:    "./facade",
		Run:    `^(TestPollJitterDiffersBetweenWaiters|TestPauseWithoutProgressFollowsTheAge)$`,
	},
	{
		Name:   "poll-estimate-trusted-to-max-interval",
		Breaks: "an estimate from progress may pause up to MaxInterval (10 min) while the run is young: progress that speeds up is seen late",
		File:   "facade/pollpolicy.go",
		Old:    `max(bound, estimateCap), p.MaxInterval)`,
		New:    `p.MaxInterval)`,
		Pkg:    "./facade",
		Run:    `^TestEstimatorPlacesPollAfterTheFinish$`,
	},
	{
		Name:   "scm-run-wait-own-pace",
		Breaks: "scm run --wait polls at a pace of its own (at most 1 s), not the client's policy that SDK users and batch get",
		File:   "cmd/scm/runs.go",
		Old:    `opts.Policy, opts.StopOnCancel = followPoll, f.stopOnCancel`,
		New:    `opts.Policy, opts.StopOnCancel = &facade.PollPolicy{MinInterval: 200 * time.Millisecond, MaxInterval: time.Second}, f.stopOnCancel`,
		Pkg:    "./cmd/scm",
		Run:    `^TestRunWaitTakesTheClientsPolicy$`,
	},
	{
		Name:   "runsync-without-result-id",
		Breaks: "RunSync accepts an answer without experimentResultId as a result",
		File:   "facade/experiments.go",
		Old:    `"experimentResultId", out.ExperimentResultId, false, presentFields(out)`,
		New:    `"experimentResultId", out.ExperimentResultId, true, presentFields(out)`,
		Pkg:    "./facade",
		Run:    `^TestRunSyncNeedsItsResultID$`,
	},

	// What a hostile server can make the client hold, print or take for
	// an id (issue 37, facade side).
	{
		Name:   "body-cap-not-enforced",
		Breaks: "a body past Limits.MaxBodyBytes is read whole, without a *limits.Error",
		File:   "facade/limits.go",
		Old:    `	if int64(n) > b.left {`,
		New:    `	if false && int64(n) > b.left {`,
		Pkg:    "./facade",
		Run:    `^(TestLimits|TestHostileBodyOverMaxBodyBytesIsNotRead)$`,
	},
	{
		Name:   "answers-read-uncapped",
		Breaks: "a decoded answer, a list or a page is read without Limits.MaxBodyBytes",
		File:   "facade/call.go",
		Old:    `	resp.Body = c.cfg.limits.capBody(cl.op.ID, resp.Body)`,
		New:    `	_ = c.cfg.limits`,
		Pkg:    "./facade",
		Run:    `^TestLimits$/^MaxBodyBytes$`,
	},
	{
		Name:   "unknown-states-unbounded",
		Breaks: "every new unknown state value is kept and logged, past Limits.MaxUnknownStates",
		File:   "facade/states.go",
		Old:    `	if len(l.seen) >= l.limits.MaxUnknownStates {`,
		New:    `	if false {`,
		Pkg:    "./facade",
		Run:    `^(TestLimits|TestHostileNewHugeStateOnEveryPoll)$`,
	},
	{
		Name:   "unknown-state-logged-whole",
		Breaks: "an unknown state value is kept and logged uncut",
		File:   "facade/states.go",
		Old:    `	shown := secrets.scrubCut(state, l.limits.MaxReportedLen)`,
		New:    `	shown := secrets.scrub(state)`,
		Pkg:    "./facade",
		Run:    `^TestHostileNewHugeStateOnEveryPoll$`,
	},
	{
		Name:   "maxwait-error-quotes-state-whole",
		Breaks: "the MaxWait error quotes the last state whole and unscrubbed",
		File:   "facade/poll.go",
		Old:    `	state := t.secrets.scrubCut(last.stateValue(), t.c.cfg.limits.MaxReportedLen)`,
		New:    `	state := last.stateValue()`,
		Pkg:    "./facade",
		Run:    `^(TestHostileNewHugeStateOnEveryPoll|TestHostileSecretsEncoded)$`,
	},
	{
		Name:   "job-poll-without-start-secrets",
		Breaks: "a job's poll does not scrub the password its start sent from its drift findings",
		File:   "facade/poll.go",
		Old:    `	s, err := t.poll(withSecretsContext(ctx, t.secrets))`,
		New:    `	s, err := t.poll(ctx)`,
		Pkg:    "./facade",
		Run:    `^TestHostileSecretsEncoded$`,
	},
	{
		Name:   "secret-base64-not-redacted",
		Breaks: "a secret in base64 (standard alphabet, or inside user:key) is shown",
		File:   "facade/secretmatch.go",
		Old:    `		forms = append(forms, encoded{text: core, base64: true})`,
		New:    `		_ = core`,
		Pkg:    "./facade",
		Run:    `^TestHostileSecretsEncoded$`,
	},
	{
		Name:   "secret-hex-not-redacted",
		Breaks: "a secret in hex is shown",
		File:   "facade/secretmatch.go",
		Old:    `	forms := []encoded{{text: hex.EncodeToString([]byte(v))}}`,
		New:    `	forms := []encoded{{text: hex.EncodeToString([]byte(v)) + "\x00"}}`,
		Pkg:    "./facade",
		Run:    `^TestHostileSecretsEncoded$`,
	},
	{
		Name:   "negative-id-accepted",
		Breaks: "a negative id from the server is taken for one",
		File:   "facade/answer.go",
		Old:    `	case id > 0 || id == 0 && zeroIsID:`,
		New:    `	case id != 0 || zeroIsID:`,
		Pkg:    "./facade",
		Run:    `^(TestHostileNegativeJobID|TestHostileNegativeScenarioID|TestHostileNegativePageID)$`,
	},
	{
		Name:   "answer-error-is-usage",
		Breaks: "scm exits 2, the usage code, for an error about the server's answer that holds a validation error",
		File:   "cmd/scm/root.go",
		Old:    `	case !fromAnswer(err) && (`,
		New:    `	case (`,
		Pkg:    "./cmd/scm",
		Run:    `^TestAnswerErrorsAreNotUsageErrors$`,
	},
	{
		Name:   "specdiff-listing-cut",
		Breaks: "specdiff compares a listing cut at its size limit",
		File:   "internal/specdiff/fetch/size.go",
		Old:    `	if int64(len(data)) > max {`,
		New:    `	if false && int64(len(data)) > max {`,
		Pkg:    "./internal/specdiff/fetch",
		Run:    `^TestListingOverMaxSizeIsRefused$`,
	},
	{
		Name:   "batch-resends-on-unknown",
		Breaks: "a batch sends runExperiment again when whether the start took effect cannot be told",
		File:   "batch/runstart.go",
		Old: `	case err != nil:
		return err
	case began:
		return w.update(func(s *ItemState) { s.RunStarted = true })`,
		New: `	case err != nil && !errors.Is(err, facade.ErrStartUnknown):
		return err
	case began:
		return w.update(func(s *ItemState) { s.RunStarted = true })`,
		Pkg: "./batch",
		Run: `^(TestLostRunRequestOfANewConfigurationIsUnknown|TestKilledAtEveryRequest)$`,
	},
	// A batch's start is its own on a busy and a slow server: it queues
	// behind a run it did not start, settles a lost start with the bounds
	// the user declares, and keeps tokens bound to their items.
	{
		Name:   "batch-refusal-is-a-failure",
		Breaks: "an item whose start is refused because a run it did not start is under way fails instead of queueing behind it",
		File:   "batch/runstart.go",
		Old:    `		if !errors.Is(err, facade.ErrRunUnderWay) {`,
		New:    `		if true {`,
		Pkg:    "./batch",
		Run:    `^TestAnotherProcessesRunIsNeverAdopted$`,
	},
	{
		Name:   "batch-start-without-project",
		Breaks: "a batch's Prepare is not given the item's project, so a run under way that shows finished false after an end is not seen, and the item starts beside it",
		File:   "batch/runstart.go",
		Old:    `return &facade.StartOptions{ProjectID: w.it.Project, ScenarioID: s.ScenarioID, Type: w.it.Experiment}`,
		New:    `return &facade.StartOptions{ScenarioID: s.ScenarioID, Type: w.it.Experiment}`,
		Pkg:    "./batch",
		Run:    `^TestAnotherProcessesRunIsNeverAdopted$`,
	},
	{
		Name:   "batch-queue-without-pause",
		Breaks: "an item refused while the status does not show the run under way prepares and sends again at once, in a loop",
		File:   "batch/runstart.go",
		Old:    `	if err := w.pause(ctx, staleWindow(opts)); err != nil {`,
		New:    `	if err := w.pause(ctx, 0); err != nil {`,
		Pkg:    "./batch",
		Run:    `^TestAnotherProcessesRunIsNeverAdopted$/^refused$/^0_s_before$/^40s$`,
	},
	{
		Name:   "batch-stale-window-not-passed",
		Breaks: "the staleWindow a plan or an item declares is not given to the item's waits, so a lost start behind a status lagging 30 s is unknown",
		File:   "batch/bounds.go",
		Old:    `		StaleWindow:  cmp.Or(w.it.StaleWindow, w.r.plan.StaleWindow, w.r.opts.StaleWindow)}`,
		New:    `		StaleWindow:  cmp.Or(w.r.opts.StaleWindow)}`,
		Pkg:    "./batch",
		Run:    `^TestLostStartsOnASlowServer$`,
	},
	{
		Name:   "batch-max-run-length-not-passed",
		Breaks: "the maxRunLength a plan declares is not given to Began, so a start that never reached the server is never ruled out and sent again",
		File:   "batch/bounds.go",
		Old:    `		MaxRunLength: cmp.Or(w.it.MaxRunLength, w.r.plan.MaxRunLength, w.r.opts.MaxRunLength),`,
		New:    `		MaxRunLength: cmp.Or(w.r.opts.MaxRunLength),`,
		Pkg:    "./batch",
		Run:    `^TestLostRunRequestIsSentAgain$`,
	},
	{
		Name:   "batch-tokens-not-checked",
		Breaks: "a state file whose items' tokens were swapped, or made for another server, is resumed: each item waits for and exports another's run",
		File:   "batch/runner.go",
		Old:    `	if err := st.checkTokens(c, plan); err != nil {`,
		New:    `	if err := st.checkTokens(c, plan); false && err != nil {`,
		Pkg:    "./batch",
		Run:    `^(TestSwappedTokensAreRefused|TestForeignTokenIsRefused)$`,
	},
	{
		Name:   "batch-token-rcid-not-compared",
		Breaks: "a token of another rcId than the one the item's state records is taken as the item's",
		File:   "batch/tokens.go",
		Old:    `	if st.RcID != 0 && subject.RcID != st.RcID {`,
		New:    `	if false && st.RcID != 0 && subject.RcID != st.RcID {`,
		Pkg:    "./batch",
		Run:    `^TestSwappedTokensAreRefused$/^rcId_edited$`,
	},
	{
		Name:   "batch-token-server-not-checked",
		Breaks: "a token made for another server is resumed by the batch",
		File:   "batch/tokens.go",
		Old:    `	if _, err := c.ResumeRunFromToken(token); err != nil {`,
		New:    `	if _, err := c.ResumeRunFromToken(token); false && err != nil {`,
		Pkg:    "./batch",
		Run:    `^TestForeignTokenIsRefused$`,
	},
	{
		Name:   "batch-decided-token-not-kept",
		Breaks: "the token a wait decided is not stored: a resumed batch decides the run's end again",
		File:   "batch/steps.go",
		Old:    `		s.RunToken, s.RunOrigin = token, nil`,
		New:    `		_ = token`,
		Pkg:    "./batch",
		Run:    `^TestDecidedTokenIsKept$`,
	},
	{
		Name:   "batch-adopts-a-start-without-evidence",
		Breaks: "a start recorded without evidence is taken as begun when the status shows a run under way, which may be another process's",
		File:   "batch/runstart.go",
		Old: `	if !s.hasRunEvidence() {
		return false, &facade.StartUnknownError{`,
		New: `	if !s.hasRunEvidence() {
		return true, nil
		return false, &facade.StartUnknownError{`,
		Pkg: "./batch",
		Run: `^TestStartWithoutEvidenceIsUnknown$`,
	},
	{
		Name:   "scm-run-refusal-not-named",
		Breaks: "scm run reports a start refused because a run it did not start is under way as the SDK's error, without saying whose run it is and what to do",
		File:   "cmd/scm/runs.go",
		Old:    `	case errors.Is(err, facade.ErrRunUnderWay):`,
		New:    `	case false && errors.Is(err, facade.ErrRunUnderWay):`,
		Pkg:    "./cmd/scm",
		Run:    `^TestRunWaitNeverTakesAnotherProcessesRun$`,
	},
	{
		Name:   "scm-start-without-project",
		Breaks: "scm run and scm status do not find the configuration's project, so a run under way that shows finished false after an end is not seen: scm run starts beside it, scm status says unknown",
		File:   "cmd/scm/status.go",
		Old:    `	opts.ProjectID, err = projectOf(ctx, c, opts.ScenarioID, rcID)`,
		New:    `	_, err = projectOf(ctx, c, opts.ScenarioID, rcID)`,
		Pkg:    "./cmd/scm",
		Run:    `^(TestRunWaitNeverTakesAnotherProcessesRun|TestStatusSaysWhetherARunIsUnderWay)$`,
	},
	{
		Name:   "scm-lost-start-said-not-taken",
		Breaks: "scm run says a lost start whose effect cannot be told did not take effect",
		File:   "cmd/scm/runs.go",
		Old:    `		return fmt.Errorf("%w; nothing was sent again (`,
		New:    `		return fmt.Errorf("%w; the server shows that it did not take effect; nothing was sent again (`,
		Pkg:    "./cmd/scm",
		Run:    `^TestRunWaitLostAnswerOnASlowServer$`,
	},
	{
		Name:   "scm-sync-notice-repeats",
		Breaks: "scm run --sync repeats 'no answer for 10s' every 10 s of the run, some 720 lines for a run of 2 h",
		File:   "cmd/scm/notice.go",
		Old:    `found && known.HeldOpen && t.notice.heldOpenShown {`,
		New:    `found && known.HeldOpen && t.notice.heldOpenShown && false {`,
		Pkg:    "./cmd/scm",
		Run:    `^TestRunSyncSaysOnceThatItWaits$`,
	},
	{
		Name:   "scm-run-line-still",
		Breaks: "on a terminal, scm run --wait's elapsed time moves only when the server's state changes (RUNNING 0s for the whole run)",
		File:   "cmd/scm/progress.go",
		Old: `		case <-l.clock.After(tickEvery):
			l.mu.Lock()
			l.draw()`,
		New: `		case <-l.clock.After(tickEvery):
			l.mu.Lock()
			_ = l.draw`,
		Pkg: "./cmd/scm",
		Run: `^TestRunLineElapsedTimeMoves$`,
	},
	{
		Name:   "scm-batch-lines-still",
		Breaks: "on a terminal, scm batch redraws its items' lines only when an event comes, so a run's elapsed time stands still between polls",
		File:   "cmd/scm/batch_progress.go",
		Old: `			case <-d.clock.After(tickEvery):
				d.mu.Lock()
				d.redraw()`,
		New: `			case <-d.clock.After(tickEvery):
				d.mu.Lock()
				_ = d.redraw`,
		Pkg: "./cmd/scm",
		Run: `^TestBatchDisplayElapsedTimeMoves$`,
	},

	// What a failure says was applied.
	{
		Name:   "refusal-may-have-been-applied",
		Breaks: `a 500 "Access is denied" to a state-changing call is classed as may-have-been-applied`,
		File:   "facade/call.go",
		Old: ` &&
			!apiErr.refusedBeforeActing()`,
		New: ``,
		Pkg: "./facade",
		Run: `^TestRecordedAnswersDriveTheFacade$/^denied$`,
	},
	{
		Name:   "unknown-id-may-have-been-applied",
		Breaks: `a 500 "no such ..." to a state-changing call is classed as may-have-been-applied`,
		File:   "facade/call.go",
		Old:    `!apiErr.refusedBeforeActing()`,
		New:    `!apiErr.deniedAccess()`,
		Pkg:    "./facade",
		Run:    `^TestUnknownIDIsNotApplied$`,
	},
	{
		Name:   "unknown-id-not-a-refusal",
		Breaks: `a 500 "no such ..." is not taken as a refusal before acting: retried, and classed as may-have-been-applied`,
		File:   "facade/errors.go",
		Old:    `return e.StatusCode >= 500 && (e.deniedAccess() || unknownID(e.Message))`,
		New:    `return e.StatusCode >= 500 && e.deniedAccess()`,
		Pkg:    "./facade",
		Run:    `^TestRetriesOfServerErrors$`,
	},
	{
		Name:   "config-refusal-may-have-been-applied",
		Breaks: "a TLS configuration the server refuses is classed as may-have-been-applied",
		File:   "facade/call.go",
		Old:    `return !errors.Is(err, errNotSent) && !neverSent(err) && !errors.As(err, &cfg) && configHint(err, nil) == ""`,
		New:    `return !errors.Is(err, errNotSent) && !neverSent(err) && !errors.As(err, &cfg)`,
		Pkg:    "./facade",
		Run:    `^TestHandshakeRefusalIsNotApplied$`,
	},

	// The observer hook.
	{
		Name:   "observer-hook-allocates",
		Breaks: "the end of an observed call allocates (the errors.As target declared where it escapes)",
		File:   "facade/observe_hooks.go",
		Old: `	if err == nil {
		r.Attempts++
	} else {
		r.Status, r.RequestID = answered(err)
	}`,
		New: `	var apiErr *APIError
	if err == nil {
		r.Attempts++
	} else if errors.As(err, &apiErr) {
		r.Status, r.RequestID = apiErr.StatusCode, apiErr.secrets.scrub(apiErr.RequestID)
	}`,
		Pkg: "./facade",
		Run: `^TestObserverUnsetAllocatesNothingMore$`,
	},

	// Paging.
	{
		Name:   "paging-last-take-not-cut",
		Breaks: "the last request of a paging asks for a whole page, not what MaxItems leaves",
		File:   "facade/paging.go",
		Old: `	if p.end >= 0 {
		n = min(n, p.end-p.next)
	}`,
		New: `	if p.end >= 0 && p.next >= p.end {
		n = 0
	}`,
		Pkg: "./facade",
		Run: `^TestLastRequestIsCutToMaxItems$`,
	},
	{
		Name:   "paging-options-read-when-ranged",
		Breaks: "an item iterator reads its PageOptions when ranged, not when made",
		File:   "facade/paging.go",
		Old:    `for page, err := range pagesSeq(ctx, src, &o) {`,
		New:    `for page, err := range pagesSeq(ctx, src, opts) {`,
		Pkg:    "./facade",
		Run:    `^TestIteratorsCopyTheirOptionsWhenMade$`,
	},
	{
		Name:   "paging-cycle-unchecked",
		Breaks: "pages that alternate whatever the skip are paged until the request budget",
		File:   "facade/paging.go",
		Old:    `f.err = seen.add(f.skip, items[0], items[len(items)-1])`,
		New:    `_ = seen.add(f.skip, items[0], items[len(items)-1])`,
		Pkg:    "./facade",
		Run:    `^TestHostilePagesThatAlternate$`,
	},
	{
		Name:   "paging-cycle-last-item-ignored",
		Breaks: "a page that ends with the last item of a recent page is not a cycle",
		File:   "facade/pagecycle.go",
		Old: `		case old.last == p.last:
			edge = "last"
`,
		New: ``,
		Pkg: "./facade",
		Run: `^TestHostilePageWhoseFirstItemChanges$`,
	},

	// Downloads resumed.
	{
		Name:   "resume-takes-a-wrong-first-byte",
		Breaks: "a 206 that starts at another byte than the first missing one is taken as the rest",
		File:   "facade/download.go",
		Old: `	case first != b.delivered:
		return 0, fmt.Sprintf("asked for the rest from byte %d, the server sent it from byte %d", b.delivered, first)
`,
		New: ``,
		Pkg: "./facade",
		Run: `^TestResumeRefusesAWrongFirstByte$`,
	},
	{
		Name:   "resume-takes-another-version",
		Breaks: "a 206 whose validator is not the download's is taken as the rest",
		File:   "facade/download.go",
		Old:    `return total, b.validator.mismatch(resp.Header)`,
		New:    `return total, ""`,
		Pkg:    "./facade",
		Run:    `^TestHostileResumedDownload$`,
	},

	// Drift findings.
	{
		Name:   "drift-findings-merged-across-operations",
		Breaks: "a finding of one operation hides the same finding of another",
		File:   "drift/collector.go",
		Old:    `k := key{kind: f.Kind, operation: f.Operation, path: f.Path, keptRaw: f.KeptRaw}`,
		New:    `k := key{kind: f.Kind, path: f.Path, keptRaw: f.KeptRaw}`,
		Pkg:    "./drift",
		Run:    `^TestCollectorKeepsEachOperation$`,
	},
	{
		Name:   "drift-enum-values-merged",
		Breaks: "a second value outside an enumeration at the same place is not a finding of its own",
		File:   "drift/collector.go",
		Old: `	if f.Kind == KindEnum {
		k.value = string(f.Value)
	}
`,
		New: ``,
		Pkg: "./drift",
		Run: `^TestCollectorKeepsEachEnumValue$`,
	},

	// Numbers.
	{
		Name:   "float-fast-path-19-digits",
		Breaks: "the fast float parser takes 19 digits: 16-19-digit decimals parse to a wrong float64 about one time in five",
		File:   "internal/jsondec/scalars.go",
		Old:    `if i < len(b) || nd > 15 {`,
		New:    `if i < len(b) || nd > 19 {`,
		Pkg:    "./internal/jsondec",
		Run:    `^TestLongDecimalsParseExactly$`,
	},
	{
		Name:   "float-fast-path-19-digits-seeds",
		Breaks: "the same, caught by FuzzNumbers' seeds alone (make test runs them)",
		File:   "internal/jsondec/scalars.go",
		Old:    `if i < len(b) || nd > 15 {`,
		New:    `if i < len(b) || nd > 19 {`,
		Pkg:    "./internal/jsondec",
		Run:    `^FuzzNumbers$`,
	},
	{
		Name:   "int-fast-path-19-digits",
		Breaks: "the fast integer parser takes 19 digits: a number past int64 wraps instead of being kept",
		File:   "internal/jsondec/scalars.go",
		Old: `	if len(digits) > 18 {
		n, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(b), len(b)), 10, 64)`,
		New: `	if len(digits) > 19 {
		n, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(b), len(b)), 10, 64)`,
		Pkg: "./internal/jsondec",
		Run: `^TestIntegersOutOfRangeAreKept$`,
	},
	{
		Name:   "quoted-int-fast-path-19-digits",
		Breaks: "a string holding an integer of 19 digits overflows int64 without an error",
		File:   "internal/jsondec/scalars.go",
		Old:    `case len(digits) > 18:`,
		New:    `case len(digits) > 19:`,
		Pkg:    "./internal/jsondec",
		Run:    `^TestIntegersOutOfRangeAreKept$`,
	},

	// A batch's dataset.
	{
		Name:   "batch-part-recorded-before-written",
		Breaks: "the state file records an item's part before the part is on disk",
		File:   "batch/data_step.go",
		Old: `	part := DataPart{File: path, Format: d.Format.Name}
`,
		New: `	part := DataPart{File: path, Format: d.Format.Name}
	if err := w.update(func(s *ItemState) { s.Data = &part }); err != nil {
		return err
	}
`,
		Pkg: "./batch",
		Run: `^TestPartIsOnDiskBeforeItIsRecorded$`,
	},
	{
		Name:   "batch-dataset-always-rewritten",
		Breaks: "a batch that adds no part writes the dataset again",
		File:   "batch/data_assemble.go",
		Old: `	if r.st.datasetIs(d.path, digest) {
		return sum
	}
`,
		New: ``,
		Pkg: "./batch",
		Run: `^TestDatasetIsWrittenWhenItsPartsChange$`,
	},
	{
		Name:   "batch-dataset-change-unseen",
		Breaks: "a dataset changed on disk since it was written is left as it is",
		File:   "batch/data_assemble.go",
		Old:    `return err == nil && info.Mode().IsRegular() && info.Size() == rec.Bytes`,
		New:    `return err == nil && info.Mode().IsRegular()`,
		Pkg:    "./batch",
		Run:    `^TestDatasetIsWrittenWhenItsPartsChange$`,
	},
	{
		Name:   "batch-leftover-parts-kept",
		Breaks: "the temporary files of parts a killed batch was writing are not removed",
		File:   "batch/leftovers.go",
		Old: `		exports[d.parts] = append(exports[d.parts], d.partNames(r.plan)...)
`,
		New: ``,
		Pkg: "./batch",
		Run: `^TestDataKilledWhileRowsAreWritten$`,
	},

	// Integers written as floats, and the 408 the README promises to retry.
	{
		Name:   "int-from-float-through-float64",
		Breaks: "a number written with a fraction or an exponent goes through float64 and is bounded after rounding: 9007199254740993.0 reads as 9007199254740992",
		File:   "internal/jsondec/scalars.go",
		Old:    `n, exact = exactInt(num)`,
		New:    `f, _ := parseFloat(num, 64); n, exact = int64(f), f == float64(int64(f)) && f <= 1<<53 && f >= -(1<<53)`,
		Pkg:    "./internal/jsondec",
		Run:    `^TestFloatWrittenIntegersConvertExactly$`,
	},
	{
		Name:   "int-from-float-through-float64-seeds",
		Breaks: "the same, caught by FuzzNumbers' seeds alone through its math/big oracle",
		File:   "internal/jsondec/scalars.go",
		Old:    `n, exact = exactInt(num)`,
		New:    `f, _ := parseFloat(num, 64); n, exact = int64(f), f == float64(int64(f)) && f <= 1<<53 && f >= -(1<<53)`,
		Pkg:    "./internal/jsondec",
		Run:    `^FuzzNumbers$`,
	},
	{
		Name:   "int-from-float-through-float64-on-the-wire",
		Breaks: "the same, seen through the facade: RunSync answered experimentResultId 9007199254740993.0 returns 9007199254740992",
		File:   "internal/jsondec/scalars.go",
		Old:    `n, exact = exactInt(num)`,
		New:    `f, _ := parseFloat(num, 64); n, exact = int64(f), f == float64(int64(f)) && f <= 1<<53 && f >= -(1<<53)`,
		Pkg:    "./facade",
		Run:    `^TestFloatWrittenIDsAreExactOrKeptRaw$`,
	},
	{
		Name:   "int-from-float-20-digits",
		Breaks: "a float-written integer of 20 digits is taken: 2e19 overflows uint64 and wraps to a wrong int64",
		File:   "internal/jsondec/decimal.go",
		Old:    `digits+scale > maxInt64Digits {`,
		New:    `digits+scale > maxInt64Digits+1 {`,
		Pkg:    "./internal/jsondec",
		Run:    `^TestFloatWrittenIntegersConvertExactly$`,
	},
	{
		Name:   "int-from-float-below-min-int64",
		Breaks: "a negative float-written integer below math.MinInt64 wraps instead of being kept",
		File:   "internal/jsondec/decimal.go",
		Old:    `case neg && u <= 1<<63:`,
		New:    `case neg:`,
		Pkg:    "./internal/jsondec",
		Run:    `^TestFloatWrittenIntegersConvertExactly$`,
	},
	{
		Name:   "int-from-float-kept-reported-as-converted",
		Breaks: "a number kept raw where an integer belongs is reported as the answer having a number, as a lossless 5002.0 is",
		File:   "internal/jsondec/site.go",
		Old:    `case found == "number" && specJSONType(s.Type) == "integer":`,
		New:    `case false:`,
		Pkg:    "./internal/jsondec",
		Run:    `^TestKeptNumberIsReportedAsKept$`,
	},
	{
		Name:   "retry-408-not-retried",
		Breaks: "a safe operation answered 408 is not retried, though the README promises it",
		File:   "facade/retry.go",
		Old:    `return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests ||`,
		New:    `return status == http.StatusTooManyRequests ||`,
		Pkg:    "./facade",
		Run:    `^TestRequestTimeoutIsRetriedWhereSafe$`,
	},
	{
		Name:   "retry-408-state-changing-retried",
		Breaks: "a state-changing call answered with a retryable status (408) is sent again",
		File:   "facade/call.go",
		Old: `	if cl.op.ChangesState {
		return 0, false
	}
`,
		New: ``,
		Pkg: "./facade",
		Run: `^TestRequestTimeoutIsRetriedWhereSafe$/^state-changing$`,
	},
	{
		Name:   "retry-408-may-have-been-applied",
		Breaks: "a 408 to a state-changing call, which the server did not process, is classed as may-have-been-applied",
		File:   "facade/call.go",
		Old:    `apiErr.MayHaveBeenApplied = cl.op.ChangesState && apiErr.StatusCode >= 500 &&`,
		New:    `apiErr.MayHaveBeenApplied = cl.op.ChangesState && (apiErr.StatusCode >= 500 || apiErr.StatusCode == http.StatusRequestTimeout) &&`,
		Pkg:    "./facade",
		Run:    `^TestRequestTimeoutIsRetriedWhereSafe$/^state-changing$`,
	},

	// The spec read strictly, as validators that ignore the discriminator
	// read it, and the facade's table pages read where the spec says.
	{
		Name:   "strict-spec-keeps-discriminators",
		Breaks: "the strict document keeps the discriminators, so kin-openapi takes the variant they name and a oneOf matched twice passes",
		File:   "internal/spec/strict.go",
		Old:    "\tDropDiscriminators(doc)\n\treturn doc, nil",
		New:    "\treturn doc, nil",
		Pkg:    "./internal/spec",
		Run:    `^TestStrictDocumentIgnoresTheDiscriminator$`,
	},
	{
		Name:   "example-rule-reads-discriminators",
		Breaks: "specdiff validate checks the examples with the discriminators, so an example two variants match passes",
		File:   "internal/spec/strictcheck.go",
		Old:    "\tDropDiscriminators(doc)\n\tfor _, ex",
		New:    "\tfor _, ex",
		Pkg:    "./internal/spec",
		Run:    `^TestCheckFindsPlantedViolations$`,
	},
	{
		Name:   "chart-wrapper-class-name-open",
		Breaks: "the graph chart wrapper's className is any string, so every chart of a result page matches both variants of the oneOf",
		File:   "api/openapi.yaml",
		Old:    "enum: [ApiExperimentResultGraphChartWrapper]",
		New:    "x-enum: [ApiExperimentResultGraphChartWrapper]",
		Pkg:    "./api",
		Run:    `^TestRecordedAnswersValidateStrictly$`,
	},
	{
		Name:   "run-status-not-nullable",
		Breaks: "getExperiments' runStatus is not nullable, though the real server sends null for a configuration that has not run",
		File:   "api/openapi.yaml",
		Old:    "runStatus:\n          type: string\n          nullable: true\n",
		New:    "runStatus:\n          type: string\n",
		Pkg:    "./api",
		Run:    `^TestRecordedAnswersValidateStrictly$`,
	},
	{
		Name:   "missing-table-rows-checked-under-rows",
		Breaks: "a table page's rows are looked for under rows, not the property x-paged-items names: a page without entityList is an empty table",
		File:   "facade/answer.go",
		Old:    "jsondec.Keys(body, op.PagedItems)",
		New:    `jsondec.Keys(body, "rows")`,
		Pkg:    "./facade",
		Run:    `^TestTablePagesReadTheFieldTheSpecNames$`,
	},
	// A value kept raw reported even where one converted was reported before.
	{
		Name:   "kept-raw-hidden-by-converted-collector",
		Breaks: "the client keeps one probe-type finding per operation and path: an id kept raw (1e19) is not listed where 5002.0 was converted before, nor the other way round",
		File:   "drift/collector.go",
		Old:    `k := key{kind: f.Kind, operation: f.Operation, path: f.Path, keptRaw: f.KeptRaw}`,
		New:    `k := key{kind: f.Kind, operation: f.Operation, path: f.Path}`,
		Pkg:    "./facade",
		Run:    `^TestKeptIDIsReportedAfterAConvertedOne$`,
	},
	{
		Name:   "kept-raw-hidden-by-converted-row",
		Breaks: "the decoder's every-row shortcut takes a value kept raw for the conversion noted at the same place on an earlier row, and notes nothing",
		File:   "internal/jsondec/site.go",
		Old:    `if s == r.typed && k.kind == r.typedKind {`,
		New:    `if s == r.typed {`,
		Pkg:    "./internal/jsondec",
		Run:    `^TestKeptAndConvertedAreNotedApart$`,
	},

	// Retry and paging rules a user adjusts, safe by default.
	{
		Name:   "retry-hook-asked-after-the-request-left",
		Breaks: "RetryPolicy.ShouldRetry is asked about a state-changing call whose request may have reached the server, and can send it twice",
		File:   "facade/call.go",
		Old:    `if p.ShouldRetry == nil || !mayAsk(cl, p, failure) {`,
		New:    `if p.ShouldRetry == nil {`,
		Pkg:    "./facade",
		Run:    `^TestRetryStatusCodesAndHook$`,
	},
	{
		Name:   "retry-status-list-ignored",
		Breaks: "RetryPolicy.StatusCodes is ignored: the default statuses are retried",
		File:   "facade/retry.go",
		Old:    `if p.StatusCodes == nil {`,
		New:    `if true {`,
		Pkg:    "./facade",
		Run:    `^TestRetryStatusCodesAndHook$`,
	},
	{
		Name:   "repeated-edges-always-a-cycle",
		Breaks: "PageOptions.KeepRepeatedEdges is ignored: a table with equal edge rows is refused as a cycle",
		File:   "facade/paging.go",
		Old:    `if f.err == nil && !o.KeepRepeatedEdges && len(items) > 0`,
		New:    `if f.err == nil && len(items) > 0`,
		Pkg:    "./facade",
		Run:    `^TestRepeatedEdgesKeptWhenAsked$`,
	},
}
