package examples

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/schema"
)

// summarize writes an example's exchange as plain JSON, for comparisons.
func summarize(t *testing.T, ex *Example) string {
	t.Helper()
	params := func(ps []Param) map[string]any {
		m := map[string]any{}
		for _, p := range ps {
			m[p.Name] = Literalize(p.Value)
		}
		return m
	}
	out := map[string]any{"partial": ex.Partial}
	if r := ex.Request; r != nil {
		out["request"] = map[string]any{"method": r.Method, "path": Literalize(r.Path), "query": params(r.Query), "headers": params(r.Headers), "body": Literalize(r.Body)}
	}
	if r := ex.Response; r != nil {
		out["response"] = map[string]any{"status": r.Status, "headers": params(r.Headers), "body": Literalize(r.Body)}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A partial example is completed with generated values for what it
// leaves out, keeps what it writes, and the result validates.
func TestComplete(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "check", "api.yaml"))
	k := NewChecker(c, nil)
	tests := []struct {
		file string
		want []string // parts of the completed exchange
	}{
		{"partial.yaml", []string{`"query":{"page":`, `"status":200`, `"headers":{"X-Total":`, `"items":[{"id":`, `"name":"Rex"`}},
		{"partial_create.yaml", []string{`"method":"POST"`, `"body":{"name":`, `"Authorization":"Bearer $(token)"`, `"status":201`, `"body":{"id":`}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			ex, err := ReadFile(filepath.Join("testdata", "check", "partial", tt.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			before := summarize(t, ex)
			done, err := k.Complete(ex, schema.NewGenerator(7))
			if err != nil {
				t.Fatal(err)
			}
			if summarize(t, ex) != before {
				t.Errorf("Complete changed the partial example:\n%s\n%s", before, summarize(t, ex))
			}
			got := summarize(t, done)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("completed example lacks %s:\n%s", w, got)
				}
			}
			if done.Partial {
				t.Error("the completed example is still partial")
			}
			if fs := k.Check(done); len(fs) > 0 {
				t.Errorf("the completed example has findings: %v", fs)
			}
			again, _ := k.Complete(ex, schema.NewGenerator(7))
			if summarize(t, again) != got {
				t.Errorf("the same seed completed differently:\n%s\n%s", got, summarize(t, again))
			}
		})
	}
}

// What cannot be completed says why; a complete example is returned as it
// is.
func TestCompleteErrors(t *testing.T) {
	c := newContract(t, filepath.Join("testdata", "check", "api.yaml"))
	k := NewChecker(c, nil)
	ex, err := Parse("nowhere.json", []byte(`{"partial": {"http-request": {"method": "GET", "path": "/nowhere"}}}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.Complete(ex, schema.NewGenerator(1)); err == nil || err.Error() != "nowhere.json:1:30: GET /nowhere matches no operation of testdata/check/api.yaml" {
		t.Errorf("error %v", err)
	}
	full, err := ReadFile(filepath.Join("testdata", "check", "api_examples", "valid_list.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := k.Complete(full, schema.NewGenerator(1)); err != nil || !reflect.DeepEqual(got, full) {
		t.Errorf("a complete example came back as %v (%v)", got, err)
	}
}
