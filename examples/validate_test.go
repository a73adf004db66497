package examples

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/spec"
)

// checkWantRE reads a want comment of a check fixture:
// # want COLUMN CODE JSON-PATH "message regexp".
var checkWantRE = regexp.MustCompile(`# want (\d+) (\S+) (\S+) "((?:[^"\\]|\\.)*)"`)

func newContract(t testing.TB, path string) *contract.Contract {
	t.Helper()
	c, err := contract.New(load(t.(*testing.T), path), nil, contract.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every fixture of testdata/check/api_examples carries, on the line of
// each finding, the column, code and JSON path it must have and a regular
// expression of its message; a finding without a want comment, or a want
// comment without its finding, fails the test.
func TestCheckFixtures(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "check", "api.yaml"))
	set := Discover(filepath.Join("testdata", "check", "api.yaml"), nil, Options{})
	if len(set.Errors) > 0 {
		t.Fatal(set.Errors)
	}
	byFile := map[string][]Finding{}
	for _, f := range Check(c, set.Examples) {
		byFile[f.Loc.File] = append(byFile[f.Loc.File], f)
	}
	for _, ex := range set.Examples {
		t.Run(ex.Name, func(t *testing.T) {
			data, err := os.ReadFile(ex.File)
			if err != nil {
				t.Fatal(err)
			}
			type want struct {
				at, code, path string
				msg            *regexp.Regexp
			}
			var wants []want
			for i, line := range strings.Split(string(data), "\n") {
				for _, m := range checkWantRE.FindAllStringSubmatch(line, -1) {
					wants = append(wants, want{strconv.Itoa(i+1) + ":" + m[1], m[2], m[3], regexp.MustCompile(strings.ReplaceAll(m[4], `\"`, `"`))})
				}
			}
			got := byFile[ex.File]
			delete(byFile, ex.File)
			var missing []string
			for _, w := range wants {
				found := -1
				for i, f := range got {
					if at(f.Loc) == w.at && f.Code == w.code && f.Path == w.path && w.msg.MatchString(f.Message) {
						found = i
						break
					}
				}
				if found < 0 {
					missing = append(missing, w.at+" "+w.code+" "+w.path+" "+w.msg.String())
					continue
				}
				got = append(got[:found], got[found+1:]...)
			}
			var extra []string
			for _, f := range got {
				extra = append(extra, at(f.Loc)+" "+f.Code+" "+f.Path+" "+f.Message)
			}
			sort.Strings(extra)
			if len(missing) > 0 || len(extra) > 0 {
				t.Errorf("missing:\n  %s\nunexpected:\n  %s", strings.Join(missing, "\n  "), strings.Join(extra, "\n  "))
			}
		})
	}
	for file, fs := range byFile {
		t.Errorf("%s: findings outside the examples: %v", file, fs)
	}
}

// BenchmarkCheck measures the check of one external example with a body,
// parameters and a response (the routing, the contract's request and
// response checks, the schema validations).
func BenchmarkCheck(b *testing.B) {
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), filepath.Join("testdata", "check", "api.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	c, err := contract.New(doc, nil, contract.Options{})
	if err != nil {
		b.Fatal(err)
	}
	k := NewChecker(c, nil)
	ex, err := ReadFile(filepath.Join("testdata", "check", "api_examples", "body_invalid.yaml"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	k.Check(ex)
	for b.Loop() {
		k.Check(ex)
	}
}

// Swagger 2.0: inline x-example and response examples, form fields
// against formData parameters, a body against a body parameter, an empty
// API key, the basePath left out or written.
func TestCheckSwagger(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "check", "swagger.yaml"))
	set := Discover(filepath.Join("testdata", "check", "swagger.yaml"), nil, Options{})
	if len(set.Errors) > 0 {
		t.Fatal(set.Errors)
	}
	list := append(Inline(c.Document(), Options{}).Examples, set.Examples...)
	var got []string
	for _, f := range Check(c, list) {
		got = append(got, filepath.Base(f.Loc.File)+":"+at(f.Loc)+" "+f.Code+" "+f.Path+" "+f.Message)
	}
	want := []string{
		`swagger.yaml:12:75 example-param-invalid $.paths['/pets'].get.parameters[0].x-example $: expected a number <= 10, found number 50`,
		`swagger.yaml:18:33 example-body-invalid $.paths['/pets'].get.responses['200'].examples['application/json'][0].id $[0].id: expected integer, found string "one"`,
		`create.json:2:67 example-security-invalid $.http-request.headers.X-Key the API key X-Key of security scheme key is empty`,
		`create.json:2:81 example-body-invalid $.http-request.body request body $: missing required property "name"`,
		`form.json:2:73 example-body-invalid $.http-request.form-fields.caption form field caption: expected at most 5 characters, found 14`,
		`form.json:2:102 example-body-invalid $.http-request.form-fields.width form field width: expected integer, got "wide"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
