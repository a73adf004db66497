package dsl

import _ "embed"

//go:embed dsl.rego
var library string

// LibraryFile is the name the runtime library is compiled under.
const LibraryFile = "specgate/dsl.rego"

// Library returns the Rego source of the runtime library that compiled
// rules import as data.specgate.dsl.
func Library() string { return library }
