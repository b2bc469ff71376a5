package doctor

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/scmodel/scmgo/clock"
	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/ids"
)

// Status is the outcome of one check.
type Status string

// The outcomes of a check.
const (
	OK   Status = "ok"   // as it should be
	Warn Status = "warn" // works, or could not be told, with something to know
	Fail Status = "fail" // must change before the SDK can work with the server
)

// The checks, in the order [Run] goes through them.
const (
	CheckBaseURL = "base-url" // the base URL: scheme, host, the /api/v1 suffix
	CheckAPIKey  = "api-key"  // a key is set
	CheckProxy   = "proxy"    // the proxy the requests go through, if any
	CheckDNS     = "dns"      // the host's name resolves
	CheckConnect = "connect"  // a connection opens
	CheckTLS     = "tls"      // the TLS handshake, or why there is none
	CheckKey     = "key"      // the server accepts the key (getCurrentUser)
	CheckLicense = "license"  // a license that runs experiments
	CheckSpec    = "spec"     // the server's own OpenAPI document against the SDK's spec
	CheckProbe   = "probe"    // a project's lists read through the facade, and the drift they show
	CheckRun     = "run"      // one run, measured (only with Options.Run)
)

// Check is the outcome of one check: what was seen and, unless it is OK,
// what to change.
type Check struct {
	Name   string `json:"check"`
	Status Status `json:"status"`
	Seen   string `json:"seen"`
	Fix    string `json:"fix,omitempty"`
}

// Report is what [Run] found, a check per line in the order they ran.
type Report struct {
	// BaseURL is the client's base URL.
	BaseURL string  `json:"baseURL"`
	Checks  []Check `json:"checks"`
	// StoppedAfter names the failed check after which the others were not
	// run, since they need it to pass; "" when every check ran.
	StoppedAfter string `json:"stoppedAfter,omitempty"`
	// Drift holds where the server's answers differed from the spec, in
	// the form specdiff probe reports (the client's [facade.Client.Drift]
	// after the checks).
	Drift []drift.Finding `json:"drift,omitempty"`
	// Run is what the run of Options.Run showed; nil without one.
	Run *RunMeasurement `json:"run,omitempty"`
}

// Failed reports whether a check failed.
func (r Report) Failed() bool {
	for _, c := range r.Checks {
		if c.Status == Fail {
			return true
		}
	}
	return false
}

