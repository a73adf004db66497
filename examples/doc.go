// Package examples owns specgate's examples: the external example files
// (one exchange per JSON or YAML file, in the product's http-request /
// http-response format, with before/after fixtures and metadata), their
// discovery in <spec>_examples/ and configured folders, the inline examples
// of a loaded specification and how their requests and responses pair, the
// value notations written inside examples (${ENV:default}, $(lookup),
// (NAME:type) captures, (type) placeholders), the $match(...) matchers, and
// checking, generating and fixing examples against a specification.
//
// Everything is parsed once, at load: a notation is a typed node with the
// position where it is written, never a string scanned again at run time.
// Context.Eval turns a tree of Values into a JSON value for a request or
// a response; Context.Check compares a received value with an expected
// tree and returns problems with their JSON path and the expectation's
// position.
package examples
