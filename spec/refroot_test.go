package spec_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/spec"
)

// refsByValue loads name and returns its refs by their value (the first
// of each value).
func refsByValue(t *testing.T, l *spec.Loader, name string) map[string]*spec.Ref {
	t.Helper()
	doc, err := loadSafely(t, func() (*spec.Document, error) { return l.Load(context.Background(), name) })
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*spec.Ref{}
	for _, r := range doc.Refs {
		if out[r.Value] == nil {
			out[r.Value] = r
		}
	}
	return out
}

const outsideSecret = "secret: {type: string, description: read from outside}\n"

// TestRefsStayInTheirTree: by default a $ref reads only files under the
// entry file's folder; /etc/passwd, a sibling folder, a symbolic link
// leading out and a file:// URL are refused at the $ref, with a message
// naming the way to allow them.
func TestRefsStayInTheirTree(t *testing.T) {
	dir := t.TempDir()
	filetest.Write(t, dir, map[string]string{
		"outside/secret.yaml":  outsideSecret,
		"api/schemas/pet.yaml": "Pet:\n  type: object\n  properties:\n    owner: {$ref: '../../outside/secret.yaml#/secret'}\n",
		"api/openapi.yaml": `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Passwd: {$ref: '/etc/passwd'}
    PasswdURL: {$ref: 'file:///etc/passwd'}
    Climb: {$ref: '../../../../../../../../etc/passwd'}
    Sibling: {$ref: '../outside/secret.yaml#/secret'}
    Link: {$ref: 'link.yaml#/secret'}
    Pet: {$ref: 'schemas/pet.yaml#/Pet'}
    Inside: {$ref: './schemas/../schemas/pet.yaml#/Pet'}
`,
	})
	if err := os.Symlink(filepath.Join(dir, "outside", "secret.yaml"), filepath.Join(dir, "api", "link.yaml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	entry := filepath.Join(dir, "api", "openapi.yaml")
	root := filepath.Join(dir, "api")
	refs := refsByValue(t, spec.NewLoader(spec.Options{}), entry)

	refused := map[string]wantErr{
		"/etc/passwd":                        {file: entry, line: 6, col: 20, msg: `$ref "/etc/passwd" reads /etc/passwd, outside ` + root},
		"file:///etc/passwd":                 {file: entry, line: 7, col: 23, msg: `reads /etc/passwd, outside ` + root},
		"../../../../../../../../etc/passwd": {file: entry, line: 8, col: 19, msg: "reads /etc/passwd, outside"},
		"../outside/secret.yaml#/secret":     {file: entry, line: 9, col: 21, msg: "reads " + filepath.Join(dir, "outside", "secret.yaml") + ", outside"},
		"link.yaml#/secret":                  {file: entry, line: 10, col: 18, msg: "a symbolic link to " + filepath.Join(dir, "outside", "secret.yaml")},
		// The tree is the entry file's: a referenced file cannot climb out
		// of it either.
		"../../outside/secret.yaml#/secret": {file: filepath.Join(root, "schemas", "pet.yaml"), line: 4, col: 19, msg: "outside " + root},
	}
	for value, want := range refused {
		r := refs[value]
		if r == nil {
			t.Errorf("no $ref %q", value)
			continue
		}
		checkErr(t, refErr(r), want)
		if r.Err != nil && !strings.Contains(r.Err.Msg, "pass --allow-external-refs or --ref-root DIR to allow it") {
			t.Errorf("%q: the message does not say how to allow it: %s", value, r.Err.Msg)
		}
		if r.Target != nil {
			t.Errorf("%q resolved to %v", value, r.Target)
		}
	}
	for _, value := range []string{"schemas/pet.yaml#/Pet", "./schemas/../schemas/pet.yaml#/Pet"} {
		if r := refs[value]; r == nil || r.Err != nil || r.Target == nil {
			t.Errorf("%q inside the tree: %+v", value, r)
		}
	}
}

// TestRefRootAndExternalRefs: RefRoot widens the tree to a chosen folder;
// AllowExternalRefs lifts the bound.
func TestRefRootAndExternalRefs(t *testing.T) {
	dir := t.TempDir()
	filetest.Write(t, dir, map[string]string{
		"common/errors.yaml": "Error: {type: object}\n",
		"api/openapi.yaml":   "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Error: {$ref: '../common/errors.yaml#/Error'}\n    Host: {$ref: '/etc/hostname'}\n",
	})
	entry := filepath.Join(dir, "api", "openapi.yaml")
	const common, host = "../common/errors.yaml#/Error", "/etc/hostname"

	refs := refsByValue(t, spec.NewLoader(spec.Options{RefRoot: dir}), entry)
	if r := refs[common]; r.Err != nil || r.Target == nil {
		t.Errorf("RefRoot %s: %q: %v", dir, common, refErr(r))
	}
	if r := refs[host]; r.Err == nil || !strings.Contains(r.Err.Msg, "outside "+dir) {
		t.Errorf("RefRoot %s: %q: %v, want it refused", dir, host, refErr(r))
	}

	refs = refsByValue(t, spec.NewLoader(spec.Options{AllowExternalRefs: true}), entry)
	if r := refs[common]; r.Err != nil || r.Target == nil {
		t.Errorf("AllowExternalRefs: %q: %v", common, refErr(r))
	}
	if r := refs[host]; r.Err != nil && strings.Contains(r.Err.Msg, "outside") {
		t.Errorf("AllowExternalRefs: %q refused: %v", host, r.Err)
	}
}

// TestRefsFromStdinStayInTheWorkingDirectory: a document on standard input
// resolves its relative $refs from the working directory, which is then
// its tree.
func TestRefsFromStdinStayInTheWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	filetest.Write(t, dir, map[string]string{
		"work/pet.yaml":    "Pet: {type: object}\n",
		"secret.yaml":      outsideSecret,
		"work/placeholder": "",
	})
	t.Chdir(filepath.Join(dir, "work"))
	src := "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Pet: {$ref: 'pet.yaml#/Pet'}\n    Secret: {$ref: '../secret.yaml#/secret'}\n"
	refs := refsByValue(t, spec.NewLoader(spec.Options{Stdin: strings.NewReader(src)}), "-")
	if r := refs["pet.yaml#/Pet"]; r.Err != nil || r.Target == nil {
		t.Errorf("pet.yaml from stdin: %v", refErr(r))
	}
	checkErr(t, refErr(refs["../secret.yaml#/secret"]), wantErr{file: "<stdin>", line: 7, col: 20, msg: "outside"})
}

// TestRemoteDocumentNamesNoLocalFile: a document fetched from a URL may
// reference other URLs, never local files.
func TestRemoteDocumentNamesNoLocalFile(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api.yaml":
			w.Write([]byte("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'file:///etc/passwd'}\n    B: {$ref: 'pet.yaml#/Pet'}\n"))
		case "/pet.yaml":
			w.Write([]byte("Pet: {type: object}\n"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	url := srv.URL + "/api.yaml"
	for _, opts := range []spec.Options{{}, {AllowExternalRefs: true}} {
		refs := refsByValue(t, spec.NewLoader(opts), url)
		checkErr(t, refErr(refs["file:///etc/passwd"]), wantErr{file: url, line: 6, col: 15, msg: "a remote document may only reference URLs"})
		if r := refs["pet.yaml#/Pet"]; r.Err != nil || r.Target == nil {
			t.Errorf("%+v: a relative $ref of a remote document is a URL: %v", opts, refErr(r))
		}
	}
}

// TestCorpusMultiFileNeedsRefRoot: the corpus's petstore-separate-v2 reads
// ../common/Error.yaml from its spec/ folder. By default that is refused
// with a message naming the flags; with the corpus as the ref root it
// loads (the other corpus tests load it so).
func TestCorpusMultiFileNeedsRefRoot(t *testing.T) {
	name := filepath.Join(corpusDir, "petstore-separate-v2", "spec", "swagger.yaml")
	refs := refsByValue(t, spec.NewLoader(spec.Options{}), name)
	r := refs["../common/Error.yaml"]
	if r == nil {
		t.Fatalf("no ../common/Error.yaml $ref in %s", name)
	}
	checkErr(t, refErr(r), wantErr{file: name, line: 44, col: 19, msg: "pass --allow-external-refs or --ref-root DIR to allow it"})
}

// TestRefPaths: a $ref's Path is its pointer with array indices as ints,
// and numeric keys (a status code) and escaped keys as written, in the
// entry file and in the file it refers to.
func TestRefPaths(t *testing.T) {
	dir := t.TempDir()
	filetest.Write(t, dir, map[string]string{
		"api.yaml": `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a/{id}:
    get:
      parameters:
        - $ref: "#/components/parameters/Id"
      responses:
        "200":
          $ref: "common.yaml#/Ok"
components:
  parameters:
    Id: {name: id, in: path, required: true, schema: {type: string}}
`,
		"common.yaml": "Ok:\n  description: ok\n  content:\n    application/json:\n      schema:\n        allOf:\n          - $ref: \"#/Thing\"\nThing: {type: object}\n",
	})
	refs := refsByValue(t, spec.NewLoader(spec.Options{}), filepath.Join(dir, "api.yaml"))
	for value, want := range map[string]spec.Path{
		"#/components/parameters/Id": {"paths", "/a/{id}", "get", "parameters", 0},
		"common.yaml#/Ok":            {"paths", "/a/{id}", "get", "responses", "200"},
		"#/Thing":                    {"Ok", "content", "application/json", "schema", "allOf", 0},
	} {
		r := refs[value]
		if r == nil {
			t.Fatalf("no $ref %q", value)
		}
		if !reflect.DeepEqual(r.Path, want) {
			t.Errorf("$ref %q at %s: path %#v, want %#v", value, r.Pointer(), r.Path, want)
		}
	}
}

// TestOpenThenResolve: Open knows the format and leaves the $refs, even a
// broken one, to Resolve, which finds what Load finds.
func TestOpenThenResolve(t *testing.T) {
	dir := t.TempDir()
	api := filepath.Join(dir, "api.yaml")
	src := `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /a:
    get:
      responses:
        "200": {$ref: '#/components/responses/Ok'}
        "404": {$ref: '#/components/responses/Missing'}
components:
  responses:
    Ok: {description: ok}
`
	if err := os.WriteFile(api, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	l := spec.NewLoader(spec.Options{})
	d, err := l.Open(context.Background(), api)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.FormatTags(); !reflect.DeepEqual(got, []string{"oas", "oas3", "oas3.1"}) {
		t.Errorf("format tags after Open = %q", got)
	}
	if len(d.Refs) != 0 {
		t.Errorf("Open resolved %d $refs", len(d.Refs))
	}
	d.Resolve(context.Background())
	loaded, err := l.Load(context.Background(), api)
	if err != nil {
		t.Fatal(err)
	}
	describe := func(d *spec.Document) []string {
		var out []string
		for _, r := range d.Refs {
			msg := ""
			if r.Err != nil {
				msg = r.Err.Msg
			}
			out = append(out, r.Value+" "+msg)
		}
		return out
	}
	if got, want := describe(d), describe(loaded); len(got) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("$refs after Resolve:\n got %q\nwant %q (as Load)", got, want)
	}
}

// TestInputDirsWidenTheTree: a spec found in a folder given as input may
// read files anywhere under that folder (a sibling subfolder), but not
// outside it; RefRoot, when given, wins.
func TestInputDirsWidenTheTree(t *testing.T) {
	dir := t.TempDir()
	filetest.Write(t, dir, map[string]string{
		"outside/secret.yaml":  outsideSecret,
		"apis/shared/pet.yaml": "Pet: {type: object}\n",
		"apis/a/openapi.yaml": `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    Pet: {$ref: '../shared/pet.yaml#/Pet'}
    Secret: {$ref: '../../outside/secret.yaml#/secret'}
`,
	})
	entry := filepath.Join(dir, "apis", "a", "openapi.yaml")
	for _, tc := range []struct {
		name           string
		opts           spec.Options
		pet, secretErr string
	}{
		{"own folder", spec.Options{}, "outside", "outside"},
		{"input folder", spec.Options{InputDirs: []string{filepath.Join(dir, "apis")}}, "", "outside"},
		{"nested input folders: the outermost", spec.Options{InputDirs: []string{filepath.Join(dir, "apis", "a"), filepath.Join(dir, "apis")}}, "", "outside"},
		{"ref root wins", spec.Options{RefRoot: filepath.Join(dir, "apis", "a"), InputDirs: []string{filepath.Join(dir, "apis")}}, "outside", "outside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			refs := refsByValue(t, spec.NewLoader(tc.opts), entry)
			for value, want := range map[string]string{"../shared/pet.yaml#/Pet": tc.pet, "../../outside/secret.yaml#/secret": tc.secretErr} {
				r := refs[value]
				if r == nil {
					t.Fatalf("no $ref %q", value)
				}
				switch {
				case want == "" && r.Err != nil:
					t.Errorf("%s: %v, want it resolved", value, r.Err)
				case want != "" && (r.Err == nil || !strings.Contains(r.Err.Msg, want)):
					t.Errorf("%s: error %v, want one containing %q", value, r.Err, want)
				}
			}
		})
	}
}
