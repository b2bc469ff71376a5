package overlay

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/report"
)

// findingsFile is what specdiff overlay read from one file: its findings
// and where they came from, for x-observed.
type findingsFile struct {
	name     string
	findings []report.Finding
	sources  []string
}

// readFindings reads the findings of a file: a specdiff report (-o json,
// of probe or any other command) or a JSON array of findings (a drift
// report the SDK writes). "-" reads stdin.
func readFindings(in input, name string) (findingsFile, error) {
	data, date, err := in.read(name)
	if err != nil {
		return findingsFile{}, err
	}
	out := findingsFile{name: name}
	switch first(data) {
	case '[':
		if err := json.Unmarshal(data, &out.findings); err != nil {
			return out, fmt.Errorf("%s: reading the array of findings: %w", name, err)
		}
		out.sources = []string{fmt.Sprintf("SDK drift report %s of %s", filepath.Base(name), date)}
	case '{':
		var rep report.JSONReport
		if err := json.Unmarshal(data, &rep); err != nil {
			return out, fmt.Errorf("%s: reading the specdiff report: %w", name, err)
		}
		if rep.Command == "" || rep.Results == nil {
			return out, fmt.Errorf("%s: a JSON object without command and results: want specdiff -o json output or an array of findings", name)
		}
		out.findings, out.sources = reportFindings(rep, cmp.Or(rep.Date, date))
	default:
		return out, fmt.Errorf("%s: not JSON: want specdiff probe -o json output or a JSON array of findings", name)
	}
	return out, nil
}

func reportFindings(rep report.JSONReport, date string) (findings []report.Finding, sources []string) {
	for _, r := range rep.Results {
		findings = append(findings, r.Findings...)
		sources = append(sources, fmt.Sprintf("specdiff %s of %s on %s", rep.Command, r.Source, date))
	}
	return findings, sources
}

// input is where the files named "-" are read from, and the size limit of
// every file read (-max-input-bytes; zero means fetch.DefaultMaxSize).
type input struct {
	stdin    io.Reader
	maxBytes int64
}

// read reads a file, or stdin for "-", within the size limit, and the day
// it was written (today for stdin), in UTC.
func (in input) read(name string) ([]byte, string, error) {
	if name == "-" {
		data, err := fetch.ReadAll(in.stdin, "stdin", in.maxBytes)
		return data, time.Now().UTC().Format(time.DateOnly), err
	}
	data, err := fetch.ReadFile(name, in.maxBytes)
	if err != nil {
		return nil, "", err
	}
	info, err := os.Stat(name)
	if err != nil {
		return nil, "", err
	}
	return data, info.ModTime().UTC().Format(time.DateOnly), nil
}

// first is the first byte of data that is not white space, 0 if none.
func first(data []byte) byte {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 {
		return 0
	}
	return data[0]
}

var errNoFindings = errors.New("no findings file given; see specdiff -h")
