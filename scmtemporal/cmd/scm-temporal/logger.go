package main

import (
	"fmt"
	"io"
)

// quietLogger is the Temporal SDK's logger: warnings and errors to
// stderr, the rest dropped.
type quietLogger struct{ w io.Writer }

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (l quietLogger) Warn(msg string, kv ...any) {
	fmt.Fprintln(l.w, append([]any{"temporal: WARN", msg}, kv...)...)
}
func (l quietLogger) Error(msg string, kv ...any) {
	fmt.Fprintln(l.w, append([]any{"temporal: ERROR", msg}, kv...)...)
}
