package spec_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// refSeeds are three files: the entry file api/openapi.yaml, a file beside
// it in api/schemas/b.yaml, and c.yaml outside api/ (above the ref root by
// default). They reference each other in the ways $refs are written:
// relative, ./ and ../, absolute /etc paths, file:// URLs, JSON pointers
// with escapes and percent-encoding, pointers through other $refs, chains
// and cycles across files.
var refSeeds = [][3]string{
	{
		"openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    B: {$ref: 'schemas/b.yaml#/B'}\n    C: {$ref: '../c.yaml#/C'}\n    Self: {$ref: '#/components/schemas/B'}\n",
		"B:\n  type: object\n  properties:\n    back: {$ref: '../openapi.yaml#/components/schemas/B'}\n    c: {$ref: '../../c.yaml#/C'}\n",
		"C: {type: string}\n",
	},
	{
		`{"openapi": "3.1.0", "paths": {"/a~b/{id}": {"get": {"responses": {"200": {"$ref": "schemas/b.yaml#/responses/ok"}}}}}, "x": {"$ref": "#/paths/~1a~0b~1%7Bid%7D/get"}}`,
		`{"responses": {"ok": {"$ref": "#/responses/again"}, "again": {"description": "ok"}}}`,
		`{"C": {"$ref": "api/openapi.yaml#/x"}}`,
	},
	{
		"openapi: 3.0.3\na: {$ref: 'schemas/b.yaml#/x'}\n",
		"x: {$ref: '../openapi.yaml#/a'}\n",
		"",
	},
	{
		"swagger: '2.0'\ninfo: {title: T, version: '1'}\npaths: {}\ndefinitions:\n  P: {$ref: '/etc/passwd'}\n  Q: {$ref: 'file:///etc/hostname#/x'}\n  R: {$ref: '../../../../../../etc/passwd'}\n  S: {$ref: 'schemas/'}\n  T: {$ref: 'schemas/b.yaml#/no/such/pointer'}\n",
		"just a string\n",
		"C: {$ref: 'https://example.com/c.yaml'}\n",
	},
	{
		"asyncapi: 3.0.0\ninfo: {title: T, version: '1'}\nchannels:\n  c: {$ref: 'schemas/b.yaml#/ch'}\n",
		"ch:\n  messages:\n    m: {$ref: '#/ch/messages/m'}\n",
		"- 1\n- 2\n",
	},
}

// FuzzRefs resolves $refs across three files written to a temporary
// folder, with the default ref root (the entry file's folder) and with
// the folder above it. Whatever the files hold, loading never panics or
// hangs, every problem is a located *spec.Error, every file read lies in
// the ref root, and paths through resolved $refs locate.
func FuzzRefs(f *testing.F) {
	for _, s := range refSeeds {
		f.Add([]byte(s[0]), []byte(s[1]), []byte(s[2]))
	}
	// One folder per fuzzing process, rewritten by each input: a new
	// folder per input would cost more than the load.
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, entry, b, c []byte) {
		for name, data := range map[string][]byte{"api/openapi.yaml": entry, "api/schemas/b.yaml": b, "c.yaml": c} {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		name := filepath.Join(dir, "api", "openapi.yaml")
		for _, root := range []string{filepath.Join(dir, "api"), dir} {
			opts := spec.Options{Limits: fuzzLimits}
			if root == dir {
				opts.RefRoot = dir
			}
			doc, err := loadSafely(t, func() (*spec.Document, error) {
				return spec.NewLoader(opts).Load(context.Background(), name)
			})
			if err != nil {
				checkFuzzErr(t, err)
				continue
			}
			for _, file := range doc.Files() {
				abs, err := filepath.Abs(file.Name)
				if err != nil {
					t.Fatal(err)
				}
				if rel, err := filepath.Rel(root, abs); err != nil || strings.HasPrefix(rel, "..") {
					t.Fatalf("read %s, outside the ref root %s", abs, root)
				}
				checkPositions(t, file)
			}
			for _, r := range doc.Refs {
				if r.Err != nil {
					checkFuzzErr(t, r.Err)
				} else if r.Target == nil || r.TargetFile == nil {
					t.Fatalf("%s#%s: $ref %q has neither a target nor an error", r.File.Name, r.Pointer(), r.Value)
				}
			}
			for _, path := range samplePaths(doc) {
				if loc := doc.Locate(path, nil); loc.File == nil {
					t.Fatalf("Locate(%v): no file", path)
				}
			}
		}
	})
}
