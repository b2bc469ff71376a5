// Package facade is the client of the supply-chain modelling server's
// remote interface: every operation as an idiomatic method, with
// authentication, retries, paging, job polling, typed errors, streaming
// and logging done once, here.
//
//	c, err := facade.New("https://scm.example.com/api/v1", facade.WithAPIKey(key))
//	scenarios, err := c.Scenarios.List(ctx, projectID)
//
// # Authentication
//
// [WithAPIKey] sets the key sent, alone, in the Authorization header of
// every request; [WithKeyPrefix] puts a word such as Bearer before it.
// [NewFromEnv] reads SCM_BASE_URL, SCM_API_KEY and SCM_API_KEY_PREFIX, and
// refuses an empty SCM_API_KEY unless an option gives the key. The key is
// added in one place, a RoundTripper that clones each request, and
// only for the base URL's host. It never appears in an error, a log line or
// the printed form of any facade value. Sending it over plain http to a
// host that is not loopback is refused unless [WithInsecureHTTP] is given.
//
// # Operations
//
// The fields of [Client] group the operations by area: [Client.Projects],
// [Client.Scenarios], [Client.Imports], [Client.Experiments],
// [Client.Results] and [Client.Dashboards] (the Results area, by the rcId
// of an experiment and by the experimentResultId of a finished run),
// [Client.Variations], [Client.LastMile] and [Client.User]. Required inputs are positional, optional ones are in an
// options struct that may be nil. Each method names its operation in a
// last doc line, //scm:operation <operationId>: exactly one method per
// operation, and a test (and specdiff facade) checks those lines against the
// spec. A paged operation's method is its item iterator; its page-level
// iterator says //scm:pages <operationId>. [Client.Call] sends any
// operation by its camelCase or snake_case name with the same
// authentication, retries and errors, for generic tools; [Client.Raw]
// returns the generated client.
//
// # Ids
//
// Every id is of its kind's type in package ids, in the methods and in the
// generated models alike: an rcId is an [ids.RcID], an experimentResultId
// an [ids.ExperimentResultID], a listed run's id an [ids.RunID], and so on.
// The compiler refuses one kind where another is wanted:
// c.Dashboards.Pages(ctx, rcID) does not compile, and neither does
// c.Experiments.Status(ctx, run.RcId) for a listed run, whose rcId is its
// result's id (gen.ApiBasicRun.RcId is an [ids.ExperimentResultID]). The
// wire is unchanged: each id travels as the number or string it was. An id
// read from text takes its kind once, with [ids.Parse]; a number written
// in the code (10303) takes the kind of the parameter. The statistics pages
// list their ids as numeric strings: [ids.Parse] reads one for
// [ResultsService.StatisticsPageCharts]. A variation not yet created is
// [ids.NewVariation], sent as new by the two operations that accept it.
//
// [ScenariosService.Named] and [ExperimentsService.Find] look ids up by
// name and type; [ScenariosService.SettleByName] finds the scenario an
// import or a copy made, to settle one whose answer was lost.
//
// Variation creation ([VariationsService.Create], and
// [VariationsService.CreateNew] for the table variation types) first asks
// doesVariableParameterHasSelectedData and fails matching [ErrConflict]
// when nothing is selected; a NUMBER_RANGE variation needs no table. The last
// mile add operations add only the selected records;
// [LastMileService.AddOnlyShipments] selects exactly the given rows first.
//
// # Paging
//
// Every skip/take operation has an item iterator and an iterator over the
// whole answer to each request, both iter.Seq2 values. The latter is named
// ...Pages, except in [ResultsService], where a page is a statistics page
// of a result and the whole answers are batches (...Batches):
//
//	for row, err := range c.Results.ChartTableRows(ctx, rcID, chartID, nil) { ... }
//	for batch, err := range c.Results.ChartTableBatches(ctx, rcID, chartID, nil) { ... }
//
// [PageOptions] sets the page size (default 1000), a maximum number of
// items, the skip to start at (a plain resume token) and Prefetch, the
// number of pages requested concurrently ahead of the consumer and
// delivered in order. Paging stops after a short page, at an empty page,
// or at a page identical to the previous one (a server that clamps past
// the end). A server that never ends its list is stopped too: a page that
// starts or ends with the item a recent page started or ended with (pages
// that alternate, a page whose last item changes) ends the paging with a
// [*MalformedError] (its Cycle), and more requests than PageOptions.MaxRequests
// (default [DefaultMaxRequests]) with a [*limits.Error]. The options are
// copied when the iterator is made. Breaking the loop or cancelling the
// context stops every request; no goroutine outlives the loop.
//
// # Jobs and runs
//
// [ExperimentsService.Start] returns a [Run]; the asynchronous imports and
// [ScenariosService.Copy] return a [Job]. Both are pollers of one shape:
// Poll (one request), Done, State (the last one seen), Result, Wait (until
// a terminal state) and States (each change, with progress). A job
// resumes from its id ([Client.Job]); a run from the opaque, versioned
// token its start kept ([Run.ResumeToken], [Client.ResumeRunFromToken]),
// or from its rcId alone ([Client.Run]), and names its result
// ([Run.ResultID]). What a run has seen of its start and its end is beside
// it, not on it: [EvidenceOf] returns its [RunEvidence], and
// [ExperimentsService.Began] settles a start whose answer was lost.
// [WithTerminalRule] gives a client's runs and jobs another terminal-state
// rule, and [Redactor.Quote] prints a state the server sent as the SDK
// quotes it.
//
// A start sends runExperiment once and returns the result of the run that
// start made, never another's. A real server answers a run's status right
// after its start with the last run's end for a while (the status lag),
// shows a run under way only as finished false, lists a run only once it
// has finished, under its result's id and without naming its
// configuration; another client may start the same configuration, and a
// server may refuse, queue or run beside a second start. So:
//
//   - one rule says whether a run is under way ([RunActivity],
//     [ExperimentsService.Activity]): idle when an end shows, under way
//     when finished false follows an end (or genericState or step leave
//     IDLE), unknown when no end ever showed (never run, or a first run
//     under way: a real server shows both alike). Batch, Temporal and the
//     CLI ask it, and [ExperimentsService.Prepare] refuses to start a
//     configuration with a run under way ([ErrRunUnderWay]);
//   - a start the server refuses because a run is under way is
//     [ErrRunUnderWay], never [ErrMayHaveBeenApplied]: nothing waits on,
//     settles or stops the run under way, which is not this start's;
//   - a wait takes an end as this start's only on evidence that it is new
//     ([RunEvidence].End), once settled (a read [WaitOptions].StaleWindow
//     after the first read of that end still shows an end, with no run
//     under way read between: a wait ends one stale window after the run),
//     and, for the success of a run the server lists, when exactly one run
//     of its type was listed since the start; two or more end it with
//     a [*StartUnknownError] (Ambiguous). [Run.ResultID] is then that run's
//     experimentResultId; VARIATION runs are never listed, so their
//     result id comes only from [ExperimentsService.RunSync], and their
//     end is taken on the weaker rule of a settled end;
//   - a start whose answer was lost is settled by [ExperimentsService.Began]: began on
//     evidence, not begun only where the evidence rules it out (a listed
//     type, nothing new once [WaitOptions].MaxRunLength, the longest run
//     the user declares, and the stale window have passed), else
//     [ErrStartUnknown]; never start it again on unknown;
//   - a resume token names its server and ends in a checksum: it is
//     refused for another server ([WithFormerServers] names one that
//     moved), when edited, or when it holds values no start records, and
//     no error quotes it; [TokenSubject] says what run it is of. Tokens of
//     earlier releases are still read, bound to no server.
//
// [PollPolicy] paces the polls: when the server reports progress it
// estimates when the work will finish and polls just after; otherwise (a
// real server reports none for runs) the pause follows the work's age, with
// jitter, so that its end is seen within 5 % of its length (2 s under
// 40 s); PollPolicy.Lateness trades requests for promptness.
//
// A real server answers a run's state as booleans: a run is over when
// finished, failed or terminal is true, and failed true is a [*StateError]
// carrying the server's text. [Run] turns them into one state value
// ([RunFailed], [RunFinished], [RunStopped]), or takes the state string a
// server may send instead; an answer with neither stops the wait with a
// [*MalformedError] rather than wait forever; so does a job status
// without its status.
//
// A job is handed out only with the id the server gave it: an answer that
// starts a job but says in its error property why the job could not start
// is a [*StateError] with the server's reason (ID 0, the start's
// Operation), and one without a jobId a [*MalformedError]. The imports that start several jobs return those
// that started together with the error of those that did not.
//
// A state is terminal only when it is a known terminal value, compared
// ignoring case over the spellings servers use ([DefaultTerminalRule]):
// DONE, FINISHED, COMPLETED, SUCCEEDED and SUCCESS succeeded; FAILED and
// ERROR failed; CANCELED and CANCELLED were cancelled; STOPPED stopped.
// The real server's import status is DONE, FAILED or CANCELED. Any other
// value means the work goes on: waiting continues, bounded by the context
// and [WaitOptions].MaxWait, and each value never seen before is logged
// once at Warn with the operation. Failed, stopped and cancelled ends are a
// [*StateError] carrying the server's error. [WaitOptions].StopOnCancel
// stops the run or cancels the job when the context ends, or MaxWait
// passes, first. [Client.RunAndWait], [Client.ImportExcelAndWait] and
// [Client.CopyScenarioAndWait] do both steps.
//
// # Results
//
// Real clients run synchronously and export every dashboard page:
// [ExperimentsService.RunSync] answers the experimentResultId of the
// finished run, or a [*StateError] with every validation message and its
// source when validationStatus is not OK (the real server then puts the
// rcId where the result id belongs; RunSync never hands it out).
// [DashboardsService.Pages] lists the dashboard pages of that result and
// [DashboardsService.ExportPage] streams one page's workbook; package
// dashboard merges every page into one workbook, a sheet per page, so
// that a program that does not merge links no workbook library.
// [ResultsService] reads a result by the rcId of its experiment: its
// statistics pages ([ResultsService.StatisticsPages]), their charts and tables.
// Workbook uploads always carry a file name ending in .xlsx, which the
// server requires.
//
// Names say what a method takes and what its pages are: in
// [ResultsService] a page is a statistics page of a result and a batch the
// whole answer to one skip/take request (ResultBatches,
// ResultOptionBatches, ChartTableBatches); in [DashboardsService] a page
// is a dashboard page; the other services' ...Pages iterators yield the
// whole answers of their skip/take operations.
//
// # Retries
//
// Operations that do not change state (per the spec's x-changes-state, read
// from gen.Operations) are retried on 408, 429, 5xx and connection errors,
// and when a successful answer's body stalls or breaks off (a read that
// fails after the headers is retried like one that fails before them),
// with exponential backoff, full jitter, a cap and a maximum number of
// attempts ([RetryPolicy]); a 500, which is what the real server answers
// for every error, is retried once only, and not at all when its message
// says access is denied; Retry-After is honoured up to a cap, beyond which
// the call fails matching [ErrServer]. A [Download] that breaks off, or
// whose body ends before the length its answer announced, goes on within
// the same attempts: from the start when none of it was read, else with a
// Range request, but only where no other version can be spliced in: the
// server takes ranges, its first answer carried a strong validator (a
// strong ETag, or a Last-Modified a second before its Date), sent as
// If-Range, and its 206 is exactly the rest (from the first byte missing
// to the last, of the same total, with the same validator, its body as
// long as its range); else it fails with a [*RequestError] whose Broken says how
// many bytes were delivered and why. A body longer than announced fails
// too, its extra bytes never handed out. [Download.ReadAll] hands nothing
// out before the end, so it fetches a broken download again from its
// first byte instead of resuming one it cannot. [WithAttemptTimeout] bounds each wait
// on the server separately from the caller's deadline: an attempt fails
// when nothing moves for that long, so a long upload or download that keeps
// moving is never cut.
//
// State-changing operations are sent once: they are retried only when the
// connection could not be made, or (for one without a request body) when
// the attempt failed before its request was written, a stalled TLS
// handshake say (nothing was sent: the client traces how far each request
// got with net/http/httptrace), a failure after the request may have
// reached the server matches [ErrMayHaveBeenApplied], and
// net/http's own silent replay on a dead keep-alive connection is disabled
// for them in the client's transport, which every request passes through:
// the facade's methods, [Client.Call], [Client.Raw] and the transport of a
// client given with [WithHTTPClient] alike. The operation is known from the
// request's method and path.
//
// A failure of the configuration is never retried, and its error says what
// to change ([RequestError].Hint, [APIError].Hint): https:// to a port that
// speaks plain HTTP or http:// to one that speaks HTTPS (the scheme to use),
// a certificate of an untrusted authority (trust it with [WithCACertFile]),
// a certificate for other names (the names it has), a handshake the server
// refuses, a host that does not exist, a request that could not be built.
//
// # Errors
//
// An error of the facade is one of six types, found with errors.As, and
// matches the sentinel of the decision it asks of the caller, found with
// errors.Is (a limit of the client's is package limits'):
//
//	Sentinel               Type                When                                    What to do
//	ErrValidation          *ValidationError    bad input, refused before sending: a    fix the input (Field and Reason
//	                                           call's field, a base URL New refuses,   say which and why)
//	                                           a resume token this client cannot
//	                                           read, a Run asked what it cannot know
//	ErrValidation          *APIError           the server answered 400                 fix the input
//	ErrUnauthorized        *APIError           401                                     fix the API key
//	ErrForbidden           *APIError           403, or a 500 "Access is denied"        check the user's rights, or the id
//	ErrNotFound            *APIError           404, or a 500 "no such ..." or naming   check the id
//	                                           what was null
//	ErrConflict            *APIError           409                                     change the server's state first
//	ErrConflict            -                   a variation created while nothing is    select cells, then create it
//	                                           selected
//	ErrRunUnderWay         *APIError           a start the server refused: a run of    wait for that run's end, then
//	                                           the configuration is under way          start again
//	ErrRunUnderWay         -                   Prepare read a run under way            the same; nothing was sent
//	ErrServer              *APIError           429, or a 5xx not classed above, once   try again later
//	                                           the retries are spent
//	ErrMalformed           *APIError           a 2xx whose body does not decode        report it to the server's makers
//	ErrMalformed           *MalformedError     an answer lacks a value the SDK needs,  report it to the server's makers
//	                                           has an id that cannot be one, or its
//	                                           pages cycle
//	ErrMayHaveBeenApplied  *APIError or        a state-changing call failed after its  check the server before sending
//	                       *RequestError       request may have reached the server     it again
//	                                           (beside the answer's own sentinel)
//	ErrStartUnknown        *StartUnknownError  a lost start that cannot be settled,    check the server (Check says
//	                                           or whose run cannot be told from        what); never start it again on
//	                                           another's (Ambiguous)                   a guess
//	ErrFailed              *StateError         a run or job that failed, stopped or    read Message and Details, fix
//	                                           was cancelled (Outcome), or did not     what they name, start again
//	                                           start
//	ErrTimeout             -                   WaitOptions.MaxWait passed              wait longer
//	ErrTimeout             *RequestError       an attempt saw nothing move for the     try again, or raise
//	                                           attempt timeout                         WithAttemptTimeout
//	-                      *RequestError       no whole answer: the connection failed  try again; Hint says what to
//	                                           or was cut, or a download broke off     change in the configuration
//	                                           (Broken)
//	limits.ErrLimit        *limits.Error       the server sent more than a Limits      raise the limit it names, or
//	                                           field allows                            report it
//
// An [*APIError] carries the operation, the status, the request id, the
// body read through a size limit (decoded when JSON) and every attempt.
// Its text leads with the server's message: the real server answers every
// error with 500 and a body {message, details}, e.g. an exception text
// naming what was null for a stale id. So a 500 is classed by its message:
// "Access is denied" matches [ErrForbidden] (the server answers it also
// for an id the user does not own, and the error says the id may be
// wrong); "no such ..." and Java's `... because "run" is null` match
// [ErrNotFound]; a start's answer saying a run is under way ("already
// running", "in progress", ..., and those of [WithRunUnderWayMessages])
// matches [ErrRunUnderWay]; any other 5xx matches [ErrServer]. "Access is
// denied", "no such ..." and a run under way show a refusal before the
// server acted, so such a 500 is not
// [ErrMayHaveBeenApplied] and is not retried; any other 500 of a
// state-changing call is.
//
// A wait with [WaitOptions].StopOnCancel whose stop fails ends with an
// error that wraps both the wait's cause and the stop's own error (an
// [*APIError] or [*RequestError] of stopExperiment or importCancel): the
// work may go on. Message texts are not part of the contract.
//
// # Answers the spec did not foresee
//
// Most of the spec's models are inferred, so every answer is decoded
// liberally: a value of another JSON type is converted when nothing is lost
// and otherwise kept raw in the model's AdditionalProperties under the
// field's name, unknown fields are kept there too (an extra.Properties:
// Get, Set, Delete and All, in the order sent), and a required field
// that is missing or null keeps its zero value; none of these fails the
// call, and a model read, changed and sent back carries what the server
// sent. Each difference is logged once per operation, model path and kind
// (a value outside an enumeration once per value, a value kept raw apart
// from one converted) at Warn, and
// [Client.Drift] lists them as drift.Finding values, the form specdiff
// probe reports (specdiff overlay turns them into a spec fix).
// Where the facade needs a value to go on it stops with a
// [*MalformedError]. Malformed JSON fails with the byte offset.
//
// # Logging
//
// [WithLogger] receives a debug line per attempt: operation, method, path,
// status, attempt and duration; a warning the first time a run or job
// reports a state value the SDK does not know (for at most
// [Limits].MaxUnknownStates values, each cut); and a warning per difference
// between an answer and the spec (see above). Headers are never logged.
// The sensitive fields of a request body (x-sensitive in the spec, such as
// a database password) are redacted wherever they are, ignoring the case
// of their name, inside nested objects and arrays, whatever the type of
// their value; and no error, log line, observer hook or drift finding
// quotes such a value or the API key, even when the server's message
// quotes it in another letter case, escaped as JSON or URLs escape it, or
// encoded in hex or base64 (both alphabets, padded or not, alone or inside
// a longer encoded text such as the Basic value of user:key). A value the facade quotes in an error or a
// log line is cut at 200 bytes. A base URL holding a user name and password
// is refused by [New], so no printed form shows them.
//
// A program that prints what the server sent removes the same spellings
// of the client's secrets with [Client.Redactor]: [Redactor.Redact] for a
// text, [Redactor.NewWriter] for a stream (a spelling split between two
// writes included, holding back only an end that may begin one). scm
// prints everything through it.
//
// # Tracing and metrics
//
// [WithObserver] gives an [Observer] that is told of the start and end of
// every operation call, of each of its HTTP attempts (whose request headers
// it may add trace context to), of each wait before a retry (with the
// delay, the reason and whether the failure may have been applied), and of
// each wait for a run or job with each of its polls, and of the steps of
// the SDK's packages built on the client (dashboard pages, batch items:
// StepStart, StepEnd). None of it is given the API key or a sensitive field's
// value. Without an observer the hook costs a nil check and no allocation.
// The module github.com/scmodel/scmgo/scmotel turns it into OpenTelemetry
// spans and metrics; this package links nothing of OpenTelemetry.
//
// # Testing with the fake
//
// Package fake serves the whole interface in memory. fake.NewServer starts
// it on loopback; its URL and APIKey go straight into [New]. Its clock can
// be virtual ([clock.Virtual]), and [WithClock] accepts the same clock
// ([Clock] is [clock.Clock], as fake.Clock is), so waits run on virtual
// time. Package fake/faketest starts a fake on a clock whose waits advance
// it at once, for tests where only the code under test waits. Faults
// scripted per operation exercise retries.
package facade