// Check returns the check of that name, if it ran.
func (r Report) Check(name string) (Check, bool) {
	for _, c := range r.Checks {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// Options say what [Run] checks beyond the client, and how its fixes name
// settings. The zero value checks everything that sends nothing that
// changes state.
type Options struct {
	// Project is the project whose lists the probe reads; zero means the
	// first one the server lists.
	Project ids.ProjectID
	// Run, when not zero, is a running configuration to run once, to
	// measure what run identity depends on (see [RunMeasurement]): the one
	// operation that changes state Run sends (runExperiment). Zero sends
	// no run.
	Run ids.RcID
	// CompareSpec compares the server's own OpenAPI document with the
	// SDK's spec. Nil leaves the spec check a warning that says so; scm
	// doctor sets it (the comparison is specdiff's, which a program using
	// the SDK does not link).
	CompareSpec SpecComparer
	// Proxy says which proxy a request goes through, as the client's
	// transport decides. Nil means http.ProxyFromEnvironment, what the
	// facade's default transport uses.
	Proxy func(*http.Request) (*url.URL, error)
	// Clock times the run and paces its polls. Nil means the real clock.
	// A test passes the clock of its fake server and client.
	Clock clock.Clock
	// PollInterval is the shortest pause between two polls of the run
	// (the pause grows with the run's age, to a twentieth of it). Zero
	// means DefaultPollInterval.
	PollInterval time.Duration
	// MaxRunWait bounds how long the run is watched. Zero means
	// DefaultMaxRunWait.
	MaxRunWait time.Duration
	// Names are how fixes name the settings they change.
	Names Names
}

// Defaults of [Options].
const (
	DefaultPollInterval = 250 * time.Millisecond
	DefaultMaxRunWait   = time.Hour
)

// Names are how the report's fixes name the settings to change: the Go
// options of the facade by default; scm doctor names its flags.
type Names struct {
	BaseURL        string // default "the base URL given to facade.New"
	APIKey         string // default "facade.WithAPIKey"
	KeyPrefix      string // default "facade.WithKeyPrefix"
	CACert         string // default "facade.WithCACertFile"
	SkipVerify     string // default "facade.WithInsecureSkipVerify"
	InsecureHTTP   string // default "facade.WithInsecureHTTP"
	Project        string // default "Options.Project"
	Drift          string // where the drift is written; default "Report.Drift (specdiff overlay turns it into a spec change)"
	RequestLicense string // default "Client.User.RequestLicense"
}

func (n Names) withDefaults() Names {
	for _, f := range []struct {
		dst *string
		def string
	}{
		{&n.BaseURL, "the base URL given to facade.New"}, {&n.APIKey, "facade.WithAPIKey"}, {&n.KeyPrefix, "facade.WithKeyPrefix"},
		{&n.CACert, "facade.WithCACertFile"}, {&n.SkipVerify, "facade.WithInsecureSkipVerify"}, {&n.InsecureHTTP, "facade.WithInsecureHTTP"},
		{&n.Project, "Options.Project"}, {&n.Drift, "Report.Drift (specdiff overlay turns it into a spec change)"},
		{&n.RequestLicense, "Client.User.RequestLicense"},
	} {
		if *f.dst == "" {
			*f.dst = f.def
		}
	}
	return n
}

// Run goes through the checks in order and returns the report; it stops
// at a failed check that makes the rest pointless (no key, no connection,
// a key the server refuses). It sends only operations that do not change
// state, and runExperiment once when opts.Run is set. Every text of the
// report passes through c.Redact: no spelling of the key is in it.
func Run(ctx context.Context, c *facade.Client, opts Options) Report {
	d := newDoctor(c, opts)
	steps := []func(context.Context) bool{d.configuration, d.network, d.license, d.spec, d.probe, d.run}
	for _, step := range steps {
		if !step(ctx) {
			d.rep.StoppedAfter = d.last().Name
			break
		}
	}
	return d.report()
}

// doctor is one Run: the client, the options and the report so far.
type doctor struct {
	c     *facade.Client
	opts  Options
	names Names
	clk   clock.Clock
	base  *url.URL
	rep   Report
	user  *userSeen // what the key check read, for the license check

	viaProxy bool // the requests go through a proxy (the proxy check)
}

func newDoctor(c *facade.Client, opts Options) *doctor {
	d := &doctor{c: c, opts: opts, names: opts.Names.withDefaults(), clk: opts.Clock}
	if d.clk == nil {
		d.clk = clock.Real{}
	}
	if d.opts.Proxy == nil {
		d.opts.Proxy = http.ProxyFromEnvironment
	}
	d.rep.BaseURL = strings.TrimSuffix(c.BaseURL(), "/")
	d.base, _ = url.Parse(c.BaseURL()) // facade.New parsed it
	return d
}

func (d *doctor) add(name string, status Status, seen, fix string) Check {
	c := Check{Name: name, Status: status, Seen: seen, Fix: fix}
	d.rep.Checks = append(d.rep.Checks, c)
	return c
}

func (d *doctor) last() Check { return d.rep.Checks[len(d.rep.Checks)-1] }

// report is the report with the drift the client saw, every text
// redacted.
func (d *doctor) report() Report {
	r := d.rep
	r.Drift = d.c.Drift()
	r.BaseURL = d.c.Redact(r.BaseURL)
	for i, c := range r.Checks {
		r.Checks[i].Seen, r.Checks[i].Fix = d.c.Redact(c.Seen), d.c.Redact(c.Fix)
	}
	for i, f := range r.Drift {
		r.Drift[i].Detail = d.c.Redact(f.Detail)
	}
	return r
}
