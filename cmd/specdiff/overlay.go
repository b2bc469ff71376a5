package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"

	"github.com/speakeasy-api/openapi/overlay"
	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/internal/atomicfile"
	"github.com/scmodel/scmgo/internal/spec"
)

// overlayFlags are the flags of specdiff overlay and overlay apply.
type overlayFlags struct {
	spec, out, source string
}

func newOverlayFlagSet(e env, name string, f *overlayFlags) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() { writeUsage(e.stdout) }
	fs.StringVar(&f.out, "o", "", "write to `FILE` (default: standard output; for apply, the spec in place)")
	return fs
}

// runOverlay is specdiff overlay: findings in, an OpenAPI Overlay out.
func runOverlay(e env, args []string) int {
	if len(args) > 0 && args[0] == "apply" {
		return runOverlayApply(e, args[1:])
	}
	var f overlayFlags
	fs := newOverlayFlagSet(e, "specdiff overlay", &f)
	fs.StringVar(&f.spec, "spec", "", "the spec `FILE` the overlay is for (default: the api/openapi.yaml built into specdiff)")
	fs.StringVar(&f.source, "source", "", "the one-line `TEXT` of x-observed (default: where the findings came from)")
	rest, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(rest) == 0 {
		return fail(e, errors.New("overlay: "+errNoFindings.Error()))
	}
	if strings.ContainsAny(f.source, "\r\n") {
		return fail(e, fmt.Errorf("overlay: -source %q: want one line (x-observed is a one-line source)", f.source))
	}
	ov, err := makeOverlay(e, f, rest)
	if err != nil {
		return fail(e, fmt.Errorf("overlay: %w", err))
	}
	if ov == nil {
		return exitClean
	}
	text, err := ov.ToString()
	if err == nil {
		err = writeOutput(e, f.out, []byte(text))
	}
	if err != nil {
		return fail(e, fmt.Errorf("overlay: %w", err))
	}
	return exitClean
}

// makeOverlay reads the findings and plans the overlay; nil when there is
// nothing to change. Notes on skipped findings and a summary go to stderr.
func makeOverlay(e env, f overlayFlags, files []string) (*overlay.Overlay, error) {
	d, err := specdoc.Read(f.spec)
	if err != nil {
		return nil, err
	}
	top, err := spec.ParseYAML(d.Name, d.Data)
	if err != nil {
		return nil, err
	}
	plan := newOverlayPlan(&specTree{top: top})
	total, sources, err := planFiles(e, plan, files)
	if err != nil {
		return nil, err
	}
	source := cmp.Or(f.source, strings.Join(sources, "; "))
	acts := plan.actions(source)
	for _, n := range plan.notes {
		fmt.Fprintf(e.stderr, "specdiff overlay: skipped %s\n", n)
	}
	fmt.Fprintf(e.stderr, "specdiff overlay: %d of %s made %s\n", plan.used, report.Plural(total, "finding"), report.Plural(len(acts), "action"))
	if len(acts) == 0 {
		fmt.Fprintln(e.stderr, "specdiff overlay: nothing to change; no overlay written")
		return nil, nil
	}
	return &overlay.Overlay{
		Version: overlay.Version110,
		Info: overlay.Info{
			Title:   "Changes to " + d.File + " for the drift observed",
			Version: "1.0.0",
			Description: fmt.Sprintf("Made by specdiff overlay from %s. Every element added or changed is marked x-observed: %s. "+
				"Apply with specdiff overlay apply, then run make generate.", strings.Join(files, ", "), source),
		},
		Actions: acts,
	}, nil
}

// planFiles plans the findings of each file and returns how many there
// were and where they came from, each origin once.
func planFiles(e env, plan *overlayPlan, files []string) (total int, sources []string, err error) {
	for _, name := range files {
		ff, err := readFindings(e, name)
		if err != nil {
			return 0, nil, err
		}
		for _, fd := range ff.findings {
			plan.add(fd)
		}
		total += len(ff.findings)
		for _, s := range ff.sources {
			if !slices.Contains(sources, s) {
				sources = append(sources, s)
			}
		}
	}
	return total, sources, nil
}

