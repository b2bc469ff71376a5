package main

import (
	"io"
	"sync"

	"github.com/scmodel/scmgo/facade"
	"github.com/scmodel/scmgo/resultdata"
)

// redactedStream is standard output or standard error as scm writes them:
// from the moment a client is made, every byte goes through the client's
// facade.Redactor, so no spelling of the key that the client's errors and
// logs hide (in any case, escaped, hex, base64) is printed, whatever
// command prints it: tables, JSON, CSV, notes, errors, progress. It
// serialises writes (progress and stop notices write from other
// goroutines). What waits for the rest of a spelling is written by Flush,
// when the command ends.
type redactedStream struct {
	mu  sync.Mutex
	raw io.Writer
	rw  *facade.RedactingWriter // nil until a client is made
}

func (s *redactedStream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rw == nil {
		return s.raw.Write(p)
	}
	return s.rw.Write(p)
}

// redactWith makes the stream remove r's secrets from then on.
func (s *redactedStream) redactWith(r *facade.Redactor) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rw != nil {
		_ = s.rw.Flush()
	}
	s.rw = r.NewWriter(s.raw)
}

// redactWithOnce makes the stream remove r's secrets, unless it does
// already.
func (s *redactedStream) redactWithOnce(r *facade.Redactor) {
	s.mu.Lock()
	done := s.rw != nil
	s.mu.Unlock()
	if !done {
		s.redactWith(r)
	}
}

// Flush writes what waits for the rest of a spelling.
func (s *redactedStream) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rw == nil {
		return nil
	}
	return s.rw.Flush()
}

// binary returns the stream for a binary output, after writing what
// waits: a workbook or a Parquet file is written as it is, since replacing
// bytes within it would corrupt it.
func (s *redactedStream) binary() io.Writer {
	_ = s.Flush()
	return s.raw
}

// redactWith makes standard output and standard error remove the
// client's secrets, and keeps its Redactor for the text files scm writes.
func (a *app) redactWith(c *facade.Client) {
	r := c.Redactor()
	if r == nil {
		return
	}
	a.redactor = r
	for _, w := range []io.Writer{a.stdout, a.stderr} {
		if s, ok := w.(*redactedStream); ok {
			s.redactWith(r)
		}
	}
}

// binaryStdout is standard output for a binary output (-o - of a workbook
// or of Parquet): as it is, after what the text before it left waiting.
func (a *app) binaryStdout() io.Writer {
	if s, ok := a.stdout.(*redactedStream); ok {
		return s.binary()
	}
	return a.stdout
}

// flushStreams writes what waits on standard output and standard error.
func (a *app) flushStreams() {
	for _, w := range []io.Writer{a.stdout, a.stderr} {
		if s, ok := w.(*redactedStream); ok {
			_ = s.Flush()
		}
	}
}

// redactedText is w for a text file scm writes (CSV, JSON Lines, a JSON
// answer): through the client's Redactor, as standard output is; flush
// writes what waits, before the file is closed.
func (a *app) redactedText(w io.Writer) (out io.Writer, flush func() error) {
	if a.redactor == nil {
		return w, func() error { return nil }
	}
	rw := a.redactor.NewWriter(w)
	return rw, rw.Flush
}

// redactedRows is a row writer of a text format (newWriter) writing to w
// through the client's Redactor; its Close flushes what waits.
func (a *app) redactedRows(w io.Writer, newWriter func(io.Writer) resultdata.RowWriter) resultdata.RowWriter {
	out, flush := a.redactedText(w)
	return flushedRows{RowWriter: newWriter(out), flush: flush}
}

// flushedRows is a RowWriter whose Close flushes the writer under it.
type flushedRows struct {
	resultdata.RowWriter
	flush func() error
}

func (f flushedRows) Close() error {
	if err := f.RowWriter.Close(); err != nil {
		return err
	}
	return f.flush()
}
