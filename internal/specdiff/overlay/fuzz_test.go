package overlay

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/scmodel/scmgo/internal/spec"
	"github.com/scmodel/scmgo/internal/specdiff/specdoc"
)

// The fuzzers of what specdiff overlay reads: each must return an error on
// a malformed input, never panic.

// A findings file (a probe's report, or the SDK's drift report) never
// panics specdiff overlay, nor the planning of its changes to a spec.
func FuzzOverlayFindings(f *testing.F) {
	seed(f, filepath.Join(fixtures, "overlay", "drift.json"))
	for _, s := range []string{"", "[]", "{}", "[null]", `{"command":"probe","results":[null]}`, `{"command":"probe","results":[{"findings":[null]}]}`,
		`[{"kind":"probe-unknown-field","operation":"getProjects","path":"Project.a[].b","model":"Project","property":"a[].b","jsonType":"object"}]`,
		`[{"kind":"probe-enum","operation":"getProjects","path":"Project.state","model":"Project","property":"state","value":{"a":1}}]`,
		`[{"kind":"probe-renamed","path":"Project..","model":"Project","property":".","renamedTo":""}]`,
		`[{"kind":"probe-null","operation":"getOptions","path":"getOptions 200 response[]","jsonType":"null"}]`} {
		f.Add([]byte(s))
	}
	top := overlayTop(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		ff, err := readFindings(input{stdin: bytes.NewReader(data)}, "-")
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
	d, err := specdoc.Read(overlaySpec, 0)
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
		_, _, _ = applyOverlay(input{stdin: bytes.NewReader(data)}, overlaySpec, "-")
	})
}
