// Package contract owns the HTTP contract of an OpenAPI document's
// operations (Swagger 2.0, OpenAPI 3.0, 3.1 and 3.2), in both directions:
// the mock server routes and checks the requests it receives and picks the
// media types of its answers; the contract tester builds the requests it
// sends and checks the responses it gets; the example commands check
// examples. Both sides go through the same code, so a test run against
// specgate's own mock proves the two at once.
//
// A Contract is built once per document and is safe for concurrent use.
// Its steps, as Prism's, are usable alone (see the package example):
// Route, CheckRequest, NegotiateResponse, BuildRequest, CheckResponse,
// CheckSecurity and Authorize, and a Codec per media-type family. Each
// Problem names its place, the failing value's JSON path, the keyword and
// the rule's file:line:col. The decisions behind the rules are in
// docs/architecture-notes.md ("One operation's contract").
package contract
