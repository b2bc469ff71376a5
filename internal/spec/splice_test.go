package spec

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const spliceFixture = `# The fixture.
top: 1
model:
  type: object
  description: A long description that the file wraps over two lines, as a person
    would write it.
  required:
  - id
  - name

  properties:
    id: {type: integer, format: int64}
    name:
      type: string
      x-observed: seen
    tags: {type: array, items: {type: string}}
  enum: [A, B]
# The list, with a comment of its own.
list:
- name: first
  value: 1
- name: second
  value: 2
last: |
  text
  # not a comment
`

// at returns the node at a path of keys and indexes below the document.
func at(doc *yaml.Node, path ...string) *yaml.Node {
	n := doc.Content[0]
	for _, p := range path {
		if n.Kind == yaml.SequenceNode {
			var i int
			fmt.Sscan(p, &i)
			n = n.Content[i]
			continue
		}
		n = MappingValue(n, p)
	}
	return n
}

func scalar(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

func pair(k string, v *yaml.Node) []*yaml.Node { return []*yaml.Node{scalar(k), v} }

func removeKey(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func TestEditYAMLRewritesOnlyWhatChanged(t *testing.T) {
	tests := map[string]struct {
		edit func(doc *yaml.Node)
		want string // the fixture with these replacements, old => new, separated by ||
	}{
		"nothing": {func(*yaml.Node) {}, ""},
		"a key added to a block mapping": {func(d *yaml.Node) {
			props := at(d, "model", "properties")
			props.Content = append(props.Content, pair("extra", &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: pair("type", scalar("boolean"))})...)
		}, "    tags: {type: array, items: {type: string}}\n=>    tags: {type: array, items: {type: string}}\n    extra: {type: boolean}\n"},
		"a scalar of a block mapping": {func(d *yaml.Node) {
			at(d, "model", "properties", "name", "type").Value = "integer"
		}, "      type: string\n=>      type: integer\n"},
		"a key added to a flow mapping": {func(d *yaml.Node) {
			id := at(d, "model", "properties", "id")
			id.Content = append(id.Content, pair("nullable", scalar("true"))...)
		}, "{type: integer, format: int64}=>{type: integer, format: int64, nullable: true}"},
		"a flow mapping grown past 120 columns becomes a block": {func(d *yaml.Node) {
			id := at(d, "model", "properties", "id")
			id.Content = append(id.Content, pair("x-observed", scalar(strings.Repeat("seen ", 20)+"there"))...)
		}, "    id: {type: integer, format: int64}\n=>    id:\n      type: integer\n      format: int64\n      x-observed: " + strings.Repeat("seen ", 20) + "there\n"},
		"an item removed from a block sequence": {func(d *yaml.Node) {
			req := at(d, "model", "required")
			req.Content = req.Content[1:]
		}, "  - id\n=>"},
		"an item added to a flow sequence": {func(d *yaml.Node) {
			e := at(d, "model", "enum")
			e.Content = append(e.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "NO"})
		}, "[A, B]=>[A, B, 'NO']"},
		"an item added to a block sequence": {func(d *yaml.Node) {
			req := at(d, "model", "required")
			req.Content = append(req.Content, scalar("tags"))
		}, "  - name\n=>  - name\n  - tags\n"},
		"a key added to a sequence item": {func(d *yaml.Node) {
			item := at(d, "list", "0")
			item.Content = append(item.Content, pair("note", scalar("new"))...)
		}, "  value: 1\n=>  value: 1\n  note: new\n"},
		"the first key of a sequence item changed": {func(d *yaml.Node) {
			at(d, "list", "1", "name").Value = "2nd"
		}, "- name: second=>- name: 2nd"},
		"a key rewritten keeps its comment once": {func(d *yaml.Node) {
			l := MappingValue(d.Content[0], "list")
			*l = *scalar("none")
		}, "list:\n- name: first\n  value: 1\n- name: second\n  value: 2\n=>list: none\n"},
		"a key removed": {func(d *yaml.Node) {
			removeKey(at(d, "model", "properties", "name"), "x-observed")
		}, "      x-observed: seen\n=>"},
		"a key that holds a wrapped scalar rewritten": {func(d *yaml.Node) {
			at(d, "model", "description").Value = "Short."
		}, "  description: A long description that the file wraps over two lines, as a person\n    would write it.\n=>  description: Short.\n"},
		"a block scalar's last lines are its own": {func(d *yaml.Node) {
			d.Content[0].Content = append(d.Content[0].Content, pair("after", scalar("x"))...)
		}, "  # not a comment\n=>  # not a comment\nafter: x\n"},
		"a key added before the comment of the next": {func(d *yaml.Node) {
			at(d, "model").Content = append(at(d, "model").Content, pair("x-observed", scalar("probe"))...)
		}, "  enum: [A, B]\n=>  enum: [A, B]\n  x-observed: probe\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, whole, err := EditYAML("fixture", []byte(spliceFixture), func(doc *yaml.Node) error { tc.edit(doc); return nil })
			if err != nil || whole {
				t.Fatalf("whole document rewritten: %v; %v", whole, err)
			}
			want := spliceFixture
			for _, r := range strings.Split(tc.want, "||") {
				if r == "" {
					continue
				}
				old, nu, _ := strings.Cut(r, "=>")
				if strings.Count(want, old) != 1 {
					t.Fatalf("the case's %q is not once in the fixture", old)
				}
				want = strings.Replace(want, old, nu, 1)
			}
			if string(got) != want {
				t.Errorf("got:\n%s\nwant:\n%s", got, want)
			}
			assertSameTree(t, got, tc.edit)
		})
	}
}

