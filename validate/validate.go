// Package validate checks a loaded specification against the structure its
// version publishes (OpenAPI 2.0 to 3.2, AsyncAPI 2.x and 3.x, and Arazzo
// 1.0 and 1.1 through package arazzo) and the few cross-object rules every
// version states: unique operationIds, path templates against path
// parameters, resolvable $refs. It is the engine of `specgate validate`;
// style and governance are the linter's business.
//
// Each version's model is data, a table of objects (openapi2.go,
// openapi3.go, asyncapi2.go, asyncapi3.go, schema.go) written with
// table.go's builder in shape.go's vocabulary; rules.go holds what a table
// cannot state, walker.go applies a model to a document, and apiformats.go
// adds the problems of Protocol Buffers, GraphQL, WSDL and SOAP examples.
package validate

import (
	"cmp"
	"slices"

	"github.com/specgate/specgate/spec"
)

// Problem is one structural violation of the specification.
type Problem struct {
	File    string     // file name as in spec.File.Name: the referenced file when the problem is inside one
	Range   spec.Range // 1-based
	Pointer string     // JSON pointer within File ("" = root)
	Message string
	// Unreadable marks a problem that leaves the document unreadable as
	// written: a container where a scalar must stand or the reverse (an
	// object expected, a string found). Tools skip or misread such a
	// value, so lint reports these whatever its ruleset.
	Unreadable bool
}

// Validate checks doc against the structure of its specification version.
// Problems come sorted by file, line and column, each reported once.
func Validate(doc *spec.Document) []Problem {
	if doc.Format == spec.Arazzo {
		return sortProblems(arazzoProblems(doc))
	}
	if ps, ok := readerProblems(doc); ok {
		return sortProblems(ps)
	}
	w := newWalker(doc)
	if root, newest := modelFor(doc); root != nil {
		// A minor newer than the table may add fields: rather than call
		// them unknown, accept them (a false error is worse than a miss).
		w.tolerateUnknown = doc.Minor > newest
		root.check(w, doc.Root.Root)
	}
	w.reportBrokenRefs()
	w.problems = append(w.problems, soapExamples(doc)...)
	return sortProblems(w.problems)
}

// modelFor returns the root shape of the document's specification version
// and the newest minor version its table describes, or nil for a format
// this package does not know.
func modelFor(doc *spec.Document) (root shape, newestMinor int) {
	switch doc.Format {
	case spec.Swagger:
		return openAPI2(), 0
	case spec.OpenAPI:
		return openAPI3(doc.Minor), doc.Minor
	case spec.AsyncAPI:
		if doc.Major == 2 {
			return asyncAPI2(), 6
		}
		return asyncAPI3(), 0
	}
	return nil, 0
}

// reportBrokenRefs turns every $ref the loader could not resolve into a
// problem where the $ref is written, wherever in the document it is.
func (w *walker) reportBrokenRefs() {
	for _, r := range w.doc.Refs {
		if r.Err == nil {
			continue
		}
		rng := r.Node.Range
		if f := r.Node.Field("$ref"); f != nil {
			rng = f.Value.Range
		}
		w.problems = append(w.problems, Problem{File: r.Err.File, Range: rng, Pointer: r.Err.Pointer, Message: r.Err.Msg})
	}
}

// sortProblems orders problems by file, position and message, and drops
// exact duplicates (a node reached by two paths reports once).
func sortProblems(ps []Problem) []Problem {
	slices.SortFunc(ps, func(a, b Problem) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Col, b.Range.Start.Col),
			cmp.Compare(a.Message, b.Message),
			cmp.Compare(a.Pointer, b.Pointer),
		)
	})
	return slices.CompactFunc(ps, func(a, b Problem) bool {
		return a.File == b.File && a.Range.Start == b.Range.Start && a.Message == b.Message
	})
}
