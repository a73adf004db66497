// Package apitest runs contract tests of a live service: it turns a
// specification and its examples into a lazy stream of tests (one request
// each, from an example, generated from the schemas, or broken in one
// place on purpose), sends them to the service with the credentials the
// spec's security requirements demand, retries 429s after Retry-After,
// checks every response with named checks, and streams the results, in
// plan order, to sinks that write reports.
//
// The contract itself (routing, parameter serialization, body codecs,
// response checks, credentials) is the contract package's; values and
// schemas are the schema package's; examples, fixtures and their notations
// the examples package's. This package decides which tests run, sends them
// and judges them.
package apitest
