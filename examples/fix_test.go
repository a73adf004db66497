package examples

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/schema"
)

// Each example of testdata/fix/api_examples is repaired into the file of
// the same name under testdata/fix/want (go test -run TestFix -update
// rewrites them); what a repair cannot change is left, and a check of the
// repaired file finds only that.
func TestFix(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "fix", "api.yaml"))
	k := NewChecker(c, nil)
	left := map[string][]string{
		"m405_declared.json": {Code405MethodDeclared + " $.http-request.method"},
		"missing.json":       {CodeNoOperation + " $.http-request.method"},
		"u415.json":          {Code415TypeAccepted + " $.http-request.headers.Content-Type"},
		// 201 beside a declared 200 is a slip default covers: the body is
		// not repaired into default's error.
		"status_slip.json": {CodeStatusUndeclared + " $.http-response.status"},
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "fix", "api_examples", "*"))
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			r, err := k.FixFile(file, "", Options{}, schema.NewGenerator(1))
			if err != nil {
				t.Fatal(err)
			}
			want := filepath.Join("testdata", "fix", "want", name)
			if *update {
				if err := os.WriteFile(want, r.After, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if string(r.After) != string(data) {
				t.Errorf("fixed:\n%s\nwant:\n%s", r.After, data)
			}
			var got []string
			for _, f := range r.Left {
				got = append(got, f.Code+" "+f.Path)
			}
			if !reflect.DeepEqual(got, left[name]) {
				t.Errorf("left %q, want %q", got, left[name])
			}
			// The round trip: the repaired file checks clean but for what is left.
			ex, err := Parse(file, r.After, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var after []string
			for _, f := range k.Check(ex) {
				after = append(after, f.Code+" "+f.Path)
			}
			if !reflect.DeepEqual(after, left[name]) {
				t.Errorf("the repaired file has findings %q", after)
			}
			if r.Changed() != (len(r.Fixed) > 0) {
				t.Errorf("changed %v with %d findings fixed", r.Changed(), len(r.Fixed))
			}
		})
	}
}

// A repair keeps what it does not repair byte for byte in a JSON file,
// and the 405 example's method and the 415 example's Content-Type.
func TestFixKeeps(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "fix", "api.yaml"))
	k := NewChecker(c, nil)
	for _, tt := range []struct{ name, text, keep string }{
		{"m405.json", `{"http-request": {"method": "PUT", "path": "/pets/1"}, "http-response": {"status": 405, "body": {"message": 1}}}`, `"method": "PUT"`},
		{"u415.json", `{"http-request": {"method": "POST", "path": "/pets", "headers": {"Content-Type": "text/csv"}, "body": "a,b"}, "http-response": {"status": 415, "body": {"message": 1}}}`, `"Content-Type": "text/csv"`},
		{"token.json", `{"http-request": {"method": "POST", "path": "/pets", "headers": {"Authorization": "Token $(token)"}, "body": {"name": "Rex"}}, "http-response": {"status": 201, "body": {"id": 1, "name": "Rex"}}}`, `"Authorization": "Bearer $(token)"`},
	} {
		r, err := k.Fix(tt.name, []byte(tt.text), "", Options{}, schema.NewGenerator(1))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(r.After), tt.keep) {
			t.Errorf("%s: %s is not kept:\n%s", tt.name, tt.keep, r.After)
		}
	}
}

// A file that is not an example is an error, not a repair.
func TestFixBadFile(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "fix", "api.yaml"))
	_, err := NewChecker(c, nil).Fix("bad.json", []byte(`{"http-request": {"method": "GET", "path": "/pets"}, "http-response": {"status": "ok"}}`), "", Options{}, schema.NewGenerator(1))
	if err == nil || err.Error() != "bad.json:1:82: status must be an integer such as 200, found a string" {
		t.Errorf("error %v", err)
	}
}

// Swagger form fields and an empty API key are repaired, and the repaired
// example checks clean.
func TestFixSwagger(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "check", "swagger.yaml"))
	k := NewChecker(c, nil)
	for _, name := range []string{"form.json", "create.json"} {
		r, err := k.FixFile(filepath.Join("testdata", "check", "swagger_examples", name), "", Options{}, schema.NewGenerator(3))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Left) > 0 || !r.Changed() {
			t.Errorf("%s: left %v:\n%s", name, r.Left, r.After)
		}
		if name == "create.json" && !strings.Contains(string(r.After), `"X-Key": "${key:specgate-api-key}"`) {
			t.Errorf("the empty API key is not repaired:\n%s", r.After)
		}
	}
}
