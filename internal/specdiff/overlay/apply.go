package overlay

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/speakeasy-api/openapi/overlay"
	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/internal/atomicfile"
	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/report"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// ApplyOptions are what specdiff overlay apply is given.
type ApplyOptions struct {
	Spec    string // -spec: the spec file to change; "" for api/openapi.yaml of the repository around the working directory
	Out     string // -o: the file to write the result to; "" for the spec file, in place
	Overlay string // the overlay file; - reads Stdin
	Stdin   io.Reader
	// MaxInputBytes bounds each file read, the overlay and the spec
	// (-max-input-bytes); zero means fetch.DefaultMaxSize.
	MaxInputBytes int64
	Stdout        io.Writer // the verdict
	Stderr        io.Writer // warnings and the changed spec's problems
}

// Apply is specdiff overlay apply: the overlay's actions written into the
// spec file, keeping its layout (only the lines of what changed are
// rewritten), and the examples they left invalid removed, with a warning
// each (spec.DropInvalidExamples); then the rules of specdiff validate. It reports whether the
// changed spec passes them. Every action must match something in the spec.
func Apply(opts ApplyOptions) (valid bool, err error) {
	file, err := specFileToChange(opts.Spec)
	if err != nil {
		return false, fmt.Errorf("overlay apply: %w", err)
	}
	out, warnings, err := applyOverlay(input{stdin: opts.Stdin, maxBytes: opts.MaxInputBytes}, file, opts.Overlay)
	for _, w := range warnings {
		fmt.Fprintf(opts.Stderr, "specdiff overlay apply: %s\n", w)
	}
	if err != nil {
		return false, fmt.Errorf("overlay apply: %w", err)
	}
	dest := cmp.Or(opts.Out, file)
	if err := writeFileAtomic(dest, out); err != nil {
		return false, fmt.Errorf("overlay apply: %w", err)
	}
	return validateApplied(opts.Stdout, opts.Stderr, dest, out)
}

// applyOverlay reads the overlay and the spec and returns the spec with the
// overlay applied. Every action must match something.
func applyOverlay(in input, specFile, overlayFile string) ([]byte, []string, error) {
	data, _, err := in.read(overlayFile)
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
	raw, err := fetch.ReadFile(specFile, in.maxBytes)
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
		dropped, err := spec.DropInvalidExamples(doc)
		warnings = append(warnings, dropped...)
		return err
	})
	if whole {
		warnings = append(warnings, "the changes could not be written line by line: the whole file is rewritten; review its layout")
	}
	return out, warnings, err
}

// validateApplied says what specdiff validate finds in the changed spec,
// the problems on stderr, the verdict on stdout, and reports whether it
// passes.
func validateApplied(stdout, stderr io.Writer, file string, data []byte) (bool, error) {
	problems, err := spec.CheckData(file, data)
	if err != nil {
		return false, err
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "specdiff overlay apply: %s:%d: %s: %s (%s%s)\n", file, p.Line, p.Where, p.Message, report.SpecKindPrefix, p.Rule)
	}
	if len(problems) > 0 {
		fmt.Fprintf(stdout, "specdiff overlay apply: wrote %s; specdiff validate finds %s: fix them before make generate\n", file, report.Plural(len(problems), "problem"))
		return false, nil
	}
	fmt.Fprintf(stdout, "specdiff overlay apply: wrote %s; it passes specdiff validate: now run make generate\n", file)
	return true, nil
}

// maxGoModBytes bounds the go.mod files read to find the repository: a
// larger one is not the repository's.
const maxGoModBytes = 1 << 20

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
		mod, err := fetch.ReadFixed(filepath.Join(dir, "go.mod"), maxGoModBytes)
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
func writeOutput(stdout io.Writer, file string, data []byte) error {
	if file == "" || file == "-" {
		_, err := stdout.Write(data)
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
