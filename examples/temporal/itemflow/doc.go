// Package itemflow runs the items of a batch plan as Temporal workflows, one
// workflow per item, so that many workers share the work and a worker that
// dies mid-run costs nothing: its activities are retried on another worker
// and resume from their heartbeats.
//
// [ItemWorkflow] calls the activities of [Activities], all built on the
// SDK's facade and batch packages. ScenariosNamed and FindExperiment take
// into the workflow's history what tells the item's scenario and run from
// older ones: the scenarios that already have the new name, and the origin
// of the run to come (resume token ([facade.Run.ResumeToken]), read by
// [facade.ExperimentsService.Prepare] before anything is started: the runs
// its scenario lists, and whether a run had ended). ImportScenario,
// RunExperiment and ExportDashboard do the long work, heartbeating what a
// retry needs (the jobId; the run's origin, whether its start was sent and
// took effect) and progress.
//
// A server names no run in its status, shows the last run's end right
// after a start, and lists a run only once it has finished. So
// RunExperiment waits on [facade.Client.ResumeRun] with the origin, which
// takes an end as the run's own only on evidence, and takes the run id and
// experimentResultId from this start's entry among the scenario's runs
// ([facade.Run.Entry], [facade.Run.ResultID]), never an earlier run's. A
// retry resumes from the heartbeat, or, when the last heartbeats were lost
// with the worker, settles whether an earlier attempt's start took effect
// ([facade.Run.Began]) before it starts: it never starts a second run, and
// imports again only when a crash fell between the import's answer and the
// heartbeat of its job id. Cancelling the workflow stops its run, once the
// run's start shows and while the run is under way.
package itemflow
