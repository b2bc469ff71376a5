// Package tally counts the items of a summary by status, once for every
// summary of the repository: batch.Summary's and scmtemporal.Summary's,
// whose items and statuses are of their own types.
package tally
