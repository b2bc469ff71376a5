package spec

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// EditYAML parses raw, a YAML document, lets edit change its node tree (the
// document node), and returns raw with the changes written into it: only the
// lines of what changed are rewritten, so the rest keeps its layout, quoting,
// line breaks and comments. Keys added to a block mapping and items added to
// a block sequence go after its last entry, at its indentation; an entry
// removed from one takes its lines with it; anything else that changed (a
// scalar, a flow collection) is rewritten as its key's or item's whole entry,
// in the style the tree gives it, with a flow collection written as a block
// where its line would pass 120 columns. A change the lines cannot hold (the
// top-level keys reordered, say) rewrites the whole document, and whole
// says so. name says where raw came from in errors.
func EditYAML(name string, raw []byte, edit func(doc *yaml.Node) error) (out []byte, whole bool, err error) {
	var before yaml.Node
	if err := yaml.Unmarshal(raw, &before); err != nil {
		return nil, false, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(before.Content) == 0 {
		return nil, false, fmt.Errorf("reading %s: empty document", name)
	}
	after := clone(&before)
	if err := edit(after); err != nil {
		return nil, false, err
	}
	if len(after.Content) != 1 {
		return nil, false, fmt.Errorf("%s: the edit left %d documents, want 1", name, len(after.Content))
	}
	s := newSplicer(raw)
	if Equal(before.Content[0], after.Content[0]) || s.mapping(before.Content[0], after.Content[0], s.lastLine()) {
		return s.apply(), false, nil
	}
	text, err := renderDocument(after)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err)
	}
	return []byte(text), true, nil
}

// splicer collects the text edits that turn a document's lines into those
// of its changed tree.
type splicer struct {
	raw   []byte
	lines []string // without their line ends
	start []int    // byte offset of each line; line n (from 1) is start[n-1]
	edits []textEdit
}

// textEdit replaces raw[from:to] with text. Edits at the same offset are
// applied latest first, so the first recorded comes first in the result.
type textEdit struct {
	from, to int
	text     string
	seq      int
}

func newSplicer(raw []byte) *splicer {
	s := &splicer{raw: raw}
	off := 0
	for off < len(raw) || off == 0 {
		s.start = append(s.start, off)
		i := bytes.IndexByte(raw[off:], '\n')
		if i < 0 {
			s.lines = append(s.lines, strings.TrimSuffix(string(raw[off:]), "\r"))
			break
		}
		s.lines = append(s.lines, strings.TrimSuffix(string(raw[off:off+i]), "\r"))
		off += i + 1
	}
	return s
}

// lastLine is the last line that is not blank or a comment at column 1.
func (s *splicer) lastLine() int {
	return s.trimEnd(1, len(s.lines), 0)
}

// lineEnd is the offset just past line n and its line end.
func (s *splicer) lineEnd(n int) int {
	if n < len(s.start) {
		return s.start[n]
	}
	return len(s.raw)
}

// offset is the byte offset of a node's line and column (columns count
// characters, from 1).
func (s *splicer) offset(line, col int) int {
	l, off := s.lines[line-1], 0
	for i := 1; i < col && off < len(l); i++ {
		_, size := utf8.DecodeRuneInString(l[off:])
		off += size
	}
	return s.start[line-1] + off
}

// startsLine reports whether only spaces come before column col of line.
func (s *splicer) startsLine(line, col int) bool {
	l := s.lines[line-1]
	return col-1 <= len(l) && strings.TrimLeft(l[:col-1], " ") == ""
}

// trimEnd is the last line of from..to that is not blank nor a comment
// indented by at most indent spaces: such comments belong to what follows.
// (A block scalar's lines are indented deeper than its key, so none of
// them is taken for such a comment.)
func (s *splicer) trimEnd(from, to, indent int) int {
	for to > from {
		l := s.lines[to-1]
		t := strings.TrimLeft(l, " ")
		comment := strings.HasPrefix(t, "#") && len(l)-len(t) <= indent
		if strings.TrimSpace(t) != "" && !comment {
			break
		}
		to--
	}
	return to
}

