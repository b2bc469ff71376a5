// Package gendecode reaches the decoders that package gen generates with
// the settings gen does not export: the context that stops a decode and the
// bounds on what is reported of the differences found ([Options]). The
// facade decodes every answer through [DecodeAnswerWith]; the tests that
// cover every operation make its answer with [NewAnswer].
//
// Package gen keeps one decoding entry for its users, [gen.DecodeAnswer],
// and installs the rest in package jsondec when it is initialised (the init
// of gen/decode.gen.go, written by tools/decodegen), so that the options
// and the operation-indexed constructor stay out of its public surface.
// This package imports gen, so they are installed before it runs.
package gendecode
