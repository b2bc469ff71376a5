// Package scmtemporal runs the items of a batch plan as Temporal
// workflows, one per item, so that many workers share the work and a
// worker that dies mid-step costs its heartbeat timeout: the step moves to
// another worker, and no import, copy or start is sent twice. It is a
// module of its own, so that a program using only the facade links nothing
// of Temporal; cmd/scm-temporal is its command.
//
// A worker is [NewWorker] (or [Register] on any worker.Registry, such as
// Temporal's test environment) with [Activities] on a facade.Client;
// [StartPlan] starts a plan's workflows, and [PlanRun.Wait] returns their
// [Summary] and writes the plan's dataset.
//
// # Steps
//
// [ItemWorkflow] imports or copies the item's scenario, reads the run's
// evidence (a resume token, in the history before anything is started),
// starts the run, waits for it, and writes the dashboard and the result
// data. Its activities are registered as scm.ScenariosNamed,
// scm.ImportScenario, scm.CopyScenario, scm.PrepareRun, scm.StartRun,
// scm.WaitRun, scm.StopRun, scm.ExportDashboard and scm.WriteResultData.
//
// # Exactly once
//
// An attempt that is to send a start, an import or a copy first marks so
// in its heartbeat, confirmed by the Temporal service through the worker's
// own client. A retry that finds no mark sends; one that finds a mark asks
// the server (facade.ExperimentsService.Began, or the new scenario's name,
// facade.ScenariosService.SettleByName): began, and nothing is sent; not
// begun, and it sends; unknown, and the item stops with
// [ErrTypeStartUnknown], saying what to check. A first run's start is
// settled as not begun only with [Options].MaxRunLength declared. An
// import or a copy is settled by its name: its scenario, once listed, is
// its own; none within Options.SettleWindow is unknown. With
// [Options].MaxJobLength declared, an import of a workbook's experiments
// whose scenario is not listed once MaxJobLength has passed since the
// first settling attempt began (after any earlier send) was not taken:
// that attempt fails saying so, and the next one sends it with a fresh
// mark, once. A copy is never sent again so: a real server lists copies
// as "null", whatever their name. While the
// experiment has a run under way that no item started (the facade's one
// rule, facade.ExperimentsService.Activity) the item waits behind it, up
// to Options.QueueTimeout; it never adopts, returns or stops another
// client's run where the facade can tell them apart.
//
// # Bounds and errors
//
// Every step has a bound across its attempts ([Options]: ScenarioTimeout,
// QueueTimeout, StartTimeout, RunTimeout, OutputTimeout; the short reads,
// ten attempts). An error a retry cannot mend (a 4xx, a refusal, invalid
// input, an unreadable token) fails the item at once, with one of the
// ErrType names as its temporal.ApplicationError type; others are retried
// within the bound.
//
// # Cancellation and telemetry
//
// A cancelled workflow stops waiting, and stops its run only with
// Options.StopOnCancel. [NewTracingInterceptor] with scmotel.WithTelemetry
// on the client puts each activity and its calls in the workflow's trace.
//
// # Versioning
//
// Temporal replays a workflow's history through the workflow's code, so a
// change of what ItemWorkflow schedules, or in what order, breaks the
// workflows under way. The histories under testdata/histories, recorded
// from a Temporal server (scmtemporal/e2e record), are replayed by the
// tests. Every change of the workflow's code from now on goes behind
// workflow.GetVersion, and a change of an activity's input or result
// keeps the fields it had. A new option whose zero value leaves every
// command the workflow schedules as it was (Options.MaxJobLength, which
// only lengthens ScenarioTimeout's default when declared) needs no
// version: histories recorded before it carry the zero value.
package scmtemporal
