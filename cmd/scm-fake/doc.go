// Command scm-fake serves the fake modelling server on real time, for demos
// and manual tests of clients.
//
//	go run ./cmd/scm-fake -addr 127.0.0.1:8080
//
// It prints the base URL (ending in /api/v1) and a demo API key.
package main
