// Package pagebench measures paging a table chart through different
// clients in one run: it serves the same pre-encoded pages to every client
// and reports each client's time and allocations per row, and their ratios.
//
// BenchmarkPaging of the benchmark module compares the facade with a client
// ogen generates, the bare oapi-codegen client and a plain net/http +
// encoding/json loop; BenchmarkDecode decodes the same pages in memory. It
// lives in the benchmark module, beside the benchmarks that use it, so that
// the SDK's own packages hold no benchmark code.
package pagebench
