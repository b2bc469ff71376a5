// Package ids holds the identifiers of the modelling server's resources, a
// defined type per kind, so that the compiler keeps one kind of id out of a
// call that wants another: an experimentResultId where an rcId is wanted,
// a run's id where its result's is wanted, does not compile.
//
// # The kinds
//
// Every integer id of the interface is 64-bit and travels as a JSON number
// or a decimal query parameter, exactly as an int64 would: the types change
// what the compiler accepts, never the wire.
//
//   - [ProjectID]: a project (projectId).
//   - [ScenarioID]: a scenario (scenarioId).
//   - [JobID]: an import or copy job (jobId).
//   - [RcID]: a run configuration, the setup of an experiment that is run
//     (rcId; getExperiments answers it as id).
//   - [ExperimentResultID]: the result of one run of a configuration
//     (experimentResultId). Every run gives a new one; the dashboard
//     operations take it. A real server lists a finished run with it
//     in the field named rcId (ApiBasicRun.RcId), which is why that field
//     is of this type.
//   - [RunID]: a listed run (ApiBasicRun's id, the runId of the convert
//     operations). A real server gave it as the run's experimentResultId
//     minus one: a relation it shows, not one it promises, so no function
//     here converts between them.
//   - [VariationID]: a variation parameter (variationId). [NewVariation]
//     stands for a variation not yet created, which two operations send as
//     the string new.
//   - [PageID]: a dashboard or statistics page (pageId). The statistics
//     pages list their ids as numeric strings (ApiPage's id, a string on
//     the wire): [Parse] reads them.
//   - [ObjectID]: an object of a variation (objectId), a string.
//
// # Text
//
// Each integer id's String method writes its decimal form, as the wire and
// the CLI show it, and [Parse] reads it back with an error naming the kind.
// None of them implements encoding.TextMarshaler: that would turn their JSON
// into strings.
//
// Converting between kinds, or from a bare integer, takes an explicit
// conversion (ids.RcID(n)): do it where an id enters the program (a flag,
// a file, a database), never between kinds.
package ids