func (s *splicer) add(from, to int, text string) {
	s.edits = append(s.edits, textEdit{from: from, to: to, text: text, seq: len(s.edits)})
}

func (s *splicer) apply() []byte {
	slices.SortFunc(s.edits, func(x, y textEdit) int {
		if x.from != y.from {
			return y.from - x.from
		}
		return y.seq - x.seq
	})
	out := slices.Clone(s.raw)
	for _, e := range s.edits {
		out = slices.Concat(out[:e.from], []byte(e.text), out[e.to:])
	}
	return out
}

func isBlock(n *yaml.Node) bool { return n.Style&yaml.FlowStyle == 0 }

// entry is the value of a block mapping's pair or a block sequence's item,
// with where its text is.
type entry struct {
	key        *yaml.Node // nil for an item
	value      *yaml.Node
	line, col  int // where the key, or the item's dash, is
	last       int // its last line
	startsLine bool
}

// pairs are the entries of block mapping m whose text ends at line end.
func (s *splicer) pairs(m *yaml.Node, end int) []entry {
	var out []entry
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		out = append(out, entry{key: k, value: m.Content[i+1], line: k.Line, col: k.Column, startsLine: s.startsLine(k.Line, k.Column)})
	}
	s.ends(out, end)
	return out
}

// items are the entries of block sequence q whose text ends at line end;
// ok is false when an item's dash is not on its first line.
func (s *splicer) items(q *yaml.Node, end int) ([]entry, bool) {
	var out []entry
	for _, n := range q.Content {
		l := s.lines[n.Line-1]
		off := s.offset(n.Line, n.Column) - s.start[n.Line-1]
		dash := strings.LastIndexByte(strings.TrimRight(l[:off], " "), '-')
		if dash < 0 || strings.TrimRight(l[:off], " ") != l[:dash+1] {
			return nil, false
		}
		col := utf8.RuneCountInString(l[:dash]) + 1
		out = append(out, entry{value: n, line: n.Line, col: col, startsLine: s.startsLine(n.Line, col)})
	}
	s.ends(out, end)
	return out, true
}

// ends sets the last line of each entry: the line before the next one
// starts, or end, less trailing blank lines and shallower comments.
func (s *splicer) ends(es []entry, end int) {
	for i := range es {
		next := end
		if i+1 < len(es) {
			next = es[i+1].line - 1
		}
		es[i].last = s.trimEnd(es[i].line, next, es[i].col-1)
	}
}

// mapping records the edits that turn block mapping a, whose text ends at
// line end, into b. It reports false, recording nothing, when a is not a
// non-empty block mapping or b cannot be reached by editing its entries:
// keys reordered, new keys before old ones, a first key removed that shares
// its line with a dash, nothing left.
func (s *splicer) mapping(a, b *yaml.Node, end int) bool {
	if a.Kind != yaml.MappingNode || b.Kind != yaml.MappingNode || !isBlock(a) || len(a.Content) == 0 || len(b.Content) == 0 {
		return false
	}
	es := s.pairs(a, end)
	inB := map[string]int{}
	for i := 0; i+1 < len(b.Content); i += 2 {
		inB[b.Content[i].Value] = i
	}
	prev, kept := -1, 0
	for _, e := range es {
		j, ok := inB[e.key.Value]
		switch {
		case !ok && !e.startsLine:
			return false
		case !ok:
			continue
		case j < prev:
			return false
		}
		prev, kept = j, kept+1
		delete(inB, e.key.Value)
	}
	if kept > 0 && (len(b.Content)/2-kept) > 0 && prev/2 != kept-1 {
		return false // new keys between old ones
	}
	return s.editPairs(es, b)
}

