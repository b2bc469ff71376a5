// Package fetch reads the listings specdiff is given: files, standard
// input, and http(s) URLs, with the request headers of -header (never
// printed).
//
// # Sizes
//
// Every document specdiff reads, listings and the spec alike, has a size
// limit ([DefaultMaxSize], 8 MiB, raised by -max-input-bytes): [ReadFile]
// refuses a larger file before it reads it, and [ReadAll] reads standard
// input or an answer no further than a byte past the limit. The error,
// a [*TooLargeError] matching [ErrTooLarge], names the document, the limit
// and the flag.
//
// # Servers
//
// A server's base URL (https://host/api/v1: a URL whose last segment has
// no extension and that names no api-docs location) stands for the
// server's own OpenAPI document: [Fetcher.Read] looks for it where Java
// servers publish it (/v3/api-docs, /v2/api-docs, ...), under the server
// root and then under the base path, and says where it found it
// ([Source].Note). When there is none, the error lists every URL tried
// with its answer.
//
// # Credentials and certificates
//
// Reports and errors name a URL without its password and query
// ([RedactedURL], [RedactURLError]). [Client] trusts a -ca-cert file or
// skips verification, and [TLSHint] says which flag to use when a
// certificate is refused.
package fetch
