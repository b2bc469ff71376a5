// Package scmtemporal runs the items of a batch plan as Temporal
// workflows, one workflow per item, so that many workers share the work and
// a worker that dies mid-run costs nothing: its activities are retried on
// another worker, and no state-changing call is sent twice.
//
// It is a module of its own, github.com/scmodel/scmgo/scmtemporal, so that a
// program using only the facade links nothing of Temporal.
//
// A worker (as many as you like, on any machines) registers the workflow
// and the activities with [Register], on a facade.Client; [StartPlan]
// starts a plan's workflows, and [PlanRun.Wait] returns their [Summary].
// Temporal's test environment is a worker.Registry too:
//
//	scmtemporal.Register(env, &scmtemporal.Activities{Client: c})
//	env.ExecuteWorkflow(scmtemporal.ItemWorkflow, scmtemporal.ItemInput{Name: "simulation", ProjectID: 1, ScenarioID: 103,
//		Experiment: gen.ExperimentTypeSIMULATION})
//
// # Steps
//
// [ItemWorkflow] takes an item ([ItemInput], made from a batch plan's item
// by [ItemsFromPlan]) through the activities of [Activities], as `scm
// batch` does: ScenariosNamed then ImportScenario or CopyScenario (a new
// scenario), PrepareRun (the experiment, and the evidence of the run to
// come as a resume token), StartRun, WaitRun, ExportDashboard and
// WriteResultData. Short activities read what tells the item's scenario and
// run from older ones (the scenarios that had the name, the resume token),
// so it is in the workflow's history before anything is imported, copied
// or started, and every retry has it on any worker: nothing of it is kept
// on a worker's disk.
//
// # Exactly once
//
// Temporal retries activities, so every activity that changes state on the
// server sends its change at most once across its attempts:
//
//   - StartRun's attempt marks that it is about to send ([SendMark]), the
//     mark confirmed by the Temporal service through the worker's client
//     ([Activities].Temporal), before it sends. A retry that finds no mark
//     sends: no attempt did. One that finds a mark first asks the server
//     what the earlier attempt did (facade.Run.Began, with the resume
//     token): began, and it sends nothing; not begun, and it starts the
//     run; unknown, and the item stops with a non-retryable application
//     error of type [ErrTypeStartUnknown] whose message says what the user
//     can check on the server. runExperiment is never sent again on
//     unknown. Without the client every retry asks, so an attempt that
//     died before it sent can stop a first run's item as unknown: a real
//     server shows a first run under way as it shows none.
//   - ImportScenario and CopyScenario heartbeat the job id once answered
//     (confirmed through the worker's client; without it, as the
//     attempt's first heartbeat, which the SDK sends at once); a retry
//     polls that job. With the client they mark before they send, as
//     StartRun does, and a retry that finds no mark sends. A retry that
//     finds a mark but no job id (the worker died between the answer and
//     its heartbeat, or the answer was lost; without the client, any
//     retry without a job id) looks for the new scenario by its name among
//     those not there before, and stops the item as unknown when none
//     shows within [Options].SettleWindow of the first attempt that
//     settled (JobProgress.SettlingSince).
//   - WaitRun, ExportDashboard and WriteResultData change nothing on the
//     server; the files are written whole or not at all.
//
// An attempt that fails knowing that nothing reached the server says so
// in its last heartbeat, which the SDK sends with the failure: the retry
// right after it sends without asking. Every heartbeat of an attempt goes
// through one writer, which records only the latest details: a mark sent
// late beside the send never comes after that last heartbeat.
//
// What Temporal cannot fence is a worker that lives on cut off from it:
// its attempt, timed out, learns so only when a heartbeat gets through
// (its context then ends), so a start it had not yet sent could still go
// out after a retry elsewhere settled "not begun". The activities
// heartbeat every quarter of the timeout, which bounds the window for a
// worker that still reaches Temporal.
//
// Activities that wait heartbeat at least every quarter of their heartbeat
// timeout, which [Options] size to the poll policy (four of its
// MinInterval, at least [MinHeartbeatTimeout]), so a dead worker's wait
// moves to another worker within that timeout.
//
// # Cancellation
//
// Cancelling an item's workflow (or [PlanRun.Cancel]) stops waiting; the
// run goes on on the server unless [Options].StopOnCancel asks to stop it,
// as `scm batch --stop-on-cancel` does: then StopRun stops it once its
// start shows and while it is under way. An import or a copy under way is
// left to finish.
//
// # Telemetry
//
// Give the Activities' client scmotel.WithTelemetry (the otel module) for
// the facade's spans and metrics, and the client and the worker
// [NewTracingInterceptor] (Temporal's OpenTelemetry interceptor): a
// workflow's trace then holds its activities, and each activity the
// facade's calls it made.
package scmtemporal