func (s *splicer) editPairs(es []entry, b *yaml.Node) bool {
	for _, e := range es {
		bv := MappingValue(b, e.key.Value)
		if bv == nil {
			s.add(s.start[e.line-1], s.lineEnd(e.last), "")
			continue
		}
		s.value(e, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{keyOf(b, e.key.Value), bv}})
	}
	var added []*yaml.Node
	old := map[string]bool{}
	for _, e := range es {
		old[e.key.Value] = true
	}
	for i := 0; i+1 < len(b.Content); i += 2 {
		if !old[b.Content[i].Value] {
			added = append(added, b.Content[i], b.Content[i+1])
		}
	}
	if len(added) > 0 {
		last := es[len(es)-1]
		at := s.lineEnd(last.last)
		s.add(at, at, ensureNewline(s.raw[:at])+render(&yaml.Node{Kind: yaml.MappingNode, Content: added}, last.col-1, true))
	}
	return true
}

// sequence records the edits that turn block sequence a, whose text ends at
// line end, into b: items removed, changed in place, and added at the end.
func (s *splicer) sequence(a, b *yaml.Node, end int) bool {
	if a.Kind != yaml.SequenceNode || b.Kind != yaml.SequenceNode || !isBlock(a) || len(a.Content) == 0 || len(b.Content) == 0 {
		return false
	}
	es, ok := s.items(a, end)
	if !ok {
		return false
	}
	plan, ok := s.planItems(es, b.Content)
	if !ok {
		return false
	}
	for i, e := range es {
		switch {
		case plan[i] < 0:
			s.add(s.start[e.line-1], s.lineEnd(e.last), "")
		default:
			s.value(e, &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{b.Content[plan[i]]}})
		}
	}
	if n := lastPlanned(plan); n+1 < len(b.Content) {
		last := es[len(es)-1]
		at := s.lineEnd(last.last)
		s.add(at, at, ensureNewline(s.raw[:at])+render(&yaml.Node{Kind: yaml.SequenceNode, Content: b.Content[n+1:]}, last.col-1, true))
	}
	return true
}

// planItems pairs each old item with the new item it becomes (-1: removed),
// in order: equal items pair up, an item is removed while more old than new
// items are left, else it becomes the next new item.
func (s *splicer) planItems(es []entry, bs []*yaml.Node) ([]int, bool) {
	plan := make([]int, len(es))
	j := 0
	for i, e := range es {
		switch {
		case j < len(bs) && Equal(e.value, bs[j]):
			plan[i], j = j, j+1
		case len(es)-i > len(bs)-j:
			if !e.startsLine {
				return nil, false
			}
			plan[i] = -1
		default:
			plan[i], j = j, j+1
		}
	}
	return plan, true
}

func lastPlanned(plan []int) int {
	n := -1
	for _, j := range plan {
		n = max(n, j)
	}
	return n
}

// value records the edits that turn entry e into the entry whole (a
// one-pair mapping or one-item sequence): nothing when equal, edits inside
// a block collection where they can be made, else the entry rewritten.
func (s *splicer) value(e entry, whole *yaml.Node) {
	bv := whole.Content[len(whole.Content)-1]
	switch {
	case Equal(e.value, bv):
		return
	case s.mapping(e.value, bv, e.last), s.sequence(e.value, bv, e.last):
		return
	}
	from := s.offset(e.line, e.col)
	s.add(from, s.lineEnd(e.last), render(whole, e.col-1, false))
}

func keyOf(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

// ensureNewline is the line end to write before an insertion after text:
// none when text ends a line (or is empty).
func ensureNewline(text []byte) string {
	if len(text) == 0 || text[len(text)-1] == '\n' {
		return ""
	}
	return "\n"
}

// Equal reports whether two YAML nodes hold the same data: kinds, resolved
// tags, values and content in order, whatever their style, comments and
// places.
func Equal(a, b *yaml.Node) bool {
	switch {
	case a == b:
		return true
	case a == nil || b == nil:
		return false
	case a.Kind == yaml.AliasNode || b.Kind == yaml.AliasNode:
		return a.Kind == b.Kind && Equal(a.Alias, b.Alias)
	case a.Kind != b.Kind || len(a.Content) != len(b.Content):
		return false
	case a.Kind == yaml.ScalarNode && (a.Value != b.Value || a.ShortTag() != b.ShortTag()):
		return false
	}
	for i := range a.Content {
		if !Equal(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}
