// Command scm-fake serves the fake modelling server on real time, for demos
// and manual tests of clients.
//
//	go run ./cmd/scm-fake --addr 127.0.0.1:8080
//	go run ./cmd/scm-fake --tls --tls-cert-out fake-ca.pem --log
//
// It prints the base URL (ending in /api/v1), the API key (scm-demo-key
// unless --key says otherwise) and the URL of its OpenAPI document
// (/v3/api-docs, and /v3/api-docs.yaml, served without a key, where Java
// servers publish theirs). --log writes a line per request to standard
// error: operation, status, duration. --tls serves HTTPS with a
// self-signed certificate for 127.0.0.1 and localhost, written as PEM to
// the --tls-cert-out file for clients to trust (scm --ca-cert FILE,
// specdiff -ca-cert FILE). The flags, their defaults and the serve loop
// are fake.DevServer's, shared with scm serve-fake, and written --name as
// there (Go's flag package takes -name too).
package main
