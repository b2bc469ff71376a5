package facade

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/scmodel/scmgo/clock"
)

// Option configures a [Client]. Options validate their input; [New] fails on
// the first invalid one.
type Option func(*config) error

// Clock is the time source for retries and polling, [clock.Clock]: the
// same interface as fake.Clock, so one [clock.Virtual] can drive a fake
// server and the clients passed it with [WithClock].
type Clock = clock.Clock

type config struct {
	key            secret
	keyPrefix      string
	httpClient     *http.Client
	userAgent      string
	logger         *slog.Logger
	retry          RetryPolicy
	poll           PollPolicy
	pollJitter     *jitterSource // nil: the global source
	attemptTimeout time.Duration
	watchClock     watchClock // measures the attempt timeout: the clock's timers
	clock          Clock
	allowInsecure  bool
	tls            tlsSettings
	limits         Limits
	observer       Observer // nil: none
	// underWayMessages are the patterns of WithRunUnderWayMessages, lower
	// case, beside runUnderWayMessages.
	underWayMessages []string
	// formerServers are the servers of WithFormerServers, as tokens name
	// them.
	formerServers []string
	// terminalRule judges the states of runs and jobs (WithTerminalRule).
	terminalRule TerminalRule
}

// defaultUserAgent names the SDK and its module version in the User-Agent
// header of every request, e.g. scmgo-facade/v1.4.0; [WithUserAgent] puts
// the caller's product before it.
var defaultUserAgent = "scmgo-facade/" + moduleVersion()

// modulePath is the SDK's module, whose version defaultUserAgent names.
const modulePath = "github.com/scmodel/scmgo"

// moduleVersion is the SDK module's version in the running binary: the
// dependency's version, the main module's when the SDK is the main module,
// "devel" when neither is known.
func moduleVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := info.Main.Version
	if info.Main.Path != modulePath {
		v = ""
		for _, d := range info.Deps {
			if d.Path == modulePath {
				v = d.Version
			}
		}
	}
	if v == "" || v == "(devel)" {
		return "devel"
	}
	return v
}

func defaultConfig() config {
	return config{
		httpClient:     &http.Client{},
		userAgent:      defaultUserAgent,
		logger:         slog.New(discardHandler{}),
		retry:          DefaultRetryPolicy(),
		poll:           DefaultPollPolicy(),
		attemptTimeout: 60 * time.Second,
		watchClock:     clock.Real{},
		clock:          clock.Real{},
		limits:         DefaultLimits(),
		terminalRule:   DefaultTerminalRule,
	}
}

// String hides the key: configuration values may end up in logs.
func (c config) String() string { return "facade.config{apiKey: " + c.key.String() + "}" }

// GoString hides the key.
func (c config) GoString() string { return c.String() }

// WithAPIKey sets the key sent in the Authorization header of every request.
// The key must not be empty or contain spaces or control characters. Without
// this option no Authorization header is sent.
func WithAPIKey(key string) Option {
	return func(c *config) error {
		if key == "" {
			return errors.New("facade: WithAPIKey: the key is empty")
		}
		if strings.ContainsFunc(key, isSpaceOrControl) {
			return errors.New("facade: WithAPIKey: the key contains a space or a control character")
		}
		c.key = newSecret(key)
		return nil
	}
}

// WithKeyPrefix sets a word sent before the key, e.g. "Bearer", giving
// "Authorization: Bearer KEY". The default is no prefix: the header is the
// key alone, as the reference describes.
func WithKeyPrefix(word string) Option {
	return func(c *config) error {
		if word == "" || strings.ContainsFunc(word, isSpaceOrControl) {
			return fmt.Errorf("facade: WithKeyPrefix: %q must be one word", word)
		}
		c.keyPrefix = word
		return nil
	}
}

// WithHTTPClient sets the HTTP client, e.g. one whose Transport adds tracing.
// The client is copied; its Transport (nil means a clone of
// http.DefaultTransport) is wrapped to add authentication and to keep
// net/http from resending a state-changing request on a dead keep-alive
// connection.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *config) error {
		if hc == nil {
			return errors.New("facade: WithHTTPClient: the client is nil")
		}
		c.httpClient = hc
		return nil
	}
}

// WithUserAgent puts the caller's product, e.g. "planner/2.1", before the
// SDK's own (scmgo-facade/ and the SDK module's version) in the User-Agent
// header of every request: "planner/2.1 scmgo-facade/v1.4.0". A later
// WithUserAgent replaces an earlier one.
func WithUserAgent(product string) Option {
	return func(c *config) error {
		if strings.TrimSpace(product) == "" || strings.ContainsFunc(product, isControl) {
			return fmt.Errorf("facade: WithUserAgent: %q is empty or has control characters", product)
		}
		c.userAgent = strings.TrimSpace(product) + " " + defaultUserAgent
		return nil
	}
}

// WithLogger sets the logger for debug lines about each attempt. Nil is
// refused; by default nothing is logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) error {
		if l == nil {
			return errors.New("facade: WithLogger: the logger is nil")
		}
		c.logger = l
		return nil
	}
}

// WithRetryPolicy sets how operations that do not change state are retried.
// See [RetryPolicy] for the zero values.
func WithRetryPolicy(p RetryPolicy) Option {
	return func(c *config) error {
		if err := p.validate(); err != nil {
			return err
		}
		c.retry = p
		return nil
	}
}

// WithPollPolicy sets the default policy of [Run.Wait] and [Job.Wait].
func WithPollPolicy(p PollPolicy) Option {
	return func(c *config) error {
		if err := p.validate(); err != nil {
			return err
		}
		c.poll = p
		return nil
	}
}

// WithAttemptTimeout bounds how long one attempt may wait on the server
// with nothing moving, separately from the caller's context: connecting, a
// request body the server stops taking, the time to the response headers
// after the request was sent, and a response body that stops arriving while
// it is read. A transfer that keeps moving is never cut, however long it
// takes: a 1 GiB upload at 1 MB/s succeeds. A request body that stalls is
// reported as not applied, since the server never got it whole. The default
// is 60 s; 0 means no limit.
func WithAttemptTimeout(d time.Duration) Option {
	return func(c *config) error {
		if d < 0 {
			return fmt.Errorf("facade: WithAttemptTimeout: %v is negative", d)
		}
		c.attemptTimeout = d
		return nil
	}
}

// WithClock sets the time source of retry delays, polling and the attempt
// timeout, for tests and simulations. Nil is refused; the default is the
// real clock. The attempt timeout runs on the clock's timers when it has
// them ([clock.TimerClock]: AfterFunc), else on timers made of its After;
// a clock whose After returns at once (one that is advanced by every wait)
// should give timers that wait to be advanced, or every attempt times out.
func WithClock(clock Clock) Option {
	return func(c *config) error {
		if clock == nil {
			return errors.New("facade: WithClock: the clock is nil")
		}
		c.clock = clock
		c.watchClock = watchClockOf(clock)
		return nil
	}
}

// WithInsecureHTTP allows sending the API key over plain http to a host that
// is not loopback. Without it, [New] refuses such a base URL.
func WithInsecureHTTP() Option {
	return func(c *config) error {
		c.allowInsecure = true
		return nil
	}
}

func isSpaceOrControl(r rune) bool { return r == ' ' || r == '\t' || isControl(r) }
func isControl(r rune) bool        { return r < 0x20 || r == 0x7f }
