// Package api embeds the OpenAPI document of the remote interface, so that
// code which validates requests or responses against it (the fake server,
// the tests, specdiff) reads the one spec that gen/ was generated from.
//
// # Operations beyond the reference
//
// The tests check every operation of the spec against the reference's
// endpoint tables (reference_table_test.go). An operation the reference
// lacks is an addition: go test ./api -run TestSpecHasEveryReferenceOperation -v
// reports it as skipped, with the one JSON line that accepts it. Accepting
// it is data: that line appended to api/additions.jsonl, one line per
// operation (id, snake, tag, route, changesState, params, body and response,
// every field present), after which the operation is checked as the
// reference's rows are, so the line pins its shape.
package api
