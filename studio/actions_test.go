package studio

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/filetest"
)

// act previews an action, checks that the preview wrote nothing, applies
// it with the preview's versions and returns the plan.
func (c *studio) act(name string, params any) Plan {
	c.t.Helper()
	raw, _ := json.Marshal(params)
	before := c.snapshot()
	var preview Plan
	if code := c.do(http.MethodPost, "/api/actions/"+name, ActionRequest{Params: raw}, &preview); code != http.StatusOK {
		c.t.Fatalf("preview %s: status %d", name, code)
	}
	if after := c.snapshot(); !maps(before, after) {
		c.t.Fatalf("preview of %s wrote files", name)
	}
	expect := map[string]string{}
	for _, ch := range preview.Changes {
		expect[ch.Path] = ch.Base
	}
	var done Plan
	if code := c.do(http.MethodPost, "/api/actions/"+name, ActionRequest{Params: raw, Apply: true, Expect: expect}, &done); code != http.StatusOK {
		c.t.Fatalf("apply %s: status %d: %+v", name, code, done)
	}
	if !done.Applied {
		c.t.Fatalf("apply %s: not applied", name)
	}
	for i := range done.Changes {
		if done.Changes[i].Diff != preview.Changes[i].Diff {
			c.t.Errorf("%s: the applied diff of %s differs from the preview's", name, done.Changes[i].Path)
		}
	}
	return done
}

func (c *studio) snapshot() map[string]string {
	files, _, err := c.s.ws.Tree()
	if err != nil {
		c.t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[f.Path] = c.read(f.Path)
	}
	return out
}

func maps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// kept reports whether every line of before is in after, in order: the
// edit only added lines.
func kept(before, after string) bool {
	lines := strings.Split(after, "\n")
	i := 0
	for _, l := range strings.Split(before, "\n") {
		for i < len(lines) && lines[i] != l {
			i++
		}
		if i == len(lines) {
			return false
		}
		i++
	}
	return true
}

func ops(p Plan) []string {
	var out []string
	for _, c := range p.Changes {
		s := c.Op + " " + c.Path
		if c.To != "" {
			s += " -> " + c.To
		}
		out = append(out, s)
	}
	return out
}

