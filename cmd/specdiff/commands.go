package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/scmodel/scmgo/internal/specdiff/diff"
	"github.com/scmodel/scmgo/internal/specdiff/facadetags"
	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/overlay"
	"github.com/scmodel/scmgo/internal/specdiff/probe"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// The commands: each parses its flags and arguments and calls the package
// that does its work.

// runDiff is specdiff [flags] LISTING...: package diff.
func runDiff(ctx context.Context, e env, args []string) int {
	var c common
	var conn connection
	fs := newFlagSet(e, "specdiff", &c)
	format := fs.String("format", listing.FormatAuto, "listing format: auto, openapi, markdown or plain")
	omissions := fs.String("omissions", "", "the known-omissions `FILE` (default: the embedded one with the embedded spec, else known-omissions.yaml beside -spec)")
	conn.register(fs)
	rest, code, ok := parseFlags(e, fs, &c, args)
	if !ok {
		return code
	}
	client, err := conn.client(e)
	if err != nil {
		return fail(e, err)
	}
	if len(rest) == 0 {
		fmt.Fprintln(e.stderr, "specdiff: no listing given; see specdiff -h")
		return exitError
	}
	rep, err := diff.Run(ctx, diff.Options{Spec: c.spec, Omissions: *omissions, Format: *format, Listings: rest,
		Fetcher: fetch.Fetcher{Stdin: e.stdin, Headers: conn.headers.h, Client: client, MaxSize: c.maxBytes}, Notes: e.stderr})
	if err != nil {
		return fail(e, err)
	}
	return write(e, c.output, rep)
}

// runValidate is specdiff validate: specdoc.Validate.
func runValidate(e env, args []string) int {
	var c common
	fs := newFlagSet(e, "specdiff validate", &c)
	quiet := fs.Bool("q", false, "print nothing when the spec has no problem (make generate runs it so)")
	rest, code, ok := parseFlags(e, fs, &c, args)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return unexpected(e, rest[0])
	}
	rep, err := specdoc.Validate(c.spec, c.maxBytes)
	if err != nil {
		return fail(e, err)
	}
	if *quiet && len(rep.Results[0].Findings) == 0 {
		return exitClean
	}
	return write(e, c.output, rep)
}

// runFacade is specdiff facade: package facadetags.
func runFacade(e env, args []string) int {
	var c common
	fs := newFlagSet(e, "specdiff facade", &c)
	dir := fs.String("dir", "facade", "the facade package directory")
	rest, code, ok := parseFlags(e, fs, &c, args)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		return unexpected(e, rest[0])
	}
	rep, err := facadetags.Check(c.spec, *dir, c.maxBytes)
	if err != nil {
		return fail(e, err)
	}
	return write(e, c.output, rep)
}

// runProbe is specdiff probe: package probe.
func runProbe(ctx context.Context, e env, args []string) int {
	var c common
	var conn connection
	lim := probe.DefaultLimits()
	fs := newFlagSet(e, "specdiff probe", &c)
	conn.register(fs)
	fs.IntVar(&lim.MaxCalls, "max-calls", lim.MaxCalls, "the most calls to send")
	fs.IntVar(&lim.Items, "items", lim.Items, "the items of each list whose ids are followed, and the take of paged calls")
	fs.DurationVar(&lim.Timeout, "timeout", lim.Timeout, "the time limit of one call")
	fs.Var((*inputFlag)(&lim.Inputs), "input", "`NAME=VALUE`: an input no answer gives (jobId, variationId); repeatable")
	rest, code, ok := parseFlags(e, fs, &c, args)
	if !ok {
		return code
	}
	lim.SpecBytes = c.maxBytes
	base, err := probe.Target(rest, lim)
	if err != nil {
		return fail(e, err)
	}
	client, err := conn.client(e)
	if err != nil {
		return fail(e, err)
	}
	rep, err := probe.Run(ctx, c.spec, probe.Server{Base: base, Client: client, Headers: conn.headers.h}, lim)
	if err != nil {
		return fail(e, err)
	}
	return write(e, c.output, rep)
}

// runOverlay is specdiff overlay: overlay.Run.
func runOverlay(e env, args []string) int {
	var f overlayFlags
	fs := newOverlayFlagSet(e, "specdiff overlay", &f)
	fs.StringVar(&f.spec, "spec", "", "the spec `FILE` the overlay is for (default: the api/openapi.yaml built into specdiff)")
	fs.StringVar(&f.source, "source", "", "the one-line `TEXT` of x-observed (default: where the findings came from)")
	rest, code, ok := parseOverlayArgs(e, fs, &f, args)
	if !ok {
		return code
	}
	err := overlay.Run(overlay.Options{Spec: f.spec, Source: f.source, Out: f.out, Files: rest, Stdin: e.stdin, Stdout: e.stdout, Notes: e.stderr,
		MaxInputBytes: f.maxBytes})
	if err != nil {
		return fail(e, err)
	}
	return exitClean
}

// runOverlayApply is specdiff overlay apply: overlay.Apply.
func runOverlayApply(e env, args []string) int {
	var f overlayFlags
	fs := newOverlayFlagSet(e, "specdiff overlay apply", &f)
	fs.StringVar(&f.spec, "spec", "", "the spec `FILE` to change (default: api/openapi.yaml of the repository around the working directory)")
	rest, code, ok := parseOverlayArgs(e, fs, &f, args)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		return fail(e, errors.New("overlay apply: want one OVERLAY file; see specdiff -h"))
	}
	valid, err := overlay.Apply(overlay.ApplyOptions{Spec: f.spec, Out: f.out, Overlay: rest[0], Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr,
		MaxInputBytes: f.maxBytes})
	switch {
	case err != nil:
		return fail(e, err)
	case !valid:
		return exitDrift
	}
	return exitClean
}

// unexpected refuses an argument a command does not take.
func unexpected(e env, arg string) int {
	fmt.Fprintf(e.stderr, "specdiff: unexpected argument %q; see specdiff -h\n", arg)
	return exitError
}
