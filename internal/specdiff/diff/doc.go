// Package diff is specdiff's default command: it compares published
// listings with the spec and reports each difference once.
//
// # Operations
//
// [Listing] matches a listing's entries with the spec's operations by name
// in either style (operationId or x-snake-case-name), then by method and
// path, and reports spec operations the listing lacks (missing-in-listing,
// or known-omission for the reviewed ones), entries the spec lacks, names
// listed twice, and method, path or name mismatches. For an OpenAPI
// listing it compares each matched operation's parameters, media types
// and security too (details.go).
//
// # Schemas
//
// The request bodies and responses of the matched operations of an
// OpenAPI listing are compared with github.com/oasdiff/oasdiff: schema.go
// puts each pair under one path, so that our matching, not the paths,
// pairs them; schemawalk.go turns oasdiff's diff into findings that name
// the spec's model and property path (ApiProjectResponse.projectId), once
// for a model several operations share.
//
// # Sources
//
// [Run] loads the spec and its known omissions, and reads, parses and
// diffs each listing it is given (a file, stdin, a URL or a server's base
// URL, see package fetch): one result per listing.
package diff