// TestEditYAMLRewritesTheWholeDocumentWhenItMust: top-level keys swapped
// cannot be written line by line; the document is rewritten, in the
// spec's style, and says so.
func TestEditYAMLRewritesTheWholeDocumentWhenItMust(t *testing.T) {
	raw := "b: 1\na:\n- x\n"
	got, whole, err := EditYAML("swap", []byte(raw), func(doc *yaml.Node) error {
		c := doc.Content[0].Content
		c[0], c[1], c[2], c[3] = c[2], c[3], c[0], c[1]
		return nil
	})
	if err != nil || !whole || string(got) != "a:\n- x\nb: 1\n" {
		t.Errorf("got %q, whole %v, %v", got, whole, err)
	}
}

// assertSameTree checks that the spliced text reads as the edited tree.
func assertSameTree(t *testing.T, got []byte, edit func(*yaml.Node)) {
	t.Helper()
	var want, read yaml.Node
	if err := yaml.Unmarshal([]byte(spliceFixture), &want); err != nil {
		t.Fatal(err)
	}
	edit(&want)
	if err := yaml.Unmarshal(got, &read); err != nil {
		t.Fatalf("the result is not YAML: %v\n%s", err, got)
	}
	if !Equal(&want, &read) {
		t.Errorf("the result does not read as the edited tree:\n%s", got)
	}
}

// TestEditYAMLOfTheSpecKeepsEveryOtherLine makes random small edits of
// the kinds an overlay makes (a scalar changed, a key added or removed, an
// item added or removed) to api/openapi.yaml and checks that the result
// reads as the edited tree and that few lines changed.
func TestEditYAMLOfTheSpecKeepsEveryOtherLine(t *testing.T) {
	raw, err := os.ReadFile("../../api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	t.Parallel()
	var parsed yaml.Node
	if err := yaml.Unmarshal(raw, &parsed); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 10 {
		seed := rng.Uint64()
		edit := func(doc *yaml.Node) error { randomEdit(rand.New(rand.NewPCG(seed, 0)), doc); return nil }
		want := clone(&parsed)
		edit(want)
		got, whole, err := EditYAML("api/openapi.yaml", raw, edit)
		if err != nil || whole {
			t.Fatalf("edit %d (seed %d): whole document rewritten: %v; %v", i, seed, whole, err)
		}
		var read yaml.Node
		if err := yaml.Unmarshal(got, &read); err != nil || !Equal(want, &read) {
			t.Fatalf("edit %d (seed %d): the result does not read as the edited tree (%v)", i, seed, err)
		}
		// A flow collection over two lines that gets a key is written as a
		// block, an entry a line: ExperimentType's takes 14.
		if n := changedLines(string(raw), string(got)); n > 16 {
			t.Errorf("edit %d (seed %d): %d lines changed, want a few", i, seed, n)
		}
	}
}

// randomEdit makes one edit of a scalar entry at a random mapping or
// sequence of the tree: a value changed, a key added or removed, an item
// added or removed.
func randomEdit(rng *rand.Rand, doc *yaml.Node) {
	var nodes []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			nodes = append(nodes, n)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(doc.Content[0])
	n := nodes[rng.IntN(len(nodes))]
	var scalars []int // indexes of scalar values
	for i, c := range n.Content {
		if c.Kind == yaml.ScalarNode && (n.Kind == yaml.SequenceNode || i%2 == 1) {
			scalars = append(scalars, i)
		}
	}
	switch op := rng.IntN(3); {
	case op == 0 && len(scalars) > 0:
		n.Content[scalars[rng.IntN(len(scalars))]] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "NO"}
	case op == 1 && len(scalars) > 0 && len(n.Content) > 2:
		i := scalars[rng.IntN(len(scalars))]
		if n.Kind == yaml.MappingNode {
			n.Content = append(n.Content[:i-1], n.Content[i+1:]...)
		} else {
			n.Content = append(n.Content[:i], n.Content[i+1:]...)
		}
	case n.Kind == yaml.MappingNode:
		n.Content = append(n.Content, pair("x-added", scalar("value"))...)
	default:
		n.Content = append(n.Content, scalar("ADDED"))
	}
}

// changedLines counts the lines of a that are not in b plus those of b not
// in a, by multiset.
func changedLines(a, b string) int {
	count := map[string]int{}
	for _, l := range strings.Split(a, "\n") {
		count[l]++
	}
	for _, l := range strings.Split(b, "\n") {
		count[l]--
	}
	n := 0
	for _, c := range count {
		n += max(c, -c)
	}
	return n
}
