package main

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/scmodel/scmgo/facade"
)

// client builds the facade client from the settings. --verbose logs each
// request at debug level; the facade redacts the key and sensitive fields.
func (a *app) client(extra ...facade.Option) (*facade.Client, error) {
	base, err := a.base()
	if err != nil {
		return nil, err
	}
	opts := []facade.Option{facade.WithUserAgent("scm/" + version())}
	if a.apiKey != "" {
		opts = append(opts, facade.WithAPIKey(a.apiKey))
	}
	if a.keyPrefix != "" {
		opts = append(opts, facade.WithKeyPrefix(a.keyPrefix))
	}
	if a.insecure {
		opts = append(opts, facade.WithInsecureHTTP())
	}
	if a.caCert != "" {
		opts = append(opts, facade.WithCACertFile(a.caCert))
	}
	if a.skipVerify {
		opts = append(opts, facade.WithInsecureSkipVerify())
	}
	level := slog.LevelWarn // certificate checks turned off, state values never seen before
	if a.verbose {
		level = slog.LevelDebug
	}
	opts = append(opts, facade.WithLogger(slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level}))))
	c, err := facade.New(base, append(opts, extra...)...)
	if err != nil {
		if strings.Contains(err.Error(), "plain http") {
			err = fmt.Errorf("%w (scm: --insecure-http)", err)
		}
		return nil, usageError{err}
	}
	return c, nil
}

// interactivePoll polls often enough for a progress bar to move.
func interactivePoll() *facade.WaitOptions {
	return &facade.WaitOptions{Policy: &facade.PollPolicy{MinInterval: 200 * time.Millisecond, MaxInterval: time.Second}}
}
