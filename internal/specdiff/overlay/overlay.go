package overlay

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/speakeasy-api/openapi/overlay"

	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// Options are what specdiff overlay is given.
type Options struct {
	Spec   string   // -spec: the spec file the overlay is for; "" for the embedded spec
	Source string   // -source: the one-line text of x-observed; "" for where the findings came from
	Out    string   // -o: the file to write; "" or - for Stdout
	Files  []string // the findings files; - reads Stdin
	Stdin  io.Reader
	// MaxInputBytes bounds each file read, the spec and the findings
	// (-max-input-bytes); zero means fetch.DefaultMaxSize.
	MaxInputBytes int64
	Stdout        io.Writer
	Notes         io.Writer // the findings skipped and a summary: specdiff's stderr
}

// Run is specdiff overlay: findings in, an OpenAPI Overlay out. It writes
// nothing when there is nothing to change. Its errors start with
// "overlay: ".
func Run(opts Options) error {
	if len(opts.Files) == 0 {
		return errors.New("overlay: " + errNoFindings.Error())
	}
	if strings.ContainsAny(opts.Source, "\r\n") {
		return fmt.Errorf("overlay: -source %q: want one line (x-observed is a one-line source)", opts.Source)
	}
	ov, err := makeOverlay(opts)
	if err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	if ov == nil {
		return nil
	}
	text, err := ov.ToString()
	if err == nil {
		err = writeOutput(opts.Stdout, opts.Out, []byte(text))
	}
	if err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	return nil
}

// makeOverlay reads the findings and plans the overlay; nil when there is
// nothing to change. Notes on skipped findings and a summary go to
// opts.Notes.
func makeOverlay(opts Options) (*overlay.Overlay, error) {
	d, err := specdoc.Read(opts.Spec, opts.MaxInputBytes)
	if err != nil {
		return nil, err
	}
	top, err := spec.ParseYAML(d.Name, d.Data)
	if err != nil {
		return nil, err
	}
	plan := newOverlayPlan(&specTree{top: top})
	total, sources, err := planFiles(input{stdin: opts.Stdin, maxBytes: opts.MaxInputBytes}, plan, opts.Files)
	if err != nil {
		return nil, err
	}
	source := cmp.Or(opts.Source, strings.Join(sources, "; "))
	acts := plan.actions(source)
	for _, n := range plan.notes {
		fmt.Fprintf(opts.Notes, "specdiff overlay: skipped %s\n", n)
	}
	fmt.Fprintf(opts.Notes, "specdiff overlay: %d of %s made %s\n", plan.used, report.Plural(total, "finding"), report.Plural(len(acts), "action"))
	if len(acts) == 0 {
		fmt.Fprintln(opts.Notes, "specdiff overlay: nothing to change; no overlay written")
		return nil, nil
	}
	return &overlay.Overlay{
		Version: overlay.Version110,
		Info: overlay.Info{
			Title:   "Changes to " + d.File + " for the drift observed",
			Version: "1.0.0",
			Description: fmt.Sprintf("Made by specdiff overlay from %s. Every element added or changed is marked x-observed: %s. "+
				"Apply with specdiff overlay apply, then run make generate.", strings.Join(opts.Files, ", "), source),
		},
		Actions: acts,
	}, nil
}

// planFiles plans the findings of each file and returns how many there
// were and where they came from, each origin once.
func planFiles(in input, plan *overlayPlan, files []string) (total int, sources []string, err error) {
	for _, name := range files {
		ff, err := readFindings(in, name)
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
