// Package arazzo owns Arazzo workflows (1.0.x and 1.1.x): reading a
// document into its objects (Read), validating it against the official
// schema of its version and checking what the schema cannot say (Check:
// sources that load, operations, workflows and steps that exist, unique
// ids, dependsOn without cycles, runtime expressions and conditions that
// parse and name what exists), the runtime expressions and the simple,
// regex, JSONPath and XPath criteria, the runner that executes workflows
// against live services (Runner), and the example inputs of a document
// (ExampleInputs).
//
// A step's request is built and its response checked through the contract
// of its OpenAPI operation (package contract), as specgate test checks any
// response; the runner reports each step as a test in the report model
// (package reports), grouped under its workflow.
package arazzo
