// Package formattest loads the test documents of the readers beside
// package spec (Protocol Buffers, GraphQL, WSDL) with their models, and
// says where a model's path stands in its file. Only tests import it.
package formattest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// Load loads the file name with the default options and gives its model,
// as of reads it from the document (proto.Of, graphql.Of, wsdl.Of); it
// fails the test when the file does not load or loads as another format
// (of gives nil).
func Load[M comparable](t testing.TB, name string, of func(*spec.Document) M) (*spec.Document, M) {
	t.Helper()
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), name)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	m := of(doc)
	var none M
	if m == none {
		t.Fatalf("%s loaded as %s", name, doc)
	}
	return doc, m
}

// Pos is where the path p stands, located from the root of file:
// "line:col", or "inexact " and p's pointer when it is not located
// exactly.
func Pos(doc *spec.Document, file *spec.File, p spec.Path) string {
	loc := doc.LocateIn(file, p, nil)
	if !loc.Exact {
		return "inexact " + spec.Pointer(p)
	}
	return fmt.Sprintf("%d:%d", loc.Range.Start.Line, loc.Range.Start.Col)
}

// Ignores are the rule ids of the x-lint-ignore list that the reader put
// at path in the entry file's tree (from specgate:ignore comments),
// joined with commas; "" when there is none.
func Ignores(doc *spec.Document, path ...string) string {
	n := doc.Root.Root
	for _, seg := range path {
		n = n.Get(seg)
	}
	list := n.Get("x-lint-ignore")
	if list == nil {
		return ""
	}
	var out []string
	for _, it := range list.Items {
		out = append(out, it.Value)
	}
	return strings.Join(out, ",")
}
