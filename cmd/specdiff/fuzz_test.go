package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/scmodel/scmgo/internal/specdiff/specdoc"

	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/internal/spec"
)

// The fuzzers of the readers of what a user or a server gives specdiff:
// each must return an error on a malformed input, never panic. Those of
// the listings (plain, Markdown, OpenAPI, Swagger) are in package listing.

// A findings file (a probe's report, or the SDK's drift report) never
// panics specdiff overlay, nor the planning of its changes to a spec.
func FuzzOverlayFindings(f *testing.F) {
	seed(f, "testdata/overlay/drift.json")
	for _, s := range []string{"", "[]", "{}", "[null]", `{"command":"probe","results":[null]}`, `{"command":"probe","results":[{"findings":[null]}]}`,
		`[{"kind":"probe-unknown-field","operation":"getProjects","path":"Project.a[].b","model":"Project","property":"a[].b","jsonType":"object"}]`,
		`[{"kind":"probe-enum","operation":"getProjects","path":"Project.state","model":"Project","property":"state","value":{"a":1}}]`,
		`[{"kind":"probe-renamed","path":"Project..","model":"Project","property":".","renamedTo":""}]`,
		`[{"kind":"probe-null","operation":"getOptions","path":"getOptions 200 response[]","jsonType":"null"}]`} {
		f.Add([]byte(s))
	}
	top := overlayTop(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		e := env{stdin: bytes.NewReader(data), stdout: io.Discard, stderr: io.Discard}
		ff, err := readFindings(e, "-")
		if err != nil {
			return
		}
		plan := newOverlayPlan(&specTree{top: cloneNode(top)})
		for _, fd := range ff.findings {
			plan.add(fd)
		}
		for _, a := range plan.actions("fuzz") {
			if _, err := yaml.Marshal(a); err != nil {
				t.Fatalf("an action does not marshal: %v", err)
			}
		}
	})
}

// seed adds the files named to the fuzzer's corpus.
func seed(f *testing.F, files ...string) {
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// overlayTop is the parsed overlay test spec.
func overlayTop(tb testing.TB) *yaml.Node {
	d, err := specdoc.Read(overlaySpec)
	if err != nil {
		tb.Fatal(err)
	}
	top, err := spec.ParseYAML(d.Name, d.Data)
	if err != nil {
		tb.Fatal(err)
	}
	return top
}

// cloneNode copies a YAML tree, so that each input plans on a fresh one.
func cloneNode(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, child := range n.Content {
		c.Content[i] = cloneNode(child)
	}
	return &c
}

// An overlay document never panics specdiff overlay apply: a malformed
// one, or one whose actions match nothing, is an error.
func FuzzApplyOverlay(f *testing.F) {
	for _, s := range []string{"", "overlay: 1.1.0\n", "overlay: 1.1.0\ninfo: {title: t, version: 1}\nactions: [null]\n",
		"overlay: 1.1.0\ninfo: {title: t, version: 1.0.0}\nactions:\n- target: $.components.schemas.Project.properties\n  update: {extra: {type: string}}\n",
		"overlay: 1.1.0\ninfo: {title: t, version: 1.0.0}\nactions:\n- target: $.paths['/open/options'].get\n  remove: true\n",
		"overlay: 1.1.0\ninfo: {title: t, version: 1.0.0}\nactions:\n- target: $..[?(@.type=='object')]\n  update: null\n",
		"overlay: 1.0.0\ninfo: {title: t, version: 1.0.0}\nactions:\n- target: '$['\n  update: {}\n",
		"overlay: 1.1.0\ninfo: {title: t, version: 1.0.0}\nactions:\n- target: $.info\n  copy: $.paths\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e := env{stdin: bytes.NewReader(data), stdout: io.Discard, stderr: io.Discard}
		_, _, _ = applyOverlay(e, overlaySpec, "-")
	})
}

// probeSpec is the repository's spec, loaded once for the probe fuzzer.
var probeSpec = sync.OnceValues(func() (*specdoc.Spec, error) { return specdoc.Load("") })

// An answer of a server never panics the probe's check of it against the
// spec, whatever the operation, status and body. The first byte picks the
// operation, the second the status.
func FuzzProbeAnswer(f *testing.F) {
	for _, s := range []string{"\x00\x00[]", "\x01\x00{}", "\x02\x00null", "\x03\x00{\"items\":[{\"id\":\"x\"}],\"total\":-1}",
		"\x04\x01{\"message\":1}", "\x05\x00[[[[[[[[[[]]]]]]]]]]", "\x06\x00{\"a\":" + strings.Repeat("[", 100) + "}", "\x07\x02"} {
		f.Add([]byte(s))
	}
	s, err := probeSpec()
	if err != nil {
		f.Fatal(err)
	}
	statuses := []int{200, 400, 500, 204, 404, 201, 302, 503}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		i := int(data[0]) % len(s.Ops)
		op := s.Ops[i]
		p := newProber(s, nil, nil, nil, probeLimits{maxCalls: 1, items: 3})
		req := httptest.NewRequest(op.Method, "http://scm.example"+op.Path, nil)
		a := &answer{req: req, status: statuses[int(data[1])%len(statuses)],
			header: http.Header{"Content-Type": {"application/json"}}, body: data[2:]}
		p.check(call{op: i}, a)
	})
}
