package fake

import (
	"log/slog"
	"time"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/gen"
	"github.com/scmodel/scmgo/ids"
)

// Defaults of the options.
const (
	DefaultAPIKey      = "scm-demo-key"
	DefaultSeed        = 1
	DefaultRunDuration = 10 * time.Second
	// DefaultStatusLag is how long after a start getExperimentStatus still
	// answers the configuration's last run's end, as the real server was
	// recorded answering (see WithStatusLag).
	DefaultStatusLag      = 2 * time.Second
	DefaultImportDuration = 5 * time.Second
	DefaultPages          = 3
	DefaultChartsPerPage  = 2
	DefaultRowsPerTable   = 50
	// MaxTake is the largest take the server accepts; a larger one is
	// refused with 400 naming the parameter.
	MaxTake = 10000
	// DefaultMaxUpload bounds a multipart request body (the uploads of
	// importExcel, importExcelExisting, importScenario and
	// importScenarioExisting); see WithMaxUpload.
	DefaultMaxUpload = 1 << 30
	// MaxJSONBody bounds a JSON request body: one above it is refused with
	// 413 before it is read.
	MaxJSONBody = 16 << 20
)

// Option configures a server made by NewServer or NewHandler.
type Option func(*config)

type config struct {
	keys           []string
	seed           int64
	clock          Clock
	runDuration    time.Duration
	statusLag      time.Duration
	runningMarked  bool
	secondStart    SecondStart
	extraRCs       []ExtraConfiguration
	failingRuns    map[ids.RcID]bool
	importDuration time.Duration
	pages          int
	chartsPerPage  int
	rowsPerTable   int64
	licensed       bool
	faults         map[string][]Fault
	maxUpload      int64
	workbook       WorkbookLimits
	logger         *slog.Logger
}

func defaultConfig() config {
	return config{
		keys:           []string{DefaultAPIKey},
		seed:           DefaultSeed,
		clock:          clock.Real{},
		runDuration:    DefaultRunDuration,
		statusLag:      DefaultStatusLag,
		importDuration: DefaultImportDuration,
		pages:          DefaultPages,
		chartsPerPage:  DefaultChartsPerPage,
		rowsPerTable:   DefaultRowsPerTable,
		faults:         map[string][]Fault{},
		maxUpload:      DefaultMaxUpload,
		workbook:       DefaultWorkbookLimits(),
	}
}

