package input_test

import (
	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/policy/internal/policytest"
)

// The helpers of the tests of the input, shared with package policy's
// tests: writing a rule's module, loading a document, and compiling rules
// that read its input.
var (
	rule      = ruletest.Module
	compile   = policytest.Compile
	load      = policytest.Load
	loadFiles = policytest.LoadFiles
)
