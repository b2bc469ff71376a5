package spec

import (
	"bytes"
	"strings"

	yamlin "go.yaml.in/yaml/v3"
	"gopkg.in/yaml.v3"
)

// maxWidth is the widest line the spec's hand-written layout keeps to; a
// flow collection that would pass it is written as a block.
const maxWidth = 120

// render writes n (a mapping or sequence) as the spec writes YAML: two
// spaces, a sequence's dashes at its key's indentation. Every line but the
// first gets indent spaces; the first too when indentFirst. The head
// comment of a rewritten entry stays where it is in the file, so it is not
// written again.
func render(n *yaml.Node, indent int, indentFirst bool) string {
	n = clone(n)
	if !indentFirst && len(n.Content) > 0 {
		n.Content[0].HeadComment = ""
	}
	text := encode(n)
	for range 8 {
		long := longLines(text, indent)
		if len(long) == 0 || !blockLongFlows(n, text, long) {
			break
		}
		text = encode(n)
	}
	return indentText(text, indent, indentFirst)
}

// renderDocument writes a whole document as render does.
func renderDocument(doc *yaml.Node) (string, error) {
	var b bytes.Buffer
	enc := yamlin.NewEncoder(&b)
	enc.SetIndent(2)
	enc.CompactSeqIndent()
	if err := enc.Encode(toYAMLIn(doc, map[*yaml.Node]*yamlin.Node{})); err != nil {
		return "", err
	}
	return b.String(), enc.Close()
}

func encode(n *yaml.Node) string {
	text, err := renderDocument(n)
	if err != nil {
		// The node came from parsing YAML or from an overlay's YAML, so it
		// encodes; a failure is a bug worth seeing in the output.
		return "# cannot write: " + err.Error() + "\n"
	}
	return text
}

// longLines are the lines (from 1) of text wider than maxWidth once
// indented.
func longLines(text string, indent int) map[int]bool {
	long := map[int]bool{}
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if indent+len([]rune(l)) > maxWidth {
			long[i+1] = true
		}
	}
	return long
}

// blockLongFlows makes block every outermost flow collection of n that
// text, n written out, puts on a long line. It reports whether it changed
// any.
func blockLongFlows(n *yaml.Node, text string, long map[int]bool) bool {
	var written yaml.Node
	if yaml.Unmarshal([]byte(text), &written) != nil || len(written.Content) == 0 {
		return false
	}
	return blockFlows(n, written.Content[0], long)
}

func blockFlows(n, w *yaml.Node, long map[int]bool) bool {
	if n.Kind != w.Kind || len(n.Content) != len(w.Content) {
		return false
	}
	if n.Kind != yaml.ScalarNode && !isBlock(n) && long[w.Line] {
		n.Style &^= yaml.FlowStyle
		return true
	}
	changed := false
	for i := range n.Content {
		changed = blockFlows(n.Content[i], w.Content[i], long) || changed
	}
	return changed
}

func indentText(text string, indent int, indentFirst bool) string {
	pad := strings.Repeat(" ", indent)
	lines := strings.SplitAfter(text, "\n")
	var b strings.Builder
	for i, l := range lines {
		if l == "" {
			continue
		}
		if (i > 0 || indentFirst) && l != "\n" {
			b.WriteString(pad)
		}
		b.WriteString(l)
	}
	return b.String()
}

// clone is a deep copy of a node tree; aliases point into the copy.
func clone(n *yaml.Node) *yaml.Node {
	return cloneWith(n, map[*yaml.Node]*yaml.Node{})
}

func cloneWith(n *yaml.Node, done map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if c, ok := done[n]; ok {
		return c
	}
	c := *n
	done[n] = &c
	c.Alias = cloneWith(n.Alias, done)
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, sub := range n.Content {
		c.Content[i] = cloneWith(sub, done)
	}
	return &c
}

// toYAMLIn converts a node tree to go.yaml.in/yaml/v3, the maintained fork
// of gopkg.in/yaml.v3 whose encoder can indent sequences as the spec does.
// The two node types have the same fields and constants.
func toYAMLIn(n *yaml.Node, done map[*yaml.Node]*yamlin.Node) *yamlin.Node {
	if n == nil {
		return nil
	}
	if c, ok := done[n]; ok {
		return c
	}
	c := &yamlin.Node{
		Kind: yamlin.Kind(n.Kind), Style: yamlin.Style(n.Style), Tag: n.Tag, Value: n.Value, Anchor: n.Anchor,
		HeadComment: n.HeadComment, LineComment: n.LineComment, FootComment: n.FootComment, Line: n.Line, Column: n.Column,
	}
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.ShortTag() == "!!str" && isOldBool(n.Value) {
		c.Style = yamlin.SingleQuotedStyle // YAML 1.1 readers would take it for a boolean
	}
	done[n] = c
	c.Alias = toYAMLIn(n.Alias, done)
	for _, sub := range n.Content {
		c.Content = append(c.Content, toYAMLIn(sub, done))
	}
	return c
}

// isOldBool reports whether YAML 1.1 reads s as a boolean.
func isOldBool(s string) bool {
	switch strings.ToLower(s) {
	case "y", "yes", "n", "no", "on", "off":
		return true
	}
	return false
}
