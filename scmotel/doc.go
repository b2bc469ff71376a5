// Package scmotel makes OpenTelemetry traces and metrics of what a
// facade.Client does: give [WithTelemetry] to facade.New, or
// facade.WithObserver([NewObserver]).
//
//	c, err := facade.New(baseURL, facade.WithAPIKey(key), scmotel.WithTelemetry())
//
// It is a module of its own, github.com/scmodel/scmgo/scmotel, so that a
// program using only the facade links nothing of OpenTelemetry. Spans and
// metrics go to the global tracer and meter providers unless
// [WithTracerProvider] and [WithMeterProvider] say otherwise.
//
// # Traces
//
// Every operation call is a client span named by its operationId, e.g.
// getExperimentStatus, with the attributes scm.operation,
// scm.operation.changes_state, scm.attempts and scm.outcome (success,
// error or canceled); a failed call adds error.type (the HTTP status, or
// a word such as attempt_timeout, connection_refused, validation) and
// scm.may_have_been_applied, and an answer with an error status adds
// http.response.status_code and scm.request_id. Its status description
// is the error's text, which the facade keeps free of secrets.
//
// Each HTTP attempt is a child client span named after the HTTP client
// semantic conventions, "GET /open/user" (method and url.template), with
// http.request.method, server.address, server.port, url.full (without user
// information), url.template, http.response.status_code, error.type and,
// from the second attempt, http.request.resend_count; and scm.operation
// and scm.attempt. The W3C trace context of the attempt's span is injected
// into its request (traceparent), or whatever [WithPropagator] or the
// global propagator propagates.
//
// A wait before a retry is a "retry" event of the call's span, with
// scm.attempt (the attempt that failed), scm.retry.delay (seconds),
// scm.retry.reason ("status 503", "attempt timeout", ...),
// scm.may_have_been_applied and http.response.status_code.
//
// A wait for a run or a job (Run.Wait, Job.Wait, their States and what is
// built on them) is a span "Run.Wait" or "Job.Wait" with scm.rc.id (the
// rcId of the running configuration; runs have ids of their own) or
// scm.job.id, and, when it ends, scm.wait.polls, scm.state (the last) and
// scm.outcome; its polls' calls are its children, and each change of
// state is a "state" event with scm.state, scm.state.previous and
// scm.poll. Each page of dashboard.Export and of resultdata.Result is a
// span "dashboard.page" (scm.dashboard.page.name, .id, .index) holding its
// export's call, and
// each item of a batch a span "batch.item" (scm.batch.item.name).
//
// # Metrics
//
//   - http.client.request.duration (s): each attempt, until its answer's
//     headers, by http.request.method, server.address, server.port,
//     http.response.status_code, error.type and scm.operation;
//   - scm.client.operation.duration (s): each call, retries included, by
//     scm.operation, scm.outcome and error.type;
//   - scm.client.operation.active ({call}): the calls under way, by
//     scm.operation;
//   - scm.client.retries ({retry}): by scm.operation and scm.retry.reason;
//   - scm.client.polls ({poll}): the answered polls of runs and jobs, by
//     scm.wait.kind (run, job) and scm.operation.
//
// # Secrets
//
// No span, event or metric holds the API key (the Authorization header is
// added after the attempt's span starts, and nothing reads it), the value
// of a field the spec marks x-sensitive (a database password), or a URL's
// password.
package scmotel
