// Package fake is an in-memory modelling server that speaks the whole remote
// interface (every operation of api/openapi.yaml) for tests, examples and
// demos. It keeps state, runs every lifecycle on a clock a test controls, and
// injects faults on the wire.
//
//	srv := fake.NewServer(fake.WithClock(clock), fake.WithLicense())
//	defer srv.Close()
//	// srv.URL ends in /api/v1; send srv.APIKey in the Authorization header.
//
// [NewHandler] gives the same server as an http.Handler serving under
// /api/v1; its dynamic type is [*Handler].
//
// It speaks what a real server was recorded answering (the answers listed
// in the spec's x-observed notes): where this documentation says "as
// observed", the fake follows a recording; where it says "the fake's own",
// no recording shows it and the fake chose. Every answer has exactly the
// fields the spec's model declares.
//
// # Authentication
//
// Every call needs the Authorization header: a configured key, optionally
// after one prefix word ("Bearer KEY"). A missing or unknown key gets 401.
// The default key is [DefaultAPIKey]; [WithAPIKeys] replaces it. The first key
// belongs to the user "demo" (id 1), the next ones to "user2" (id 2),
// "user3" (id 3) and so on. The open project and the license are kept per
// user. getCurrentUser answers {id, username, firstName, lastName, email}:
// id 1, "demo", "Demo", "" (an empty last name, as observed),
// "demo@example.com"; user n is "usern", "Usern", "", "usern@example.com".
//
// # The seeded world
//
// Projects, every one owned by user 1 and accessible:
//
//	1  Retail Network           created 2026-03-10T16:19:55.145394Z
//	2  Retail Network Archive   created 2026-03-11T08:02:41.530117Z
//	3  Spare Parts              created 2026-04-02T13:47:09.000080Z
//
// A project answers {accessible, creationDate, currentUserId, deleted, id,
// name, ownerUserId} as observed: creationDate in UTC with exactly six
// decimals; currentUserId is the user who has the project open (the caller
// when it is one of them, else the smallest id; the rule is the fake's own),
// null when nobody has; deleted is false.
//
// Scenarios (id, project, name, type), answered as {id, name, type}:
//
//	101  1  Baseline              GFA
//	102  1  Network Design        NO
//	103  1  Simulation            SIM
//	104  1  Broken Data           SIM  (validation errors, see Runs)
//	105  1  Simulation            SIM  (the same name as 103: names are not unique, as observed)
//	201  2  Archive Baseline      GFA
//	301  3  Spare Parts Baseline  NO
//
// Every scenario holds the tables of getTablesMeta (Customers 120 rows,
// Sites 12, Products 30, Demand 480, Vehicles 8, Orders 40, Shipments 0,
// MilkRuns 0) and one validation warning. No operation answers a
// scenario's tables; [Handler.ScenarioTables] reads them for tests.
//
// # Experiments
//
// Every scenario, seeded or new, has five experiments (run configurations),
// by its type. The experiment of type k has rcId scenarioId*100+k, with k
// the type's place in the reference's order:
//
//	1 GFA  2 GFA_WITH_ROADS  3 SIMULATION  4 NETWORK_OPTIMIZATION  5 VARIATION
//	6 COMPARISON  7 SAFETY_STOCK  8 RISK_ANALYSIS  9 LAST_MILE_OPTIMIZATION
//
//	SIM scenarios: SIMULATION, VARIATION, COMPARISON, SAFETY_STOCK, RISK_ANALYSIS (k 3 5 6 7 8; as observed)
//	GFA scenarios: GFA, GFA_WITH_ROADS, VARIATION, COMPARISON, LAST_MILE_OPTIMIZATION (k 1 2 5 6 9; the fake's own)
//	NO scenarios:  NETWORK_OPTIMIZATION, VARIATION, COMPARISON, SAFETY_STOCK, LAST_MILE_OPTIMIZATION (k 4 5 6 7 9; the fake's own)
//
// So 10101 is the GFA of Baseline, 10109 its last mile optimization, 10303
// the SIMULATION of scenario 103, 10403 the SIMULATION of Broken Data and
// 10204 the NETWORK_OPTIMIZATION of 102; 10301 does not exist. getExperiments
// answers the 16 fields observed: animationModelId (the rcId), name (an i18n
// key, i18n-Experiment_<type in camel case>_text, e.g.
// i18n-Experiment_Simulation_text), status, step and runStatus IDLE,
// feasibleCheckStatus NOT_CONDUCTED, validationStatus VALID (NOT_CONDUCTED
// for scenario 104's), isFeasibleCheckDataAvailable false, modelTime 0,
// routesProgress 0, speed 1, and progress 0, or 100 once the experiment's
// latest run has finished (the values of modelTime, progress,
// routesProgress, runStatus and speed are the fake's own). The type-specific
// run configuration (getExperiment, getExperimentRunConfiguration) is kept
// verbatim with every field a client sent.
//
// New ids count up: scenarios from 1001, variations from 3001, jobs from
// 4001 (a real server's job ids are small counters; the fake starts at 4001
// so that ids of different kinds never look alike), runs from 5001 (see
// below for the block of ids each run takes).
//
// # Licenses
//
// runExperiment and runExperimentSynchronously need the user to hold a
// license: without one they answer 500 "Access is denied" (the real server's
// message for what a user may not do) until requestLicense is called.
// [WithLicense] starts every user with one; dropLicense gives it back. No
// other operation needs a license, and none needs an open project.
//
// # Clock and runs
//
// Nothing runs in the background: the state of runs and jobs is computed from
// the [Clock] whenever it is read. With a [VirtualClock] (an alias of
// clock.Virtual) a test moves time with [VirtualClock.Advance] and never
// sleeps; the default is real time. [Clock] is clock.Clock, the interface
// facade.WithClock takes too, so one clock drives the server and its
// clients. Package fake/faketest starts a server on a clock whose waits
// advance it at once, with its clients' waits on the same clock.
//
// runExperiment starts a run and answers {animationModelId: the rcId,
// experimentTypeId: the type, is3dAnimation: false}, as observed. A run is
// under way from the instant it starts for the run duration
// ([WithRunDuration], default [DefaultRunDuration]), then finished; in
// scenario 104 it fails instead. Each run takes a block of ids from one
// counter from 5001, in the relation the real server showed: the run's own
// id (the runId of the convert operations), then its experimentResultId
// (id+1), one id unused, then each dashboard page's id followed by its
// charts' ids; so the first page is experimentResultId+2. Every run gives a
// new experimentResultId. getExperimentStatus answers the experiment's
// latest run as ExecutionState booleans, with no progress and no state
// string; routesLoading is always false. Within the status lag of a start
// ([WithStatusLag], default [DefaultStatusLag], never longer than the run),
// it still answers what it answered before the start, as a real server was
// recorded doing: the last run's end, or never ran:
//
//	never ran  failed false, finished false, terminal false, genericState IDLE, step IDLE, stopTrigger false, text null
//	under way  failed false, finished false, terminal false, genericState IDLE, step IDLE, text null (as observed; RUNNING with WithRunningMarked)
//	finished   failed false, finished true, terminal false, genericState IDLE, step IDLE, text null (as observed)
//	failed     failed true, finished false, terminal true, IDLE, text "The scenario has validation errors"
//	stopped    stopTrigger true, terminal true, finished false, failed false, IDLE, text null
//
// Only the finished answer, and a run under way showing finished false with
// IDLE throughout, were recorded; the others are the fake's own. So a run
// under way reads like one that never ran: only the end it replaced tells
// them apart.
// stopExperiment stops the run under way and answers the same model; it
// fails for an experiment that never ran. A second start while a run of the
// experiment is under way answers 500 "rcId N: run M is already running"
// by default: the reference does not say, and [WithSecondStart] offers the
// other answers a server may give, queued behind the run under way or
// begun beside it ([SecondStart] says what the status then shows). Each
// seeded scenario has one experiment of each of its types, as recorded;
// [WithExtraConfigurations] adds more of a type, as the reference allows.
// Another client is simply another client with the same key: the fake
// tells clients apart by key alone.
//
// runExperimentSynchronously answers ApiExperimentResult once the run has
// ended on the clock (with a VirtualClock, advance it from another goroutine;
// [VirtualClock.BlockUntilWaiters] tells when the call waits):
// {experimentResultId: the run's result id, validationStatus OK,
// validationErrors null, validationWarnings null}. For scenario 104 nothing
// runs: it answers at once validationStatus HAS_ERRORS with
// experimentResultId the rcId itself, validationErrors: the scenario's two
// [{message, source: [table, row]}], then 295 repeats in the proportions a
// real server answered (Product is not defined 90 times, ...; each source
// a one-element list of free text), and validationWarnings null, as
// observed. A run stopped while the call waits answers 500 (the fake's own).
//
// getExperimentRunsForScenario lists the finished runs of the scenario,
// oldest first, as {hasOptions, id, name, rcId, removing false, scenarioId,
// type}, as observed: rcId is the run's experimentResultId (not the run
// configuration's id), id the run's own id, one less, and the name
// "Statistics", "Statistics 2", ... counts up per scenario. A run under way
// is not listed, nor any run of a VARIATION experiment. hasOptions is true
// for NETWORK_OPTIMIZATION and VARIATION, the types whose results have
// result options (the fake's choice).
//
// # Results
//
// Results are read per experiment (rcId) from its latest finished run;
// before one finished they answer 500, as the real server answers a run that
// is not there. They are generated from the data seed ([WithSeed]), so equal
// seeds give equal results, in the size of [WithResultSize] (default 3 pages
// of 2 charts with 50 rows per table). Page p (1-based) is named Overview,
// Costs, Service, Inventory, Transport, then "Page p". Charts have chartId
// p*100+i for i in 1..chartsPerPage: odd i are TABLE charts, even i graph
// charts of type LINE, BAR, HISTOGRAM and BMW-LINE in turn. Table rows are
// generated on demand, so a table of 1,000,000 rows costs only the page
// read.
//
// getExperimentRunResult answers {pages: [{page: {id, name}, charts}]},
// paged (skip, take) over the pages, as observed: each chart is
// {chart: {id, isGroupModeEnabled false, layout {height, startCol,
// startRow, width}, name, rcId, type}, className, data}, its className
// ApiExperimentResultTableChartWrapper for a TABLE chart and
// ApiExperimentResultGraphChartWrapper for the others, its data with an
// empty entityList and totals 0, as in every chart recorded. The chart
// operations answer the data itself: entityList holds a graph's series or
// a table's rows. getVariationResultData answers the empty table the real
// server answered right after a variation run, its id the rcId. The
// statistics page id is a numeric string that differs from the dashboard
// page id, as observed: page p has id "8300p" (83000+p, the fake's own
// numbering). getExperimentRunResultPages lists the same pages;
// getExperimentRunResultPageCharts takes that id as an integer (83001).
// getExperimentRunResultOptions answers 5 options (resultOptionId 1 to 5)
// for network optimization and variation, none for other types.
//
// The dashboard is read by experimentResultId, a finished run's result id:
// getExperimentDashboardPages answers its pages {id, name, charts: [{id,
// name}]}, the first with the id experimentResultId+2, and
// exportDashboardPage (experimentResultId and pageId) a real .xlsx workbook
// of one page, with a sheet per chart, as real clients export page by page.
// As observed, the export of a VARIATION run's page answers 500 "Dashboard is
// empty", and the experimentResultId of a HAS_ERRORS answer (an rcId) lists
// its pages but its export answers 500 with a Java exception text ending in
// `because "run" is null`. Any other id, or the id of a run that did not
// finish, answers 500 naming it.
//
// # Scenarios and imports
//
// copyScenarioSynchronously answers the copy with name null, whatever
// newName the body gives, and getScenarios lists copies as "null", "null 2",
// ... (the first such name free in the project), as observed. A copyScenario
// job's copy is named the same way (the fake's own).
//
// An import or copy job (copyScenario, importExcel, importExcelExisting,
// importDatabase, importDatabaseExisting) answers {error: null, jobId}, as
// observed. The job is QUEUED at the instant it starts, RUNNING over the
// import duration ([WithImportDuration], default [DefaultImportDuration]),
// then DONE, or FAILED when there was nothing to import (no workbook sheet
// left after tableIDsToImport) or the database does not offer the source
// scenario (it offers "DB Scenario A", "B" and "C"); the status then carries
// the reason in error. importCancel makes a queued or running job CANCELED
// (one L, as the real server spells it); cancelling an ended job answers 500.
// A new scenario exists only once its job is DONE, and getImportStatus then
// reports its scenarioId. A workbook upload whose file name does not end in
// .xlsx is refused before anything starts, with 500 naming the form field
// file (the real server refuses such a file; as an application rule, like
// every other it was seen to apply, it is a 500); a file that is not a
// workbook, or is past a limit, gets 400.
//
// importExcel without needToImportExperiments=true ends DONE with no
// scenarioId, and no scenario appears, as observed; with it, the job makes a
// SIM scenario (every scenario a real server was seen to list was one) with
// the workbook's sheets as tables; importScenario makes a SIM scenario too. importExcelExisting
// without the flag likewise ends DONE with no scenarioId and changes nothing
// (the fake's own reading); with it, the sheets' rows are added to the
// scenario (replaced with overwriteExistingTables) and scenarioId names it.
// importScenarioExisting answers the scenario, renamed after the uploaded
// file's base name (without its extension), as observed; importScenario
// makes a new scenario named so.
//
// # Variations
//
// getVariableParameterObjectTypes answers {list: [{id, name}]}:
// DemandData_SIM_FULL (Demand, objects "1".."20"), SiteData_SIM_FULL (Sites,
// "101".."112") and ProductData_SIM_FULL (Products, "201".."230"); objects
// are paged with skip and take. Their parameters are period, quantity,
// revenue (Demand), expectedLeadTime, period (Sites), minSplitRatio, revenue
// (Products): the ids are observed, the spread over the types is the fake's
// own. period is of a link data type and varies by LINK_LIST or
// MULTIPLE_LINK_LIST; the others by NUMBER_RANGE. Only a link data type has
// a table (10 rows, 2 columns): the table operations on any other parameter
// answer 500 "Tables exist only for link data types", as observed.
//
// createNewVariableParameter takes the observed {rcId, apiVariation:
// {objectType, object, parameter, variationType, data: {body: {min, max,
// step}}}} and answers the ApiVariation with an id. A NUMBER_RANGE needs no
// table selection (min must not be above max, step must be positive); a
// table variation type needs a non-empty tableSelection. The reference's
// rules hold for table types: createVariableParameter needs cells selected
// before with updateExistingVariableParameterTableDataByIndex and
// variationId=new; doesVariableParameterHasSelectedData answers truthfully.
// getVariationResultData answers a row per result option of the latest
// finished variation run.
//
// # Last mile optimization
//
// The orders of a last mile experiment are the rows of its scenario's Orders
// table, none selected at first. Shipments (one per selected order) and milk
// runs (one per three consecutive selected orders; a shorter last one is
// invalid) are generated from the selected orders and start selected. The add
// operations add exactly the selected shipments or milk runs to the
// scenario's Shipments or MilkRuns table; with none selected they answer 500.
//
// # Errors
//
// Every error body is exactly {"message": "...", "details": {}} with
// Content-Type application/json, as observed.
//
// Every error the server's application decides is HTTP 500, as every error
// recorded was: an unknown or stale id (the message names it), a conflict
// with the current state (already running, nothing selected, cancelling an
// ended job), "Access is denied", "Dashboard is empty", "Tables exist only
// for link data types", a rule of the reference broken. Messages are the
// real server's where one was recorded; the others name the id or field.
//
// Requests that do not match the spec answer 400 (no such answer was
// recorded, as real clients never sent such requests; a framework answers
// them before the application). Every request is checked against the spec
// (api/openapi.yaml, with kin-openapi) after its key and before a handler
// runs: parameters (required, type and format, enumeration, minimum) and JSON
// bodies against their schema. The server adds two limits of its own: take
// is at most [MaxTake], and a parameter that is not a list has one value.
// Multipart bodies are checked field by field while they stream; uploaded
// files are never held in memory, and a spooled upload is removed when its
// request ends. The message of a 400, as of a 401, starts with the
// operation's name and names the parameter or body field. A path that is no
// operation answers 404.
//
// An operation of the spec that the fake has no handler for yet (one added
// to the spec since) answers 501 with the same body, "getRecentScenarios:
// not implemented by the fake server": the fake embeds a generated fallback
// (StrictUnimplemented of fake/internal/genserver), so it keeps building
// when the spec grows.
//
// A message quotes a rejected value only when it is a scalar, cut at 200
// bytes: a list or an object is named by its kind, and no value of a field
// the spec marks x-sensitive (the database password) is ever shown, in any
// shape. A JSON body that is not valid UTF-8 is refused with 400 naming the
// field.
//
// # Limits
//
// A multipart body larger than [WithMaxUpload] allows (default
// [DefaultMaxUpload], 1 GiB) is refused with 413: at once when its
// Content-Length says so, else as soon as the limit is passed, and the
// connection is closed rather than the rest read. A JSON body is bounded the
// same way by [MaxJSONBody]. An uploaded workbook is read as a stream of XML
// tokens within [WorkbookLimits] ([WithWorkbookLimits]): the inflated size of
// a part and of all parts, the size of one token, the rows of a sheet and the
// number of parts; a workbook past one is refused with 400 naming the form
// field file, the sheet or part, and the limit, so a zip bomb costs neither
// memory nor much time.
//
// Lists that are not paged (getScenarios, getExperimentRunsForScenario, the
// result pages, charts and dashboard pages) are written while they are read,
// a few hundred items per turn of the server's lock, so they cost the memory
// of a buffer whatever their length. Such a list is not a snapshot: an item
// added or removed while it is written may or may not be in it.
//
// [WithLogger] receives what the HTTP server logs; the fake logs nothing else.
//
// # Faults
//
// [Handler.InjectFault] (or [WithFault]) scripts faults per operation,
// applied in order to its next calls. Before the handler runs, nothing is
// applied: answer a status (with Retry-After, and the error body above with
// a message naming the operation), drop the connection
// ([FaultDropBeforeHandler]) or reset it ([FaultResetBeforeHandler]),
// stall with no answer until the caller gives up ([FaultStall]), or add
// latency. After the handler ran, its side effect is applied: drop the
// connection (the response-lost case), send the headers and half the body
// and then close ([FaultTruncate]), reset ([FaultResetBody]) or send
// nothing more until the caller gives up ([FaultStallBody]), or send the
// whole body slowly in pieces ([FaultSlowBody]). A fault applies before the
// key is checked, as a proxy in front of a server would.
// [Handler.Calls] counts the requests that reached the server and
// [Handler.Applied] the side effects applied by state-changing operations, so
// a test can assert that a retried call took effect exactly once.
//
// Note that Go's http.Transport itself resends a GET or HEAD once when a
// reused connection closes before any response byte arrives; the drop faults
// on GET operations may therefore be seen twice by the server (Calls tells).
package fake
