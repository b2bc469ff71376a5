// Package bench compares the facade's paging with a client that ogen
// generates from api/openapi.yaml, besides the bare oapi-codegen client and
// plain structs (see BenchmarkPaging). It is a module of its own so that
// users of scmgo do not inherit ogen and its dependencies.
//
// ogen 1.24 cannot generate the operations whose run configuration is a
// complex anyOf; ogen.yml generates only the table operation the benchmark
// calls.
package bench
