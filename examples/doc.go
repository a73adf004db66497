// Package examples owns specgate's examples: the external example files
// (one exchange per JSON or YAML file, in the product's http-request /
// http-response format, with before/after fixtures and metadata), their
// discovery in <spec>_examples/ and configured folders, the inline examples
// of a loaded specification and how their requests and responses pair, the
// value notations written inside examples (${ENV:default}, $(lookup),
// (NAME:type) captures, (type) placeholders) and the $match(...) matchers.
//
// Everything is parsed once, at load: a body is a tree of Values in which a
// notation is a typed node with the position where it is written, never a
// string scanned again at run time. Eval turns a tree into a JSON value for a
// request or a response; Check compares a received value with an expected
// tree and returns problems with their JSON path and the position of the
// expectation that failed. Validating examples against the specification is
// the job of the contract and schema packages, which read the positions kept
// here to point at the offending field.
//
// JSON values are what encoding/json decodes with UseNumber: nil, bool,
// json.Number, string, []any and map[string]any.
package examples