func TestImportExamples(t *testing.T) {
	c := start(t, workspace(t))
	before := c.read("api.yaml")
	plan := c.act("import-examples", SpecParams{Spec: "api.yaml", Files: []string{"api_examples/create_pet.json"}, Remove: true})
	if got, want := ops(plan), []string{"delete api_examples/create_pet.json", "write api.yaml"}; !slices.Equal(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
	after := c.read("api.yaml")
	if !kept(before, after) {
		t.Errorf("the import changed lines it did not add:\n%s", after)
	}
	for _, want := range []string{
		"            schema: {$ref: \"parts/pet.yaml#/NewPet\"}\n            examples:\n              create_pet:\n                value:\n                  name: Rex\n      responses:",
		"              schema: {$ref: \"parts/pet.yaml#/Pet\"}\n              examples:\n                create_pet:\n                  value:\n                    id: 7\n                    name: Rex\n  /pets/{id}:",
	} {
		if !strings.Contains(after, want) {
			t.Errorf("api.yaml lacks\n%s\nin\n%s", want, after)
		}
	}
	if c.exists("api_examples/create_pet.json") {
		t.Error("the imported file is still there")
	}
	// The spec is still valid and its new examples are checked as inline
	// ones: no example finding.
	st := c.check("api.yaml", after)
	if ds := st["validate"].Diagnostics; len(ds) != 0 {
		t.Errorf("validate after the import: %v", ds)
	}
	for _, d := range st["examples"].Diagnostics {
		if d.File == "api.yaml" {
			t.Errorf("inline example finding after the import: %+v", d)
		}
	}
}

func TestExportExamples(t *testing.T) {
	c := start(t, workspace(t))
	plan := c.act("export-examples", SpecParams{Spec: "api.yaml", Remove: true})
	if got, want := ops(plan), []string{"create api_examples/two.json", "write api.yaml"}; !slices.Equal(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	var file map[string]any
	if err := json.Unmarshal([]byte(c.read("api_examples/two.json")), &file); err != nil {
		t.Fatal(err)
	}
	req, _ := json.Marshal(file["http-request"])
	resp, _ := json.Marshal(file["http-response"])
	if string(req) != `{"method":"GET","path":"/pets"}` || string(resp) != `{"body":[{"id":1,"name":"Rex"},{"id":2,"name":"Tom"}],"headers":{"Content-Type":"application/json"},"status":200}` {
		t.Errorf("two.json = %s / %s", req, resp)
	}
	spec := c.read("api.yaml")
	if strings.Contains(spec, "examples:") || strings.Contains(spec, "two:") {
		t.Errorf("the inline example is still in api.yaml:\n%s", spec)
	}
	orig := c.read("api.yaml")
	if want := "                items: {$ref: \"parts/pet.yaml#/Pet\"}\n    post:"; !strings.Contains(orig, want) {
		t.Errorf("api.yaml around the removed examples:\n%s", orig)
	}
	// The exported file is a valid example of the spec.
	st := c.check("api_examples/two.json", c.read("api_examples/two.json"))
	if ds := st["examples"].Diagnostics; len(ds) != 0 {
		t.Errorf("the exported example has findings: %v", ds)
	}
}

func TestGenerateExamples(t *testing.T) {
	c := start(t, workspace(t))
	plan := c.act("generate-examples", SpecParams{Spec: "api.yaml", Operation: "GET /pets/{id}"})
	got := ops(plan)
	for _, want := range []string{"create api_examples/getPet_200.json", "create api_examples/getPet_404.json"} {
		if !slices.Contains(got, want) {
			t.Errorf("changes %v lack %q", got, want)
		}
	}
	for _, ch := range plan.Changes {
		if !strings.Contains(ch.Path, "getPet") && !strings.Contains(ch.Path, "405") {
			t.Errorf("a change for another operation: %s", ch.Path)
		}
		st := c.check(ch.Path, c.read(ch.Path))
		if ds := st["examples"].Diagnostics; len(ds) != 0 {
			t.Errorf("%s has findings: %v", ch.Path, ds)
		}
	}
	// Running it again writes nothing: the files exist.
	var again Plan
	c.do(http.MethodPost, "/api/actions/generate-examples", ActionRequest{Params: json.RawMessage(`{"spec":"api.yaml","operation":"GET /pets/{id}"}`)}, &again)
	if len(again.Changes) != 0 || len(again.Notes) == 0 {
		t.Errorf("a second generation: changes %v, notes %v", ops(again), again.Notes)
	}
}

func TestFixExamples(t *testing.T) {
	c := start(t, workspace(t))
	st := c.check("api_examples/bad_pet.json", c.read("api_examples/bad_pet.json"))
	var rules []string
	for _, d := range st["examples"].Diagnostics {
		rules = append(rules, d.Rule)
	}
	if len(rules) == 0 {
		t.Fatal("bad_pet.json has no finding before the fix")
	}
	plan := c.act("fix-examples", FixParams{File: "api_examples/bad_pet.json"})
	if got, want := ops(plan), []string{"write api_examples/bad_pet.json"}; !slices.Equal(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	fixed := c.read("api_examples/bad_pet.json")
	for _, want := range []string{`"Authorization": "Bearer abc"`, `"id": 1`} {
		if !strings.Contains(fixed, want) {
			t.Errorf("the fixed file lacks %s:\n%s", want, fixed)
		}
	}
	st = c.check("api_examples/bad_pet.json", fixed)
	if ds := st["examples"].Diagnostics; len(ds) != 0 {
		t.Errorf("findings left after the fix: %v", ds)
	}
}

func TestAddResponse(t *testing.T) {
	c := start(t, workspace(t))
	var rep ReportResponse
	if code := c.do(http.MethodGet, "/api/report?path=specgate-reports/ctrf-report.json", nil, &rep); code != http.StatusOK {
		t.Fatalf("report: %d", code)
	}
	var addable []ReportTest
	for _, tt := range rep.Tests {
		if tt.Addable {
			addable = append(addable, tt)
		} else if tt.Why != "the spec declares this response and content type" {
			t.Errorf("test %d (%s) is not addable because %q", tt.Index, tt.Name, tt.Why)
		}
	}
	if len(addable) != 1 || addable[0].Method != "GET" || addable[0].Path != "/pets/{id}" || addable[0].Status != 500 || addable[0].ContentType != "application/json" {
		t.Fatalf("addable tests %+v", addable)
	}
	before := c.read("api.yaml")
	c.act("add-response", AddResponseParams{Report: "specgate-reports/ctrf-report.json", Test: addable[0].Index})
	after := c.read("api.yaml")
	if !kept(before, after) {
		t.Errorf("the action changed lines it did not add:\n%s", after)
	}
	want := `        "404":
          description: No such pet
        "500":
          description: Internal Server Error
          content:
            application/json:
              schema:
                type: object
                properties:
                  error:
                    type: string
                  retry:
                    type: boolean
              example:
                error: boom
                retry: false
components:`
	if !strings.Contains(after, want) {
		t.Errorf("api.yaml lacks the response:\n%s", after)
	}
	// The same test is now declared: the report offers it no longer.
	c.do(http.MethodGet, "/api/report?path=specgate-reports/ctrf-report.json", nil, &rep)
	for _, tt := range rep.Tests {
		if tt.Addable {
			t.Errorf("test %d is still addable", tt.Index)
		}
	}
}

func TestUpgradeConfig(t *testing.T) {
	c := start(t, workspace(t))
	c.act("upgrade-config", ConfigParams{Path: "specgate.yaml"})
	got := c.read("specgate.yaml")
	if !strings.HasPrefix(got, "version: 3") || !strings.Contains(got, "# the service under test") {
		t.Errorf("upgraded specgate.yaml:\n%s", got)
	}
	var p map[string]any
	if code := c.do(http.MethodPost, "/api/actions/upgrade-config", ActionRequest{Params: json.RawMessage(`{"path":"specgate.yaml"}`)}, &p); code != http.StatusBadRequest ||
		!strings.Contains(p["detail"].(string), "version 3 already") {
		t.Errorf("a second upgrade: %d %v", code, p)
	}
}

func TestRenameSpec(t *testing.T) {
	c := start(t, workspace(t))
	plan := c.act("rename", RenameParams{Path: "api.yaml", To: "specs/petstore.yaml"})
	if got, want := ops(plan), []string{"rename api.yaml -> specs/petstore.yaml", "rename api_examples -> specs/petstore_examples", "write specgate.yaml"}; !slices.Equal(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	if c.exists("api.yaml") || !c.exists("specs/petstore_examples/create_pet.json") {
		t.Error("the spec or its examples did not move")
	}
	moved := c.read("specs/petstore.yaml")
	if strings.Contains(moved, `"parts/pet.yaml`) || !strings.Contains(moved, `items: {$ref: "../parts/pet.yaml#/Pet"}`) {
		t.Errorf("the moved spec's $refs were not rewritten:\n%s", moved)
	}
	cfg := c.read("specgate.yaml")
	if !strings.Contains(cfg, "      - specs/petstore.yaml   # the service under test") || !strings.Contains(cfg, "examples: [specs/petstore_examples]") {
		t.Errorf("specgate.yaml:\n%s", cfg)
	}
	// The examples follow the spec: they still check against it.
	st := c.check("specs/petstore_examples/create_pet.json", c.read("specs/petstore_examples/create_pet.json"))
	if st["examples"].Note != "checked against specs/petstore.yaml" {
		t.Errorf("the moved example is checked: %q", st["examples"].Note)
	}
}

func TestRenameRefTarget(t *testing.T) {
	c := start(t, workspace(t))
	before := c.read("api.yaml")
	plan := c.act("rename", RenameParams{Path: "parts/pet.yaml", To: "parts/animal.yaml"})
	if got, want := ops(plan), []string{"rename parts/pet.yaml -> parts/animal.yaml", "write api.yaml"}; !slices.Equal(got, want) {
		t.Fatalf("changes %v, want %v", got, want)
	}
	after := c.read("api.yaml")
	if want := strings.ReplaceAll(before, "parts/pet.yaml#", "parts/animal.yaml#"); after != want {
		t.Errorf("api.yaml after the rename:\n%s", after)
	}
}

// A rename rewrites the $refs of files in the workspace's folders, not of
// those in hidden folders or node_modules, which the tree leaves out too.
func TestRenameRefsSkipFolders(t *testing.T) {
	dir := workspace(t)
	for _, f := range []string{"more/x.yaml", ".cache/x.yaml", "node_modules/x.yaml"} {
		filetest.File(t, dir, f, "x:\n  $ref: ../parts/pet.yaml#/Pet\n")
	}
	c := start(t, dir)
	plan := c.act("rename", RenameParams{Path: "parts/pet.yaml", To: "parts/animal.yaml"})
	if got, want := ops(plan), []string{"rename parts/pet.yaml -> parts/animal.yaml", "write api.yaml", "write more/x.yaml"}; !slices.Equal(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
}

func TestActionConflicts(t *testing.T) {
	c := start(t, workspace(t))
	var preview Plan
	c.do(http.MethodPost, "/api/actions/upgrade-config", ActionRequest{Params: json.RawMessage(`{"path":"specgate.yaml"}`)}, &preview)
	// specgate.yaml changes on disk between the preview and the apply.
	orig := c.read("specgate.yaml")
	changed := orig + "# edited elsewhere\n"
	filetest.File(t, c.dir, "specgate.yaml", changed)
	var p map[string]any
	code := c.do(http.MethodPost, "/api/actions/upgrade-config", ActionRequest{Params: json.RawMessage(`{"path":"specgate.yaml"}`), Apply: true,
		Expect: map[string]string{"specgate.yaml": preview.Changes[0].Base}}, &p)
	if code != http.StatusConflict || !strings.Contains(p["detail"].(string), "changed since the action was previewed") {
		t.Errorf("apply over a changed file: %d %v", code, p)
	}
	if c.read("specgate.yaml") != changed {
		t.Error("the refused action wrote specgate.yaml")
	}
	for _, tc := range []struct {
		action, params, want string
		status               int
	}{
		{"rename", `{"path":"api.yaml","to":"../out.yaml"}`, "outside the studio's folder", http.StatusForbidden},
		{"rename", `{"path":"api.yaml","to":"parts/pet.yaml"}`, "parts/pet.yaml exists", http.StatusBadRequest},
		{"rename", `{"path":"missing.yaml","to":"x.yaml"}`, "missing.yaml", http.StatusNotFound},
		{"import-examples", `{"spec":"api.yaml","bogus":1}`, "unknown field", http.StatusBadRequest},
		{"generate-examples", `{"spec":"api.yaml","operation":"GET /nope"}`, `no operation "GET /nope"`, http.StatusBadRequest},
		{"add-response", `{"report":"api.yaml","test":0}`, "api.yaml:1:1: not a CTRF report specgate test wrote: invalid character", http.StatusBadRequest},
		{"nope", `{}`, "no action \"nope\"", http.StatusNotFound},
	} {
		var p map[string]any
		code := c.do(http.MethodPost, "/api/actions/"+tc.action, ActionRequest{Params: json.RawMessage(tc.params)}, &p)
		if code != tc.status || !strings.Contains(p["detail"].(string), tc.want) {
			t.Errorf("%s %s: %d %v, want %d with %q", tc.action, tc.params, code, p["detail"], tc.status, tc.want)
		}
	}
}

// TestFixKeepsSecurity fixes a request whose API key travels in the query
// beside a query parameter the operation does not declare: the undeclared
// one goes, the key stays, and a bearer token of the wrong form is
// repaired rather than dropped.
func TestFixKeepsSecurity(t *testing.T) {
	dir := t.TempDir()
	filetest.File(t, dir, "keys.yaml", `openapi: 3.0.3
info: {title: Keys, version: 1.0.0}
paths:
  /orders:
    get:
      security: [{key: [], bearer: []}]
      responses:
        "200": {description: ok}
components:
  securitySchemes:
    key: {type: apiKey, in: query, name: api_key}
    bearer: {type: http, scheme: bearer}
`)
	filetest.File(t, dir, "keys_examples/orders.json", `{
  "http-request": {"method": "GET", "path": "/orders?api_key=k1&debug=1", "headers": {"Authorization": "Token t1"}},
  "http-response": {"status": 200}
}
`)
	c := start(t, dir)
	c.act("fix-examples", FixParams{Spec: "keys.yaml"})
	got := c.read("keys_examples/orders.json")
	want := `{
  "http-request": {"method": "GET", "path": "/orders?api_key=k1", "headers": {"Authorization": "Bearer t1"}},
  "http-response": {"status": 200}
}
`
	if got != want {
		t.Errorf("fixed example:\n%s\nwant:\n%s", got, want)
	}
}
