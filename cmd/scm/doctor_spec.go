package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/scmodel/scmgo/doctor"
	"github.com/scmodel/scmgo/drift"
	"github.com/scmodel/scmgo/internal/specdiff/diff"
	"github.com/scmodel/scmgo/internal/specdiff/fetch"
	"github.com/scmodel/scmgo/internal/specdiff/listing"
	"github.com/scmodel/scmgo/internal/specdiff/overlay"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// The doctor's spec check and its overlay are specdiff's: scm, a command,
// links specdiff's libraries, which the SDK's packages do not (package
// doctor takes the comparison as a function).

// compareSpec fetches the server's OpenAPI document where Java servers
// publish it, as specdiff does, and diffs it with the spec scm was built
// from.
func (a *app) compareSpec() doctor.SpecComparer {
	return func(ctx context.Context) (doctor.SpecComparison, error) {
		hc, err := a.documentClient()
		if err != nil {
			return doctor.SpecComparison{}, err
		}
		src, data, err := fetch.Fetcher{Headers: a.documentHeaders(), Client: hc}.Read(ctx, a.baseURL)
		if errors.Is(err, fetch.ErrNoDocument) {
			return doctor.SpecComparison{}, fmt.Errorf("%w at /v3/api-docs nor at the other places Java servers publish one (specdiff %s lists them)",
				doctor.ErrNoDocument, shownURL(a.baseURL))
		}
		if err != nil {
			return doctor.SpecComparison{}, err
		}
		return compareDocument(src, data)
	}
}

// compareDocument diffs a server's document with the embedded spec.
func compareDocument(src fetch.Source, data []byte) (doctor.SpecComparison, error) {
	spec, err := specdoc.Load("", fetch.DefaultMaxSize)
	if err == nil {
		err = spec.LoadOmissions("")
	}
	if err != nil {
		return doctor.SpecComparison{}, err
	}
	l, err := listing.Parse(src.Name, src.File, data, cmp.Or(src.Format, listing.FormatAuto))
	if err != nil {
		return doctor.SpecComparison{}, err
	}
	findings, err := diff.Listing(spec, l)
	return doctor.SpecComparison{Source: src.Name, Operations: len(l.Entries), Findings: findings}, err
}

// documentClient fetches the document with --ca-cert and
// --insecure-skip-verify, each URL within a minute.
func (a *app) documentClient() (*http.Client, error) {
	cfg, err := a.tlsConfig()
	if err != nil {
		return nil, err
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = cfg
	return &http.Client{Transport: t, Timeout: time.Minute}, nil
}

// documentHeaders send the key, as some servers want it for the document
// too, and scm's User-Agent.
func (a *app) documentHeaders() http.Header {
	key := a.apiKey
	if a.keyPrefix != "" {
		key = a.keyPrefix + " " + key
	}
	return http.Header{"Authorization": {key}, "User-Agent": {"scm/" + shortVersion()}}
}

// writeOverlay writes, to --overlay-out, the OpenAPI Overlay that changes
// the spec where the answers differed from it (specdiff overlay's), and
// says on standard error when there was nothing to change.
func (a *app) writeOverlay(path string, rep doctor.Report) error {
	if path == "" {
		return nil
	}
	if len(rep.Drift) == 0 {
		fmt.Fprintf(a.stderr, "scm doctor: the answers matched the spec: nothing to change, no overlay written to %s\n", path)
		return nil
	}
	var notes, text bytes.Buffer
	err := overlay.Run(overlay.Options{Out: "-", Files: []string{"-"}, Stdin: findingsJSON(rep.Drift), Stdout: &text, Notes: &notes,
		Source: fmt.Sprintf("scm doctor of %s on %s", hostOf(a.baseURL), time.Now().UTC().Format(time.DateOnly))})
	if err == nil {
		err = a.writeFile(path, func(w io.Writer) error {
			_, err := w.Write(text.Bytes())
			return err
		})
	}
	if err != nil {
		return fmt.Errorf("--overlay-out: %w", err)
	}
	fmt.Fprint(a.stderr, strings.ReplaceAll(notes.String(), "specdiff overlay:", "scm doctor --overlay-out:"))
	return nil
}

// findingsJSON is the drift as the JSON array specdiff overlay reads.
func findingsJSON(found []drift.Finding) io.Reader {
	b, _ := json.Marshal(append([]drift.Finding{}, found...)) // a slice of plain structs always marshals
	return bytes.NewReader(b)
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "the server"
	}
	return u.Host
}
