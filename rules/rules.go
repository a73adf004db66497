// Package rules holds specgate's built-in rules as data: one folder per
// rule with its Rego module (METADATA annotation and `violations`), its Rego
// tests and its fixtures, plus shared Rego libraries under lib/.
package rules

import "embed"

// FS holds every rule and library module. Tests and fixtures are embedded
// too so that `specgate rules test` can run them from the binary.
//
//go:embed */*.rego
var FS embed.FS
