// Package api embeds the OpenAPI document of the remote interface, so that
// code which validates requests or responses against it (the fake server,
// the tests, specdiff) reads the one spec that gen/ was generated from.
package api
