package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The journal holds the original of the file a mutation edits while its
// tests run: a header line naming the file, then the file's bytes.
const (
	journalName   = ".mutants-journal"
	journalHeader = "mutants journal: "
)

func journalPath(root string) string { return filepath.Join(root, journalName) }

// writeJournal records orig as the original of the file at rel, synced
// before the file is edited.
func writeJournal(path, rel string, orig []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return errJournal(path)
	}
	if err != nil {
		return err
	}
	_, err = f.Write(append([]byte(journalHeader+rel+"\n"), orig...))
	return errors.Join(err, f.Sync(), f.Close())
}

// errJournal: a journal is there, so a file may be edited.
func errJournal(path string) error {
	return fmt.Errorf("%s exists: another run is editing a file, or one was killed (run again to restore its file)", path)
}

// recoverJournal restores the file a killed run left edited, from the
// journal at root, and removes the journal. It returns the file restored,
// "" when there was no journal.
func recoverJournal(root string) (string, error) {
	path := journalPath(root)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	head, orig, ok := bytes.Cut(b, []byte("\n"))
	rel, ok2 := strings.CutPrefix(string(head), journalHeader)
	if !ok || !ok2 || rel == "" || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", fmt.Errorf("%s is not a journal this tool wrote; remove it once the tree is as it should be", path)
	}
	e := &edit{path: filepath.Join(root, filepath.FromSlash(rel)), orig: orig, journal: path}
	return rel, e.restore()
}
