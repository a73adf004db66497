package validate

import (
	"context"

	"github.com/specgate/specgate/arazzo"
	"github.com/specgate/specgate/spec"
)

// arazzoProblems checks an Arazzo document with package arazzo: the
// official schema of its version, then its sources, operations, workflows,
// steps and runtime expressions.
func arazzoProblems(doc *spec.Document) []Problem {
	_, problems := arazzo.Check(context.Background(), doc)
	out := make([]Problem, len(problems))
	for i, p := range problems {
		out[i] = Problem{File: p.File, Range: p.Range, Pointer: p.Pointer, Message: p.Message, Unreadable: p.Unreadable}
	}
	return out
}
