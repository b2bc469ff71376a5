package facade

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/gen"
)

// Client is the entry point of the SDK. It is safe for concurrent use by
// many goroutines. Its fields group the operations by area of the remote
// interface.
type Client struct {
	Projects    *ProjectsService
	Scenarios   *ScenariosService
	Imports     *ImportsService
	Experiments *ExperimentsService
	Results     *ResultsService
	Dashboards  *DashboardsService
	Variations  *VariationsService
	LastMile    *LastMileService
	User        *UserService

	baseURL string // ends with a slash, as the generated builders need
	hc      *http.Client
	raw     *gen.Client
	cfg     config
	states  *stateLog // state values seen that the SDK does not know
	drift   *drift.Collector
	// creds are the API key and the Authorization value, which no error or
	// log line quotes; behind a func, so no printed form of the client
	// shows them.
	creds func() *secretSet
}

// New returns a client for the service at baseURL, which includes the
// version prefix, e.g. https://scm.example.com/api/v1. Options are applied
// in order and validated; the first invalid one fails construction.
//
// A base URL with user information (https://user:password@host/...) is
// refused with an error that shows it without the password: the server
// authenticates with an API key ([WithAPIKey]), and a password kept in the
// URL would be printed wherever the URL is. Nothing the client prints
// (errors, String, LogValue, %v) shows user information.
func New(baseURL string, opts ...Option) (*Client, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	u, err := parseBaseURL(baseURL, cfg)
	if err != nil {
		return nil, err
	}
	c := &Client{baseURL: strings.TrimSuffix(u.String(), "/") + "/", cfg: cfg, states: newStateLog(cfg.limits), drift: &drift.Collector{},
		creds: credentials(append([]secret{cfg.key.headerValue(cfg.keyPrefix), cfg.key}, proxySecrets(cfg.httpClient.Transport, u)...)...)}
	if c.hc, err = c.authorizedHTTPClient(u); err != nil {
		return nil, err
	}
	cfg.tls.warn(cfg.logger, c.baseURL)
	c.raw, err = gen.NewClient(c.baseURL, gen.WithHTTPClient(c.hc))
	if err != nil {
		return nil, fmt.Errorf("facade: New: %w", err)
	}
	c.initServices()
	return c, nil
}

// NewFromEnv returns a client configured from SCM_BASE_URL, SCM_API_KEY and
// SCM_API_KEY_PREFIX. Options given here are applied after the environment,
// so they win. An unset or empty SCM_API_KEY is refused, unless opts give
// the key ([WithAPIKey]): the server refuses every call without one.
func NewFromEnv(opts ...Option) (*Client, error) {
	base := os.Getenv("SCM_BASE_URL")
	if base == "" {
		return nil, fmt.Errorf("facade: NewFromEnv: SCM_BASE_URL is not set")
	}
	var envOpts []Option
	if key := os.Getenv("SCM_API_KEY"); key != "" {
		envOpts = append(envOpts, WithAPIKey(key))
	} else if !givesKey(opts) {
		return nil, errors.New("facade: NewFromEnv: SCM_API_KEY is not set or empty: the server refuses every call without a key; " +
			"set it to your API key, or pass WithAPIKey")
	}
	if prefix := os.Getenv("SCM_API_KEY_PREFIX"); prefix != "" {
		envOpts = append(envOpts, WithKeyPrefix(prefix))
	}
	return New(base, append(envOpts, opts...)...)
}

// givesKey reports whether opts set an API key. An option that fails is
// left for New to report.
func givesKey(opts []Option) bool {
	cfg := defaultConfig()
	for _, opt := range opts {
		if opt != nil {
			_ = opt(&cfg)
		}
	}
	return !cfg.key.empty()
}

