package compat

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/spec"
)

const corpusDir = "../../shared/corpus"

// corpusSpecs lists the single-file specifications of the shared corpus.
func corpusSpecs(t *testing.T) []string {
	t.Helper()
	out := corpusspecs.Files(corpusDir)
	if len(out) == 0 {
		t.Skip("corpus not present")
	}
	return out
}

// TestCorpus checks each real specification against itself (compatible,
// with no change at any level) and against scripted breaking edits of
// itself: an operation's method renamed (the operation is removed) and,
// where there is one, a property of a response renamed (the property is
// removed). Each edit must make the revision incompatible, with the
// removal located at the edited line of the base.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the corpus takes a few seconds")
	}
	for _, path := range corpusSpecs(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			loader := spec.NewLoader(spec.Options{})
			self := CheckFiles(context.Background(), Options{Loader: loader}, path, path)
			if self.Reason != ReasonUnchanged {
				t.Fatalf("against itself: %s %s (%d changes)", self.Reason, self.Message, len(self.Changes))
			}
			doc, err := loader.Load(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range scriptedEdits(doc) {
				t.Run(e.rule, func(t *testing.T) {
					rev := filepath.Join(t.TempDir(), "rev"+filepath.Ext(path))
					if err := os.WriteFile(rev, renameKey(t, data, e.key, e.pos, e.to), 0o644); err != nil {
						t.Fatal(err)
					}
					res := CheckFiles(context.Background(), Options{Loader: loader}, path, rev)
					if res.Verdict != Incompatible {
						t.Fatalf("renaming %q at line %d: %s %s", e.key, e.pos.Line, res.Verdict, res.Message)
					}
					for _, c := range res.Changes {
						if c.RuleID == e.rule && c.Location.Side == Base && c.Location.Line == int(e.pos.Line) && c.Location.File == path {
							return
						}
					}
					t.Errorf("no %s at %s:%d after renaming %q; found:", e.rule, path, e.pos.Line, e.key)
					for _, c := range res.Changes {
						t.Logf("  %s %s %s", c.Location, c.RuleID, c.Message)
					}
				})
			}
		})
	}
}

// edit renames the object key written at pos.
type edit struct {
	rule string // the change the edit must cause
	key  string
	to   string
	pos  spec.Pos
}

// scriptedEdits picks the edits for a document: its first operation that
// is not deprecated, and the first property of a 2xx JSON response of
// some operation, both written in the entry file.
func scriptedEdits(doc *spec.Document) []edit {
	v := doc.Views()
	inRoot := func(path spec.Path) (spec.Pos, bool) {
		l := doc.Locate(path, nil)
		return l.Range.Start, l.Exact && l.File == doc.Root
	}
	var out []edit
	switch {
	case doc.Format == spec.AsyncAPI && doc.Major >= 3:
		// Channels pair by address, which a key rename keeps; operations
		// pair by key.
		for _, op := range v.AsyncOperations {
			if pos, ok := inRoot(op.Source); ok {
				return append(out, edit{"async-operation-removed", op.ID, op.ID + "Renamed", pos})
			}
		}
		return out
	case doc.Format == spec.AsyncAPI:
		for _, ch := range v.Channels {
			if pos, ok := inRoot(ch.Source); ok {
				return append(out, edit{"channel-removed", ch.ID, ch.ID + "-renamed", pos})
			}
		}
		return out
	}
	for _, op := range v.Operations {
		if op.Deprecated {
			continue
		}
		if pos, ok := inRoot(op.Source); ok {
			out = append(out, edit{"operation-removed", op.Method, unusedMethod(doc, op.Path), pos})
			break
		}
	}
	for _, op := range v.Operations {
		for _, r := range op.Responses {
			if !strings.HasPrefix(r.Status, "2") {
				continue
			}
			for _, mt := range r.Content {
				if mt.Schema == nil || !strings.Contains(mt.Name, "json") {
					continue
				}
				props := doc.Deref(mt.Schema).Get("properties")
				if props == nil || props.Kind != spec.Object || len(props.Fields) == 0 || doc.Deref(props.Fields[0].Value).Get("writeOnly").IsTrue() {
					continue
				}
				name := props.Fields[0].Key
				if pos, ok := inRoot(append(append(spec.Path{}, mt.SchemaSource...), "properties", name)); ok {
					return append(out, edit{"response-property-removed", name, name + "_renamed_by_test", pos})
				}
			}
		}
	}
	return out
}

// unusedMethod is an HTTP method the path item does not use.
func unusedMethod(doc *spec.Document, path string) string {
	used := map[string]bool{}
	for _, op := range doc.Views().Operations {
		if op.Path == path {
			used[op.Method] = true
		}
	}
	for _, m := range []string{"trace", "options", "head", "patch", "put", "delete", "post", "get"} {
		if !used[m] {
			return m
		}
	}
	return "trace"
}

// renameKey replaces the key written at pos (1-based line, column in
// characters; quoted in JSON) with to.
func renameKey(t *testing.T, data []byte, key string, pos spec.Pos, to string) []byte {
	t.Helper()
	lines := strings.SplitAfter(string(data), "\n")
	line := lines[pos.Line-1]
	runes := []rune(line)
	col := int(pos.Col) - 1
	rest := string(runes[col:])
	i := strings.Index(rest, key)
	if i < 0 || i > 1 {
		t.Fatalf("line %d col %d does not start with key %q: %q", pos.Line, pos.Col, key, rest)
	}
	lines[pos.Line-1] = string(runes[:col]) + rest[:i] + to + rest[i+len(key):]
	return []byte(strings.Join(lines, ""))
}
