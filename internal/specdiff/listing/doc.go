// Package listing parses what is published about the remote interface's
// operations into a [Listing] of [Entry] values: an OpenAPI 3.x or Swagger
// 2.0 document (JSON or YAML), the operation tables of a generated
// client's README (Markdown), or a plain list of names.
//
// # Formats
//
// [DetectFormat] names a listing's format from its content; [Parse] reads
// it in that format or the one -format forces. A name may be in either
// style ([IsOperationName]); paths are reduced to the spec's form
// ([NormalizePath]: no scheme, host, prefix up to /api/v1 or trailing
// slash). The entries of an OpenAPI listing carry their details and
// operation, for the diff of parameters and schemas.
//
// # Errors
//
// A listing the parser cannot read is an error that names the source and
// the line ("names.txt:3: ..."); so is one without any operation, which
// would otherwise read as every operation missing. A Swagger 2.0 document
// is converted to OpenAPI 3 by kin-openapi, which is never trusted not to
// panic: a null where a value belongs is refused with its line, and a
// panic is an error naming the document.
package listing
