// Package fake is an in-memory modelling server that speaks the whole remote
// interface (all 78 operations of api/openapi.yaml) for tests, examples and
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
// # Authentication
//
// Every call needs the Authorization header: a configured key, optionally
// after one prefix word ("Bearer KEY"). A missing or unknown key gets 401.
// The default key is [DefaultAPIKey]; [WithAPIKeys] replaces it. The first key
// belongs to the user "demo", the next ones to "user2", "user3" and so on.
// The open project and the license are kept per user.
//
// # The seeded world
//
// Projects:
//
//	1  Retail Network
//	2  Retail Network Archive
//	3  Spare Parts
//
// Scenarios (id, project, name, type):
//
//	101  1  Baseline              GFA
//	102  1  Network Design        NO
//	103  1  Simulation            SIM
//	104  1  Broken Data           SIM  (two validation errors: its runs end FAILED)
//	201  2  Archive Baseline      GFA
//	301  3  Spare Parts Baseline  NO
//
// Every scenario holds the tables of getTablesMeta (Customers 120 rows,
// Sites 12, Products 30, Demand 480, Vehicles 8, Orders 40, Shipments 0,
// MilkRuns 0) and one warning.
//
// Every scenario, seeded or new, has the nine experiments, one per type. The
// experiment of type k has rcId scenarioId*100+k, in this order:
//
//	1 GFA  2 GFA_WITH_ROADS  3 SIMULATION  4 NETWORK_OPTIMIZATION  5 VARIATION
//	6 COMPARISON  7 SAFETY_STOCK  8 RISK_ANALYSIS  9 LAST_MILE_OPTIMIZATION
//
// so 10101 is the GFA experiment of Baseline and 10109 its last mile
// optimization. New ids count up: scenarios from 1001, variations from 3001,
// jobs from 4001, runs from 5001 and experiment results from 7001 (a run and
// its result are numbered together: run 5001 has result 7001).
//
// # Licenses
//
// runExperiment and runExperimentSynchronously need the user to hold a
// license: without one they answer 403 until requestLicense is called.
// [WithLicense] starts every user with one. dropLicense gives it back.
// No other operation needs a license, and none needs an open project.
//
// # Clock and lifecycles
//
// Nothing runs in the background: the state of runs and jobs is computed from
// the [Clock] whenever it is read. With a [VirtualClock] a test moves time
// with [VirtualClock.Advance] and never sleeps; the default is real time.
//
// A run (runExperiment) is QUEUED at the instant it starts, RUNNING with
// progress rising linearly from 0 to 100 over the run duration
// ([WithRunDuration], default [DefaultRunDuration]), then FINISHED (FAILED in
// scenario 104). stopExperiment makes it STOPPED with its progress frozen; a
// second start while one is QUEUED or RUNNING answers 409. An experiment that
// never ran reads NOT_STARTED. runExperimentSynchronously answers when the run
// has ended on the clock: with a VirtualClock, advance it from another
// goroutine ([VirtualClock.BlockUntilWaiters] tells when the call waits). It
// answers the experimentResultId of the finished run (null for a run that
// did not finish) and, for a run of scenario 104, validationStatus FAILED
// with the scenario's validation errors.
//
// An import or copy job (copyScenario, importExcel, importExcelExisting,
// importDatabase, importDatabaseExisting) is QUEUED at the instant it starts,
// RUNNING over the import duration ([WithImportDuration], default
// [DefaultImportDuration]), then DONE, or FAILED when there was nothing to
// import (no workbook sheet left after tableIDsToImport) or the database
// does not offer the source scenario (it offers "DB Scenario A", "B" and "C");
// the status then carries the reason in error. importCancel makes a queued or
// running job CANCELED (one L, as the real server spells it); cancelling an
// ended job answers 409. The new scenario exists only once the job is DONE;
// getImportStatus then reports its scenarioId. A workbook upload whose file
// name does not end in .xlsx is refused with 400, as the real server does.
//
// # Results
//
// Results are read per experiment (rcId) from its latest finished run; before
// one finished they answer 500, as the real server does. Dashboard pages and
// their export are read by the experimentResultId of a finished run. They are generated from the data seed
// ([WithSeed]), so equal seeds give equal results. A result has 12 values,
// 5 result options (iterations, resultOptionId 1 to 5) and the pages of
// [WithResultSize] (default 3 pages of 2 charts with 50 rows per table).
// Pages have pageId 1..pages, named Overview, Costs, Service, Inventory,
// Transport, then "Page N". Charts have chartId pageId*100+i for i in
// 1..chartsPerPage: odd i are TABLE charts, even i GRAPH charts. Table rows
// are generated on demand, so a table of 1,000,000 rows costs only the page
// read. exportDashboardPage (experimentResultId and pageId) answers a real
// .xlsx workbook of one page, with a sheet per chart of the page.
//
// # Variations
//
// Object types SITE (objects "1".."20"), PRODUCT ("101".."130") and VEHICLE
// ("201".."208") have two parameters each. Every variation table has 10 rows
// and 2 columns. The reference's rules hold: createVariableParameter needs
// cells selected before with updateExistingVariableParameterTableDataByIndex
// and variationId=new (else 409); createNewVariableParameter needs a
// non-empty tableSelection (else 400); doesVariableParameterHasSelectedData
// answers truthfully.
//
// # Last mile optimization
//
// The orders of a last mile experiment are the rows of its scenario's Orders
// table, none selected at first. Shipments (one per selected order) and milk
// runs (one per three consecutive selected orders; a shorter last one is
// invalid) are generated from the selected orders and start selected. The add
// operations add exactly the selected shipments or milk runs to the
// scenario's Shipments or MilkRuns table, visible in getScenarios; with none
// selected they answer 409.
//
// # Validation and errors
//
// Every request is checked against the spec (api/openapi.yaml, with
// kin-openapi) after its key and before a handler runs: parameters (required,
// type and format, enumeration, minimum) and JSON bodies against their
// schema. The server adds two rules of its own: take is at most [MaxTake],
// and a parameter that is not a list has one value. Multipart bodies are
// checked field by field while they stream; uploaded files are never held in
// memory, and a spooled upload is removed when its request ends. Errors are
// ApiError JSON bodies {timestamp, status, error, message, path} whose message
// starts with the operation's name and names the parameter, body field or id:
// 400 invalid input, 401 key, 403 license, 409 conflict with the current
// state, and, as the real server answers a stale or unknown id, 500 for an id
// that does not exist. A path that is no operation answers 404. A message
// quotes a rejected value only when it is a scalar, cut at 200 bytes: a list
// or an object is named by its kind, and no value of a field the spec marks
// x-sensitive (the database password) is ever shown, in any shape. A JSON
// body that is not valid UTF-8 is refused with 400 naming the field.
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
// applied in order to its next calls: answer a status (with Retry-After),
// drop the connection before the handler runs, run the handler and then drop
// it (the response-lost case), truncate the body, or add latency. A fault
// applies before the key is checked, as a proxy in front of a server would.
// [Handler.Calls] counts the requests that reached the server and
// [Handler.Applied] the side effects applied by state-changing operations, so
// a test can assert that a retried call took effect exactly once.
//
// Note that Go's http.Transport itself resends a GET or HEAD once when a
// reused connection closes before any response byte arrives; the drop faults
// on GET operations may therefore be seen twice by the server (Calls tells).
package fake
