// Package itemflow runs the items of a batch plan as Temporal workflows, one
// workflow per item, so that many workers share the work and a worker that
// dies mid-run costs nothing: its activities are retried on another worker
// and resume from their heartbeats.
//
// [ItemWorkflow] calls the activities of [Activities], all built on the
// SDK's facade and batch packages: ScenariosNamed and FindExperiment take
// the baselines (the scenarios that already have the new name, the
// experiment's latest run) into the workflow's history; ImportScenario,
// RunExperiment and ExportDashboard do the long work, heartbeating their
// ids (jobId, runId) and progress. A retry resumes from the heartbeat, or,
// when the last heartbeats were lost with the worker, from what the server
// shows against the baselines: it never starts a second run, and imports
// again only when a crash fell between the import's answer and the
// heartbeat of its job id. Cancelling the workflow stops the run.
package itemflow
