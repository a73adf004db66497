package compat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/specgate/specgate/spec"
	"github.com/specgate/specgate/validate"
)

// formatCase is one pair of a fixture of testdata/formats: the base and
// revision files (base/NAME, rev/NAME) written to a folder, and the
// changes wanted.
type formatCase struct {
	path      string
	archive   *txtar.Archive
	dir       string
	base, rev string
	want      string
}

func readFormatCases(t *testing.T, format string) []*formatCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "formats", format, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures for %s: %v", format, err)
	}
	var out []*formatCase
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := &formatCase{path: f, archive: a, dir: t.TempDir()}
		for _, af := range a.Files {
			if af.Name == "want" {
				c.want = string(af.Data)
				continue
			}
			p := filepath.Join(c.dir, filepath.FromSlash(af.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, af.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			switch {
			case strings.HasPrefix(af.Name, "base/") && c.base == "":
				c.base = p
			case strings.HasPrefix(af.Name, "rev/") && c.rev == "":
				c.rev = p
			}
		}
		if c.base == "" || c.rev == "" {
			t.Fatalf("%s: needs base/ and rev/ files", f)
		}
		out = append(out, c)
	}
	return out
}

// render writes a result as the fixtures' want section: the verdict, then
// one line per change: level, rule, side, place, place in the other
// version (after "~"), message, operations.
func (c *formatCase) render(res Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", res.Verdict, res.Reason)
	at := func(l Location) string {
		if l.File == "" {
			return "nowhere"
		}
		file := l.File
		if rel, err := filepath.Rel(c.dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
		return fmt.Sprintf("%s:%d:%d", file, l.Line, l.Column)
	}
	for _, ch := range res.Changes {
		other := ch.Revision
		if ch.Location.Side == Revision {
			other = ch.Base
		}
		fmt.Fprintf(&b, "%s %s %s %s ~%s %s [%s]\n", ch.Level, ch.RuleID, ch.Location.Side, at(ch.Location), at(other),
			strings.ReplaceAll(ch.Message, c.dir+string(filepath.Separator), ""), strings.Join(ch.Operations, ", "))
	}
	return b.String()
}

// TestFormatFixtures checks every pair of testdata/formats against its
// want section (go test ./compat -run FormatFixtures -update rewrites
// them), that each change is placed in both versions, and that every rule
// of FormatRules is met by a fixture.
func TestFormatFixtures(t *testing.T) {
	loader := spec.NewLoader(spec.Options{})
	used := map[string]bool{}
	for _, format := range []string{"proto", "graphql", "wsdl"} {
		for _, c := range readFormatCases(t, format) {
			t.Run(format+"/"+filepath.Base(c.path), func(t *testing.T) {
				res := CheckFiles(context.Background(), Options{Loader: loader}, c.base, c.rev)
				if res.Err != nil {
					t.Fatalf("%v", res.Err)
				}
				// A fixture is a pair of valid documents: a change is judged
				// between what compilers accept.
				for _, f := range []string{c.base, c.rev} {
					doc, err := loader.Load(context.Background(), f)
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range validate.Validate(doc) {
						t.Errorf("%s:%d:%d: %s", p.File, p.Range.Start.Line, p.Range.Start.Col, p.Message)
					}
				}
				for _, ch := range res.Changes {
					used[ch.RuleID] = true
					// Each change is placed in both versions (the want
					// section shows where, after "~").
					own, other := ch.Revision, ch.Base
					if ch.Location.Side == Base {
						own, other = ch.Base, ch.Revision
					}
					if own != ch.Location || other.File == "" || other.Side == ch.Location.Side {
						t.Errorf("%s: placed at %+v and %+v", ch.RuleID, own, other)
					}
				}
				got := c.render(res)
				if got == c.want {
					return
				}
				if *update {
					writeWant(t, c, got)
					return
				}
				t.Errorf("%s: got\n%swant\n%s", c.path, got, c.want)
			})
		}
	}
	if t.Failed() {
		return
	}
	for _, r := range FormatRules {
		if !used[r.ID] {
			t.Errorf("rule %s is met by no fixture of testdata/formats", r.ID)
		}
	}
}

func writeWant(t *testing.T, c *formatCase, want string) {
	t.Helper()
	files := slices.DeleteFunc(slices.Clone(c.archive.Files), func(f txtar.File) bool { return f.Name == "want" })
	c.archive.Files = append(files, txtar.File{Name: "want", Data: []byte(want)})
	if err := os.WriteFile(c.path, txtar.Format(c.archive), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFormatRulesAreDocumented keeps the rule table of docs/formats.md in
// step with FormatRules.
func TestFormatRulesAreDocumented(t *testing.T) {
	const path = "../docs/formats.md"
	const begin, end = "<!-- format rules: generated by go test ./compat -run FormatRules -update -->\n", "<!-- end of format rules -->\n"
	checkRuleTable(t, path, begin, end, FormatRules, "FormatRules")
}

// TestAffected: the verdict names what breaking changes affect by kind:
// operations for OpenAPI and AsyncAPI; RPCs, root fields and port type
// operations as operations beside the elements no operation reaches.
func TestAffected(t *testing.T) {
	tests := []struct {
		format spec.Format
		names  []string
		want   string
	}{
		{spec.OpenAPI, []string{"GET /pets", "POST /pets"}, "2 operations (GET /pets, POST /pets)"},
		{spec.Proto, []string{"rpc a.v1.S/Get", "message a.v1.Orphan"}, "1 operation and 1 message (rpc a.v1.S/Get, message a.v1.Orphan)"},
		{spec.GraphQL, []string{"query pets", "directive @key", "mutation addPet", "type Orphan"},
			"2 operations, 1 directive and 1 type (query pets, directive @key, mutation addPet and 1 more)"},
		{spec.WSDL, []string{"Orders.Submit", "binding OrdersSoap"}, "1 operation and 1 binding (Orders.Submit, binding OrdersSoap)"},
	}
	for _, tt := range tests {
		if got := affected(tt.format, tt.names); got != tt.want {
			t.Errorf("%s %q: %q, want %q", tt.format, tt.names, got, tt.want)
		}
	}
}
