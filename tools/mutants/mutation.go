package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// Mutation is a bug written as an edit of one file, and the tests that
// must catch it.
type Mutation struct {
	Name   string // unique; what -only matches
	Breaks string // what the edit breaks, in a few words
	File   string // the file edited, relative to the module root, with slashes
	Old    string // the text replaced: it must occur in File exactly once
	New    string // what replaces it
	Pkg    string // the package whose tests must catch it, as go test takes it (./facade)
	Run    string // go test's -run expression: the narrowest tests that catch it
}

// checkTable reports the first mistake of a table: a name that is empty
// or used twice, an edit that changes nothing, a field left empty, a -run
// expression that does not compile.
func checkTable(table []Mutation) error {
	seen := map[string]bool{}
	for i, m := range table {
		switch {
		case m.Name == "":
			return fmt.Errorf("mutation %d has no name", i)
		case seen[m.Name]:
			return fmt.Errorf("mutation %s: the name is used twice", m.Name)
		case m.File == "" || m.Pkg == "" || m.Run == "" || m.Old == "":
			return fmt.Errorf("mutation %s: File, Pkg, Run and Old must all be set", m.Name)
		case m.Old == m.New:
			return fmt.Errorf("mutation %s: New is Old: the edit changes nothing", m.Name)
		}
		if _, err := regexp.Compile(m.Run); err != nil {
			return fmt.Errorf("mutation %s: -run %q: %w", m.Name, m.Run, err)
		}
		seen[m.Name] = true
	}
	return nil
}

// staleError is a mutation whose Old text is not in its file exactly
// once.
type staleError struct {
	file  string
	count int
}

func (e *staleError) Error() string {
	if e.count == 0 {
		return "the text to replace is not in " + e.file
	}
	return fmt.Sprintf("the text to replace is in %s %d times, not once", e.file, e.count)
}

// mutated returns the content of the mutation's file with the edit made,
// and the original content; a *staleError when Old is not in it exactly
// once.
func mutated(root string, m Mutation) (edited, orig []byte, err error) {
	orig, err = os.ReadFile(filepath.Join(root, filepath.FromSlash(m.File)))
	if err != nil {
		return nil, nil, err
	}
	if n := bytes.Count(orig, []byte(m.Old)); n != 1 {
		return nil, nil, &staleError{file: m.File, count: n}
	}
	return bytes.Replace(orig, []byte(m.Old), []byte(m.New), 1), orig, nil
}

// edit is a mutation applied to its file.
type edit struct {
	path    string // absolute
	orig    []byte
	journal string // the journal's path
}

// apply makes the mutation's edit: the original goes to the journal
// first, so a run killed outright can be undone by the next.
func apply(root string, m Mutation) (*edit, error) {
	journal := journalPath(root)
	if _, err := os.Lstat(journal); err == nil {
		return nil, errJournal(journal)
	}
	edited, orig, err := mutated(root, m)
	if err != nil {
		return nil, err
	}
	e := &edit{path: filepath.Join(root, filepath.FromSlash(m.File)), orig: orig, journal: journal}
	if err := writeJournal(e.journal, m.File, orig); err != nil {
		return nil, err
	}
	if err := writeInPlace(e.path, edited); err != nil {
		return nil, errors.Join(err, e.restore())
	}
	return e, nil
}

// restore puts the original bytes back, reads them back to check, and
// then removes the journal.
func (e *edit) restore() error {
	if err := writeInPlace(e.path, e.orig); err != nil {
		return fmt.Errorf("restoring %s: %w (the original is in %s)", e.path, err, e.journal)
	}
	back, err := os.ReadFile(e.path)
	if err != nil || !bytes.Equal(back, e.orig) {
		return fmt.Errorf("restoring %s: the file read back is not the original (%v); the original is in %s", e.path, err, e.journal)
	}
	return os.Remove(e.journal)
}

// writeInPlace replaces the content of the file at path, keeping the file
// (its mode and its inode), and syncs it.
func writeInPlace(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	return errors.Join(err, f.Sync(), f.Close())
}
