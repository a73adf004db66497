package input

import (
	"fmt"
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/spec"
)

// Field adds one field to the input of the documents of a format,
// for facts that package spec's views do not hold and that only the
// package reading the format can compute: package arazzo adds
// input.arazzo (the operations its steps call, the runtime expressions
// each workflow reads). That package registers it from its init function,
// so that this package keeps no dependency on it.
type Field struct {
	Format spec.Format
	// Key is the input's key; it must not be one of Build's own.
	Key string
	// Build computes the field's value, a JSON value as encoding/json
	// decodes one (nil, bool, json.Number, string, []any, map[string]any),
	// or any value ast.InterfaceToValue converts.
	Build func(doc *spec.Document) any
}

var (
	registeredInputsMu sync.RWMutex
	registeredInputs   []Field
)

// RegisterField makes Build add a field to the input of documents of
// fi.Format. Registering a format's field twice panics.
func RegisterField(fi Field) {
	registeredInputsMu.Lock()
	defer registeredInputsMu.Unlock()
	for _, o := range registeredInputs {
		if o.Format == fi.Format && o.Key == fi.Key {
			panic(fmt.Sprintf("input: field %s of %s registered twice", fi.Key, fi.Format))
		}
	}
	registeredInputs = append(registeredInputs, fi)
}

// formatFields are the registered fields of doc's format. A value that
// does not convert becomes null: the rules that read it find nothing,
// rather than the document failing to lint.
func formatFields(c *converter, doc *spec.Document) [][2]*ast.Term {
	registeredInputsMu.RLock()
	defer registeredInputsMu.RUnlock()
	var out [][2]*ast.Term
	for _, fi := range registeredInputs {
		if fi.Format != doc.Format {
			continue
		}
		v, err := ast.InterfaceToValue(fi.Build(doc))
		if err != nil {
			v = ast.Null{}
		}
		out = append(out, c.kv(fi.Key, ast.NewTerm(v)))
	}
	return out
}