func newConfig(opts []Option) config {
	c := defaultConfig()
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// WithAPIKeys replaces the default key (DefaultAPIKey) with keys. The first
// key belongs to the user "demo", the others to "user2", "user3" and so on.
// No keys, or only empty ones, keep the default.
func WithAPIKeys(keys ...string) Option {
	return func(c *config) {
		var kept []string
		for _, k := range keys {
			if k != "" {
				kept = append(kept, k)
			}
		}
		if len(kept) > 0 {
			c.keys = kept
		}
	}
}

// WithSeed makes the generated data (result values, table rows) a function
// of seed. The default is DefaultSeed.
func WithSeed(seed int64) Option { return func(c *config) { c.seed = seed } }

// WithClock sets the clock every lifecycle is computed from. Nil means real
// time, the default.
func WithClock(clk Clock) Option {
	return func(c *config) {
		if clk != nil {
			c.clock = clk
		}
	}
}

// WithRunDuration sets how long a run takes on the clock (default
// DefaultRunDuration). Zero or less makes runs finish at once.
func WithRunDuration(d time.Duration) Option {
	return func(c *config) { c.runDuration = max(d, 0) }
}

// WithStatusLag sets how long after a start getExperimentStatus still
// answers what it answered before: the end of the configuration's last run
// (finished true), or idle for one that never ran. A real server was
// recorded answering so: a status read right after runExperiment cannot tell
// the new run from the last one. The lag never outlasts the run (a run that
// takes no time shows its end at once). Zero makes a start show at once. The
// default is DefaultStatusLag.
func WithStatusLag(d time.Duration) Option {
	return func(c *config) { c.statusLag = max(d, 0) }
}

// WithRunningMarked makes a run under way answer genericState and step
// RUNNING, as some servers may. By default the fake answers IDLE there, as
// the real server was recorded answering throughout a run: a run under way
// then shows only as finished false.
func WithRunningMarked() Option { return func(c *config) { c.runningMarked = true } }

// SecondStart is what the fake does with a start (runExperiment or
// runExperimentSynchronously) of a running configuration that has a run
// under way: the reference does not say what a real server does.
type SecondStart int

// The answers a server may give to a second start.
const (
	// SecondStartRefused refuses it with 500 "rcId N: run M is already
	// running", nothing started: the default, an assumption of the fake.
	SecondStartRefused SecondStart = iota
	// SecondStartQueued accepts it, and its run begins when the runs before
	// it have ended (stopping the run under way begins the next at once).
	// The status shows the run under way, then, as it begins, still the end
	// of the one before for the status lag.
	SecondStartQueued
	// SecondStartBeside accepts it, and its run begins at once, beside the
	// one under way. The status is under way while any run of the
	// configuration it shows is, then the end of the last run to end;
	// stopExperiment stops every run under way.
	SecondStartBeside
)

// String names the behaviour.
func (s SecondStart) String() string {
	switch s {
	case SecondStartRefused:
		return "refused"
	case SecondStartQueued:
		return "queued"
	case SecondStartBeside:
		return "beside"
	}
	return "SecondStart(" + itoa(int64(s)) + ")"
}

// WithSecondStart sets what a start of a running configuration with a run
// under way does (see [SecondStart]); the default is [SecondStartRefused].
// A value that is none of the constants keeps the default.
func WithSecondStart(s SecondStart) Option {
	return func(c *config) {
		if s >= SecondStartRefused && s <= SecondStartBeside {
			c.secondStart = s
		}
	}
}

// ExtraConfiguration is a further running configuration of a type on a
// seeded scenario, beside the one the scenario has ([WithExtraConfigurations]).
type ExtraConfiguration struct {
	ScenarioID ids.ScenarioID
	Type       gen.ExperimentType
}

// WithExtraConfigurations adds running configurations to seeded scenarios:
// the reference lets a scenario hold several experiments of one type, the
// recordings show one. The n-th extra configuration of scenario S (from 1,
// in the order given) has the rcId S*100+10+n and the name of its type's
// followed by " n+1" ("i18n-Experiment_Simulation_text 2"); getExperiments
// lists it after the scenario's own, and getExperiment still answers the
// scenario's first of the type. Its runs are listed like any other: the
// list does not name the configuration. An entry naming a scenario that is
// not seeded, or a type not in the reference, is ignored.
func WithExtraConfigurations(extra ...ExtraConfiguration) Option {
	return func(c *config) { c.extraRCs = append(c.extraRCs, extra...) }
}

// WithFailingRuns makes every run of these running configurations fail
// at its end, as the runs of scenario 104 (Broken Data) do, whatever their
// scenario: failed true, terminal true, text "The scenario has validation
// errors".
func WithFailingRuns(rcIDs ...ids.RcID) Option {
	return func(c *config) {
		if c.failingRuns == nil {
			c.failingRuns = map[ids.RcID]bool{}
		}
		for _, id := range rcIDs {
			c.failingRuns[id] = true
		}
	}
}

// WithImportDuration sets how long an import or copy job takes on the clock
// (default DefaultImportDuration). Zero or less makes jobs finish at once.
func WithImportDuration(d time.Duration) Option {
	return func(c *config) { c.importDuration = max(d, 0) }
}

// WithResultSize sets the size of every run result: pages per result, charts
// per page and rows per table chart. Values below 1 keep the defaults
// (DefaultPages, DefaultChartsPerPage, DefaultRowsPerTable). Rows are
// generated on demand, so 1,000,000 rows cost no memory until paged.
func WithResultSize(pages, chartsPerPage int, rowsPerTable int64) Option {
	return func(c *config) {
		if pages > 0 {
			c.pages = pages
		}
		if chartsPerPage > 0 {
			c.chartsPerPage = chartsPerPage
		}
		if rowsPerTable > 0 {
			c.rowsPerTable = rowsPerTable
		}
	}
}

// WithLicense makes every user start holding a license, as if requestLicense
// had been called. By default no license is held and the operations that need
// one (runExperiment, runExperimentSynchronously) answer 500 "Access is
// denied" until requestLicense is called.
func WithLicense() Option { return func(c *config) { c.licensed = true } }

// WithFault scripts a fault for operationID (camelCase operationId) from the
// start, as Server.InjectFault does later.
func WithFault(operationID string, f Fault) Option {
	return func(c *config) { c.faults[operationID] = append(c.faults[operationID], f) }
}

// WithMaxUpload bounds the size of a multipart request body (default
// DefaultMaxUpload). A body declared larger (Content-Length) is refused with
// 413 before any of it is read; one sent without a length is refused with
// 413 as soon as it passes the limit, and the connection is closed. Zero or
// less keeps the default.
func WithMaxUpload(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxUpload = n
		}
	}
}

// WithWorkbookLimits bounds what reading an uploaded workbook may cost; zero
// or negative fields keep their defaults (see WorkbookLimits).
func WithWorkbookLimits(l WorkbookLimits) Option {
	return func(c *config) { c.workbook = l.withDefaults() }
}

// WithLogger receives what the HTTP server of NewServer (and of Serve, for a
// Handler) logs, at Error level: connection errors and handler panics, as
// net/http writes them to http.Server.ErrorLog. The fake writes no other log
// line. Nil means the log package's standard logger, as net/http does.
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }
