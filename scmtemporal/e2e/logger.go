package main

import (
	"fmt"
	"os"
)

// quietLogger is the Temporal SDK's logger for the harness and its
// workers: warnings and errors to stderr (the process's log file), the rest
// dropped.
type quietLogger struct{}

func (quietLogger) Debug(string, ...any) {}
func (quietLogger) Info(string, ...any)  {}
func (quietLogger) Warn(msg string, kv ...any) {
	fmt.Fprintln(os.Stderr, append([]any{"WARN", msg}, kv...)...)
}
func (quietLogger) Error(msg string, kv ...any) {
	fmt.Fprintln(os.Stderr, append([]any{"ERROR", msg}, kv...)...)
}
