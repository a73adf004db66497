package examples

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// ValidateSpec reads a spec's inline and external examples and checks
// them, as `examples validate` does; a spec that is not OpenAPI, or does
// not load, is its error.
func TestValidateSpec(t *testing.T) {
	ctx := context.Background()
	v, err := ValidateSpec(ctx, "petstore.yaml", SpecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Files != 11 || v.Inline != 0 || len(v.Findings) != 0 || len(v.Errors) != 0 {
		t.Errorf("petstore.yaml: %d files, %d inline, findings %v, errors %v", v.Files, v.Inline, v.Findings, v.Errors)
	}
	path := filepath.Join("testdata", "check", "api.yaml")
	v, err = ValidateSpec(ctx, path, SpecOptions{NoInline: true})
	if err != nil {
		t.Fatal(err)
	}
	set := Discover(path, nil, Options{})
	if want := NewChecker(newContract(t, path), nil).CheckAll(set.Examples); len(v.Findings) == 0 || !reflect.DeepEqual(findingTexts(v.Findings), findingTexts(want)) {
		t.Errorf("findings of %s differ from the checker's: %d, want %d", path, len(v.Findings), len(want))
	}
	for path, want := range map[string]string{
		"testdata/none.yaml": "testdata/none.yaml: ",
		"../../shared/corpus/asyncapi-streetlights-kafka-2.6.yml": "is not an OpenAPI description; examples are OpenAPI's",
	} {
		if _, err := ValidateSpec(ctx, path, SpecOptions{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want it to say %q", path, err, want)
		}
	}
}

func findingTexts(fs []Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.String()
	}
	return out
}

// FixSpec repairs a copy of the fix fixtures and writes nothing; what it
// leaves is what Fix leaves, file by file.
func TestFixSpec(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"api.yaml", "api_examples/body.json", "api_examples/status_slip.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "fix", name))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := FixSpec(context.Background(), filepath.Join(dir, "api.yaml"), SpecOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, r := range f.Results {
		if r.Changed() {
			changed = append(changed, filepath.Base(r.File))
		}
	}
	if !reflect.DeepEqual(changed, []string{"body.json"}) || len(f.Results) != 2 || len(f.Errors) != 0 {
		t.Errorf("changed %v of %d results, errors %v", changed, len(f.Results), f.Errors)
	}
	if len(f.Left) != 1 || f.Left[0].Code != CodeStatusUndeclared {
		t.Errorf("left %v", f.Left)
	}
	before, _ := os.ReadFile(filepath.Join("testdata", "fix", "api_examples", "body.json"))
	if now, _ := os.ReadFile(filepath.Join(dir, "api_examples", "body.json")); string(now) != string(before) {
		t.Error("FixSpec wrote a file")
	}
}

// GenerateSpec makes a spec's files for its <name>_examples folder (or
// the one given); a spec given by URL needs a folder.
func TestGenerateSpec(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join("testdata", "generate", "api.yaml")
	g, err := GenerateSpec(ctx, path, SpecOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if g.Dir != filepath.Join("testdata", "generate", "api_examples") || len(g.Files) != 18 || g.Err == nil {
		t.Errorf("dir %s, %d files, error %v", g.Dir, len(g.Files), g.Err)
	}
	seeded, _ := NewChecker(newContract(t, path), nil).GenerateSeeded(1)
	if !reflect.DeepEqual(g.Files[3].Data, seeded[3].Data) {
		t.Errorf("GenerateSpec and GenerateSeeded of one seed differ")
	}
	if _, err := GenerateSpec(ctx, "https://example.com/api.yaml", SpecOptions{}); err == nil || err.Error() != "https://example.com/api.yaml: the spec is not a local file: give the folder of its examples" {
		t.Errorf("a URL without a folder: %v", err)
	}
}

// A $ref that does not resolve is an error at the $ref, of the validation
// and of a fix: the example under it cannot be checked, so it is not
// called valid; a broken $ref away from any example is one too.
func TestValidateSpecBrokenRef(t *testing.T) {
	const head = "openapi: 3.0.3\ninfo: {title: X, version: \"1\"}\npaths:\n  /items:\n    get:\n      responses:\n        \"200\":\n          description: ok\n          content:\n            application/json:\n"
	for name, tc := range map[string]struct {
		src    string
		inline int
		want   string
	}{
		"under-example": {head + "              schema: {$ref: \"#/components/schemas/Nope\"}\n              example: {id: 1}\n", 1,
			`:11:30: $ref "#/components/schemas/Nope" does not resolve: the document root of`},
		"elsewhere": {head + "              schema: {type: object}\ncomponents:\n  schemas:\n    A: {$ref: \"#/components/schemas/B\"}\n", 0,
			`:14:15: $ref "#/components/schemas/B" does not resolve: `},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "api.yaml")
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			v, err := ValidateSpec(context.Background(), path, SpecOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if v.Inline != tc.inline || v.BrokenRefs != 1 || len(v.Errors) != 1 || !strings.Contains(v.Errors[0].Error(), tc.want) {
				t.Errorf("%d inline, %d broken refs, errors %v; want %d inline and one error with %q", v.Inline, v.BrokenRefs, v.Errors, tc.inline, tc.want)
			}
			f, err := FixSpec(context.Background(), path, SpecOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Errors) != 1 || !strings.Contains(f.Errors[0].Error(), tc.want) {
				t.Errorf("fix: errors %v, want one with %q", f.Errors, tc.want)
			}
		})
	}
}
