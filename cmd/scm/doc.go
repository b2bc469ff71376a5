// Command scm drives the supply-chain modelling server from the shell: every
// operation by either name (scm call), workflow commands for the common jobs,
// and scm demo, which walks the whole workflow against an embedded fake
// server.
package main
