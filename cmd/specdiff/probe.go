package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// probeLimits bound a probe.
type probeLimits struct {
	maxCalls int
	items    int               // items of each list whose ids are followed
	timeout  time.Duration     // per call
	inputs   map[string]string // -input: values no answer gives
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
	fs.Var((*inputFlag)(&lim.inputs), "input", "`NAME=VALUE`: an input no answer gives (jobId, variationId); repeatable")
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
	s, err := specdoc.Load(c.spec)
	if err == nil {
		err = checkInputs(s, lim.inputs)
	}
	if err != nil {
		return fail(e, err)
	}
	p := newProber(s, base, client, conn.headers.h, lim)
	findings, err := p.run(ctx)
	if err != nil {
		return fail(e, err)
	}
	rep := report.Report{Command: "probe", Spec: s.Name, Unit: "server", Counted: "call", Other: "note", Date: time.Now().UTC().Format(time.DateOnly), Results: []report.Result{{
		Source: fetch.RedactedURL(base), Format: "live answers", Operations: p.sent, Findings: findings, Coverage: p.coverage(),
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

// inputFlag collects -input NAME=VALUE flags.
type inputFlag map[string]string

func (f *inputFlag) String() string { return "" }

// Set adds one input.
func (f *inputFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" || value == "" {
		return errors.New("want NAME=VALUE, such as jobId=4001")
	}
	if *f == nil {
		*f = map[string]string{}
	}
	(*f)[name] = value
	return nil
}

// checkInputs checks that every -input names an input of a read-only
// operation.
func checkInputs(s *specdoc.Spec, inputs map[string]string) error {
	names := map[string]bool{}
	for _, op := range s.Ops {
		for _, prm := range op.Params {
			if !op.ChangesState {
				names[prm.Name] = true
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		if !names[name] {
			return fmt.Errorf("probe: -input %s=%s: no read-only operation of %s takes %s", name, inputs[name], s.Name, name)
		}
	}
	return nil
}