// runOverlayApply is specdiff overlay apply: the overlay's actions written
// into the spec file, keeping its layout; then the rules of validate.
func runOverlayApply(e env, args []string) int {
	var f overlayFlags
	fs := newOverlayFlagSet(e, "specdiff overlay apply", &f)
	fs.StringVar(&f.spec, "spec", "", "the spec `FILE` to change (default: api/openapi.yaml of the repository around the working directory)")
	rest, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		return fail(e, errors.New("overlay apply: want one OVERLAY file; see specdiff -h"))
	}
	file, err := specFileToChange(f.spec)
	if err != nil {
		return fail(e, fmt.Errorf("overlay apply: %w", err))
	}
	out, warnings, err := applyOverlay(e, file, rest[0])
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "specdiff overlay apply: %s\n", w)
	}
	if err != nil {
		return fail(e, fmt.Errorf("overlay apply: %w", err))
	}
	dest := cmp.Or(f.out, file)
	if err := writeFileAtomic(dest, out); err != nil {
		return fail(e, fmt.Errorf("overlay apply: %w", err))
	}
	return validateApplied(e, dest, out)
}

// applyOverlay reads the overlay and the spec and returns the spec with the
// overlay applied. Every action must match something.
func applyOverlay(e env, specFile, overlayFile string) ([]byte, []string, error) {
	data, _, err := readInput(e, overlayFile)
	if err != nil {
		return nil, nil, err
	}
	var ov overlay.Overlay
	if err := yaml.Unmarshal(data, &ov); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", overlayFile, err)
	}
	if err := ov.Validate(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", overlayFile, err)
	}
	raw, err := os.ReadFile(specFile)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	out, whole, err := spec.EditYAML(specFile, raw, func(doc *yaml.Node) error {
		w, err := ov.ApplyToStrict(doc)
		warnings = w
		if err != nil {
			return fmt.Errorf("%s on %s: %w", overlayFile, specFile, err)
		}
		return nil
	})
	if whole {
		warnings = append(warnings, "the changes could not be written line by line: the whole file is rewritten; review its layout")
	}
	return out, warnings, err
}

// validateApplied reports what specdiff validate finds in the changed spec.
func validateApplied(e env, file string, data []byte) int {
	problems, err := spec.CheckData(file, data)
	if err != nil {
		return fail(e, err)
	}
	for _, p := range problems {
		fmt.Fprintf(e.stderr, "specdiff overlay apply: %s:%d: %s: %s (%s%s)\n", file, p.Line, p.Where, p.Message, report.SpecKindPrefix, p.Rule)
	}
	if len(problems) > 0 {
		fmt.Fprintf(e.stdout, "specdiff overlay apply: wrote %s; specdiff validate finds %s: fix them before make generate\n", file, report.Plural(len(problems), "problem"))
		return exitDrift
	}
	fmt.Fprintf(e.stdout, "specdiff overlay apply: wrote %s; it passes specdiff validate: now run make generate\n", file)
	return exitClean
}

// specFileToChange is the -spec file, or api/openapi.yaml of the
// repository the working directory is in.
func specFileToChange(flagValue string) (string, error) {
	if flagValue != "" {
		return flagValue, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.Contains(string(mod), "module github.com/scmodel/scmgo\n") {
			return filepath.Join(dir, specdoc.EmbeddedSpecFile), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the scmgo repository: name the spec with -spec FILE")
		}
		dir = parent
	}
}

// writeOutput writes data to the file, or to stdout when file is "" or -.
func writeOutput(e env, file string, data []byte) error {
	if file == "" || file == "-" {
		_, err := e.stdout.Write(data)
		return err
	}
	return writeFileAtomic(file, data)
}

// writeFileAtomic replaces a file with data through package atomicfile, so
// that a crash leaves the old file or the new one; an existing file keeps
// its permissions.
func writeFileAtomic(file string, data []byte) error {
	opts := &atomicfile.Options{}
	if info, err := os.Stat(file); err == nil {
		opts.Perm = info.Mode().Perm()
	}
	return atomicfile.WriteBytes(file, data, opts)
}
