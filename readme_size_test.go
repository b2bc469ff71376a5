package scmgo_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README is a door, not the house: what it is, how to get it, a
// snippet, a CLI transcript early and a few lines per concern, each linking
// onward to docs/ or godoc. These bounds keep it so.
const (
	readmeMaxWords          = 3000 // words of the whole file, as wc -w counts them
	readmeMaxParagraphWords = 150  // words of one prose paragraph or list item
	readmeTranscriptByLine  = 120  // the line of the first "$ scm" command of a code block
)

// paragraph is a run of prose lines: a paragraph or a list item, outside
// code blocks, headings and tables.
type paragraph struct {
	line  int // its first line, counted from 1
	words int
}

// docShape is what TestREADMEIsADoor measures of a Markdown file.
type docShape struct {
	words           int
	paragraphs      []paragraph
	firstTranscript int // line of the first "$ scm " inside a code block; 0 when none
}

var listItem = regexp.MustCompile(`^(\s*[-*]|\s*\d+\.)\s`)

// measure reads the shape of a Markdown text.
func measure(text string) docShape {
	s := docShape{words: len(strings.Fields(text))}
	inCode := false
	var cur *paragraph
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			inCode, cur = !inCode, nil
		case inCode:
			if s.firstTranscript == 0 && strings.HasPrefix(trimmed, "$ scm ") {
				s.firstTranscript = i + 1
			}
		case trimmed == "" || strings.HasPrefix(trimmed, "#") || strings.HasPrefix(trimmed, "|"):
			cur = nil
		default:
			if cur == nil || listItem.MatchString(line) {
				s.paragraphs = append(s.paragraphs, paragraph{line: i + 1})
				cur = &s.paragraphs[len(s.paragraphs)-1]
			}
			cur.words += len(strings.Fields(listItem.ReplaceAllString(line, "")))
		}
	}
	return s
}

// median is the median of the paragraphs' words, 0 when there is none.
func (s docShape) median() int {
	var w []int
	for _, p := range s.paragraphs {
		w = append(w, p.words)
	}
	if len(w) == 0 {
		return 0
	}
	slices.Sort(w)
	return w[len(w)/2]
}

// longest is the paragraph with most words.
func (s docShape) longest() paragraph {
	var l paragraph
	for _, p := range s.paragraphs {
		if p.words > l.words {
			l = p
		}
	}
	return l
}

// TestREADMEIsADoor fails when the README grows past its bounds: more than
// readmeMaxWords words, a paragraph over readmeMaxParagraphWords, or its
// first scm transcript after line readmeTranscriptByLine. What does not fit
// belongs in docs/, CONTRIBUTING.md or a package's doc.go.
func TestREADMEIsADoor(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := measure(string(b))
	lines := strings.Count(string(b), "\n")
	t.Logf("README.md: %d words in %d lines, %d paragraphs, median %d words, longest %d words (line %d), first scm transcript at line %d",
		s.words, lines, len(s.paragraphs), s.median(), s.longest().words, s.longest().line, s.firstTranscript)
	if s.words > readmeMaxWords {
		t.Errorf("README.md has %d words, more than %d: move detail to docs/ or a package's doc.go and link to it", s.words, readmeMaxWords)
	}
	for _, p := range s.paragraphs {
		if p.words > readmeMaxParagraphWords {
			t.Errorf("README.md:%d: a paragraph of %d words, more than %d: split it, or move it to docs/", p.line, p.words, readmeMaxParagraphWords)
		}
	}
	switch {
	case s.firstTranscript == 0:
		t.Errorf("README.md has no scm transcript (a code block with a line starting \"$ scm \")")
	case s.firstTranscript > readmeTranscriptByLine:
		t.Errorf("README.md's first scm transcript is at line %d, after line %d: a command-line user must meet it early", s.firstTranscript, readmeTranscriptByLine)
	}
}

func TestMeasure(t *testing.T) {
	text := "# T\n\none two\nthree\n\n- a b\n  c\n- d\n\n| x | y |\n\n```console\n$ scm projects\nID\n```\nfour five six\n"
	s := measure(text)
	want := []paragraph{{3, 3}, {6, 3}, {8, 1}, {16, 3}}
	if !slices.Equal(s.paragraphs, want) || s.firstTranscript != 13 || s.words != 25 {
		t.Errorf("measure: %+v, transcript %d, words %d; want %+v, 13, 25", s.paragraphs, s.firstTranscript, s.words, want)
	}
	if s.median() != 3 || s.longest() != (paragraph{3, 3}) {
		t.Errorf("median %d, longest %+v", s.median(), s.longest())
	}
}
