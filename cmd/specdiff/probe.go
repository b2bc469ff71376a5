package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// probeLimits bound a probe.
type probeLimits struct {
	maxCalls int
	items    int           // items of each list whose ids are followed
	timeout  time.Duration // per call
}

func runProbe(ctx context.Context, e env, args []string) int {
	var c common
	var conn connection
	var lim probeLimits
	fs := newFlagSet(e, "specdiff probe", &c)
	conn.register(fs)
	fs.IntVar(&lim.maxCalls, "max-calls", 200, "the most calls to send")
	fs.IntVar(&lim.items, "items", 3, "the items of each list whose ids are followed, and the take of paged calls")
	fs.DurationVar(&lim.timeout, "timeout", 30*time.Second, "the time limit of one call")
	rest, code, ok := parseFlags(e, fs, &c, args)
	if !ok {
		return code
	}
	base, err := probeTarget(rest, lim)
	if err != nil {
		return fail(e, err)
	}
	client, err := conn.client(e)
	if err != nil {
		return fail(e, err)
	}
	s, err := loadSpec(c.spec)
	if err != nil {
		return fail(e, err)
	}
	p := newProber(s, base, client, conn.headers.h, lim)
	findings, err := p.run(ctx)
	if err != nil {
		return fail(e, err)
	}
	rep := Report{Command: "probe", Spec: c.spec, Unit: "server", Counted: "call", Other: "note", Results: []Result{{
		Source: redactedURL(base), Format: "live answers", Operations: p.sent, Findings: findings,
	}}}
	return write(e, c.output, rep)
}

// probeTarget checks the arguments: one http(s) base URL and sane limits.
func probeTarget(args []string, lim probeLimits) (*url.URL, error) {
	switch {
	case len(args) != 1:
		return nil, errors.New("probe: want one BASE_URL (the URL the operation paths follow, ending in /api/v1); see specdiff -h")
	case lim.maxCalls < 1:
		return nil, fmt.Errorf("probe: -max-calls %d: want at least 1", lim.maxCalls)
	case lim.items < 1:
		return nil, fmt.Errorf("probe: -items %d: want at least 1", lim.items)
	case lim.timeout <= 0:
		return nil, fmt.Errorf("probe: -timeout %s: want a positive duration", lim.timeout)
	}
	u, err := url.Parse(args[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("probe: BASE_URL: want an http(s) URL such as https://host/api/v1")
	}
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}