// parseBaseURL checks the base URL. Its errors quote it without the
// password of any user information, cut at 200 bytes.
func parseBaseURL(baseURL string, cfg config) (*url.URL, error) {
	shown := redactURL(baseURL)
	u, err := url.Parse(baseURL)
	if err != nil {
		var urlErr *url.Error
		if errors.As(err, &urlErr) {
			err = urlErr.Err // its text quotes the whole URL
		}
		return nil, fmt.Errorf("facade: New: base URL %q: %w", shown, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("facade: New: base URL %q: scheme must be http or https", shown)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("facade: New: base URL %q: host is missing", shown)
	}
	if u.User != nil {
		return nil, fmt.Errorf("facade: New: base URL %q: must not hold a user name or password; "+
			"the server takes an API key (WithAPIKey), and a password in a URL ends up in logs", shown)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("facade: New: base URL %q: must not have a query or fragment", shown)
	}
	if u.Scheme == "http" && !cfg.allowInsecure && !cfg.key.empty() && !isLoopback(u.Hostname()) {
		return nil, &ValidationError{Operation: "New", Reason: fmt.Sprintf("refusing to send the API key over plain http to %s; use https or WithInsecureHTTP", u.Host)}
	}
	return u, nil
}

func (c *Client) authorizedHTTPClient(u *url.URL) (*http.Client, error) {
	hc := *c.cfg.httpClient
	base, err := c.cfg.tls.transport(hc.Transport)
	if err != nil {
		return nil, err
	}
	hc.Transport = &authTransport{
		base:          base,
		host:          u.Host,
		basePath:      strings.TrimSuffix(u.Path, "/") + "/",
		header:        c.cfg.key.headerValue(c.cfg.keyPrefix),
		userAgent:     c.cfg.userAgent,
		allowInsecure: c.cfg.allowInsecure,
	}
	return &hc, nil
}

func defaultTransport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAliveConfig: keepAlive}).DialContext
	return t
}

// keepAlive finds a dead connection under a call the server holds open
// (x-held-open, e.g. a synchronous run): TCP probes after 15 s of silence,
// every 15 s, and the connection is dead after 4 unanswered, at most 75 s
// after the peer went away. A live peer's system answers the probes however
// long its server works, so a live call is never cut.
var keepAlive = net.KeepAliveConfig{Enable: true, Idle: 15 * time.Second, Interval: 15 * time.Second, Count: 4}

func (c *Client) initServices() {
	s := service{c: c}
	c.Projects = &ProjectsService{s}
	c.Scenarios = &ScenariosService{s}
	c.Imports = &ImportsService{s}
	c.Experiments = &ExperimentsService{s}
	c.Results = &ResultsService{s}
	c.Dashboards = &DashboardsService{s}
	c.Variations = &VariationsService{s}
	c.LastMile = &LastMileService{s}
	c.User = &UserService{s}
}

// service is embedded by every area.
type service struct{ c *Client }

// Raw returns the generated low-level client, configured with the same base
// URL, authentication and HTTP client, for anything the facade does not
// cover. It does not retry and does not log; like every request of the
// client, its requests of state-changing operations are never resent by
// net/http on a dead keep-alive connection. [Client.RawWithResponses] is the
// same client with the typed ...WithResponse methods.
func (c *Client) Raw() *gen.Client { return c.raw }

// BaseURL returns the base URL the client talks to, with a trailing slash.
func (c *Client) BaseURL() string { return c.baseURL }

// String describes the client without its credentials.
func (c *Client) String() string {
	return fmt.Sprintf("facade.Client{baseURL: %q, apiKey: %s}", c.baseURL, c.cfg.key)
}

// GoString is String; the API key is never printed.
func (c *Client) GoString() string { return c.String() }

// Format prints String for every verb, so %v, %+v and %#v never show the key.
func (c *Client) Format(f fmt.State, verb rune) { fmt.Fprint(f, c.String()) }

// LogValue logs the client without its credentials.
func (c *Client) LogValue() slog.Value {
	return slog.GroupValue(slog.String("baseURL", c.baseURL), slog.Any("apiKey", c.cfg.key))
}

func (c *Client) now() time.Time { return c.cfg.clock.Now() }

// CloseIdleConnections closes the idle keep-alive connections of the
// client's transport.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }
