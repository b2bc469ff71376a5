// Package properties is the implementation of extra.Properties, a defined
// type over [Properties] whose methods are this package's: it lives here so
// that the decoders of package gen (internal/jsondec) can give models their
// first unknown field from a [Slab], a call escape analysis sees through,
// while the Slab stays out of package extra's API. The documentation of
// each method is extra's.
package properties
