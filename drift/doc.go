// Package drift reports where a server's answers differ from the spec the
// SDK was generated from: fields the spec does not name, required fields
// missing or null, values of another JSON type and values outside an
// enumeration.
//
// Most of the spec's models are inferred, so a real server may answer
// differently. The SDK's decoders are liberal in what they accept (see
// gen.DecodeAnswer): a difference never fails a call; it is kept in the
// model where it can be (AdditionalProperties) and reported as a [Finding].
// facade.Client logs each difference once, at Warn, and returns all of them
// from its Drift method, collected by a [Collector].
//
// # Findings
//
// A Finding has the form and the JSON of the findings of specdiff probe,
// which asks a live server on purpose what the SDK notices in passing: the
// same kinds ([KindUnknownField], [KindMissing], [KindNull], [KindType],
// [KindEnum]) with the same meanings, the same details, and the same model
// paths. A path starts at the innermost model of the spec that holds the
// value, so a model that several operations answer has one path:
// ApiProjectResponse.description, ApiBasicRunConfiguration.status,
// ApiExperimentResultData.pages[] (an element of an array),
// ApiPage.id (a field of the ApiPage inside a page of a result). A value
// outside any model is named after the operation's answer:
// "removeScenarioById 200 response".
package drift
