package main

import (
	"log/slog"
	"time"

	"github.com/scmodel/scmgo/facade"
)

// client builds the facade client from the settings, with
// --request-timeout as its attempt timeout. --verbose logs each request at debug level; the
// facade redacts the key and sensitive fields.
func (a *app) client(extra ...facade.Option) (*facade.Client, error) {
	return a.newClient(a.attemptTimeout, extra...)
}

// runClient is the client of a call that lasts as long as a run
// (runExperimentSynchronously): without --request-timeout, an attempt may wait on
// the server for as long as the run takes.
func (a *app) runClient(extra ...facade.Option) (*facade.Client, error) {
	limit := a.attemptTimeout
	if !a.timeoutSet {
		limit = 0
	}
	return a.newClient(limit, extra...)
}

func (a *app) newClient(attemptTimeout time.Duration, extra ...facade.Option) (*facade.Client, error) {
	base, err := a.base()
	if err != nil {
		return nil, err
	}
	if a.apiKey == "" {
		return nil, usagef("no API key: give --api-key or set SCM_API_KEY (the server refuses every call without one)")
	}
	if err := a.checkTimeLimits(); err != nil {
		return nil, err
	}
	hc, err := a.httpClient(attemptTimeout)
	if err != nil {
		return nil, err
	}
	logger := a.logger()
	opts := []facade.Option{facade.WithUserAgent("scm/" + shortVersion()), facade.WithHTTPClient(hc),
		facade.WithAttemptTimeout(attemptTimeout), facade.WithLogger(logger), facade.WithAPIKey(a.apiKey)}
	if a.keyPrefix != "" {
		opts = append(opts, facade.WithKeyPrefix(a.keyPrefix))
	}
	if a.insecure {
		opts = append(opts, facade.WithInsecureHTTP())
	}
	opts = append(opts, a.telemetry.clientOptions()...)
	c, err := facade.New(base, append(opts, extra...)...)
	if err == nil {
		a.drift.add(c)
		a.redactWith(c)
	}
	if err != nil {
		return nil, usageError{err}
	}
	if a.skipVerify {
		logger.Warn("scm: TLS certificate verification is off (--insecure-skip-verify): the API key can be read by anyone on the path", slog.String("baseURL", shownURL(base)))
	}
	return c, nil
}

// logger writes warnings (state values never seen before, certificate
// checks turned off) to standard error, and with --verbose a line per
// request and per difference between an answer and the spec (without it,
// the command ends with one line that counts them).
func (a *app) logger() *slog.Logger {
	level := slog.LevelWarn
	if a.verbose {
		level = slog.LevelDebug
	}
	var h slog.Handler = slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level})
	if !a.verbose {
		h = driftQuiet{h}
	}
	return slog.New(h)
}

// followPoll paces the waits of scm run --wait and scm batch: nil, the
// client's policy (facade.DefaultPollPolicy, whose pause follows the run's
// age), as the SDK's users and the Temporal activities get. The tests set a
// faster one: their fake's runs last a fraction of a second of real time.
var followPoll *facade.PollPolicy

// interactivePoll polls often enough for a progress bar to move.
func interactivePoll() *facade.WaitOptions {
	return &facade.WaitOptions{Policy: &facade.PollPolicy{MinInterval: 200 * time.Millisecond, MaxInterval: time.Second}}
}
