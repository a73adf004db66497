package policy_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/policy/internal/policytest"
	"github.com/specgate/specgate/spec"
)

// The shared helpers of the policy tests, under the names these tests use.
var (
	rule      = ruletest.Module
	compile   = policytest.Compile
	load      = policytest.Load
	loadFiles = policytest.LoadFiles
)

const api = `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses: {"200": {description: ok}}
  /b:
    post:
      responses: {"200": {description: ok}}
`

// evalAPI compiles modules as compile does and evaluates them on api,
// failing the test on an error.
func evalAPI(t *testing.T, modules ...string) []policy.Violation {
	t.Helper()
	e, err := compile(t, 0, modules...)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := e.Eval(context.Background(), input.Build(load(t, api)))
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func TestEvalCollectsEveryRuleInOneQuery(t *testing.T) {
	vs := evalAPI(t,
		rule("no-post", `violations contains {"path": op.source, "message": sprintf("%s is a POST", [op.path])} if { some op in input.operations; op.method == "post" }`),
		rule("needs-id", `violations contains {"path": array.concat(op.source, ["operationId"]), "message": "missing"} if { some op in input.operations; op.operationId == "" }`),
	)
	got := map[string]policy.Violation{}
	for _, v := range vs {
		got[v.Rule] = v
	}
	if v := got["no-post"]; v.Message != "/b is a POST" || spec.Pointer(v.Path) != "/paths/~1b/post" {
		t.Errorf("no-post = %+v", v)
	}
	if v := got["needs-id"]; v.Message != "missing" || spec.Pointer(v.Path) != "/paths/~1b/post/operationId" {
		t.Errorf("needs-id = %+v", v)
	}
	if len(vs) != 2 {
		t.Errorf("got %d violations, want 2: %+v", len(vs), vs)
	}
}

func TestFormatsGuardRules(t *testing.T) {
	e, err := compile(t, 0, rule("always", `violations contains {"path": [], "message": "x"} if true`))
	if err != nil {
		t.Fatal(err)
	}
	swagger := load(t, "swagger: \"2.0\"\ninfo: {title: T, version: \"1\"}\npaths: {}\n")
	vs, err := e.Eval(context.Background(), input.Build(swagger))
	if err != nil || len(vs) != 0 {
		t.Errorf("an oas3 rule ran on Swagger 2.0: %v %v", vs, err)
	}
}

// TestSandbox proves that user-authored Rego cannot reach the network, the
// clock or the runtime: those builtins do not exist for it.
func TestSandbox(t *testing.T) {
	for name, body := range map[string]string{
		"http.send":          `violations contains {"path": [], "message": r.body} if { r := http.send({"method": "get", "url": "http://127.0.0.1:1"}) }`,
		"time.now_ns":        `violations contains {"path": [], "message": sprintf("%d", [time.now_ns()])} if true`,
		"opa.runtime":        `violations contains {"path": [], "message": opa.runtime().env.HOME} if true`,
		"net.lookup_ip_addr": `violations contains {"path": [], "message": "x"} if { net.lookup_ip_addr("example.com") }`,
		"rand.intn":          `violations contains {"path": [], "message": sprintf("%d", [rand.intn("x", 10)])} if true`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := compile(t, 0, rule("sneaky", body))
			var ce *policy.CompileError
			if !errors.As(err, &ce) || !strings.Contains(err.Error(), "undefined function "+name) {
				t.Fatalf("compiling a rule that calls %s: %v", name, err)
			}
			if !strings.Contains(err.Error(), "user/a.rego:") {
				t.Errorf("error does not name the file and line: %v", err)
			}
		})
	}
}

func TestTimeoutIsAnError(t *testing.T) {
	e, err := compile(t, 50*time.Millisecond, rule("slow",
		`violations contains {"path": [], "message": "done"} if { count([x | some x in numbers.range(1, 100000000); x % 7 == 0]) > 0 }`))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	vs, err := e.Eval(context.Background(), input.Build(load(t, api)))
	if !errors.Is(err, policy.ErrTimeout) {
		t.Fatalf("err = %v, violations = %d; want ErrTimeout", err, len(vs))
	}
	if want := "rule evaluation exceeded its time limit (50ms) while running slow"; err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if vs != nil {
		t.Errorf("a timed-out evaluation returned partial results: %v", vs)
	}
	if time.Since(start) > time.Minute { // a hang guard: the limit is far lower
		t.Errorf("evaluation was not stopped: %s", time.Since(start))
	}
}

func TestMalformedViolationIsKept(t *testing.T) {
	vs := evalAPI(t, rule("odd", `violations contains "just a string" if true`))
	if len(vs) != 1 || !strings.Contains(vs[0].Message, "not an object") {
		t.Errorf("violations = %+v", vs)
	}
}

// TestViolationFields: a finding's message, file and path are read as they
// are, one without a message gets one saying so, and a path that is not an
// array is the document's root.
func TestViolationFields(t *testing.T) {
	vs := evalAPI(t, rule("fields", `violations contains v if {
	some v in [
		{"path": ["paths", "/a", 0], "message": "m", "file": "f.yaml"},
		{"path": "not an array", "message": "n"},
		{"path": ["info"]},
	]
}`))
	var got []string
	for _, v := range vs {
		got = append(got, fmt.Sprintf("%s %q %q %v", v.Rule, v.File, v.Message, v.Path))
	}
	slices.Sort(got)
	want := []string{
		`fields "" "n" []`,
		`fields "" "rule fields returned a violation without a message" [info]`,
		`fields "f.yaml" "m" [paths /a 0]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRegistryValidation(t *testing.T) {
	bad := strings.Replace(rule("Bad_Id", `violations contains {"path": [], "message": "x"} if false`), "Operations", "Misc", 1)
	bad = strings.Replace(bad, "[oas3]", "[oas4]", 1)
	reg := &policy.Registry{}
	if err := reg.AddModule("r.rego", bad, true); err != nil {
		t.Fatal(err)
	}
	err := reg.Validate()
	for _, want := range []string{`"Bad_Id": id must be kebab-case`, `unknown category "Misc"`, `unknown format "oas4"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to contain %q", err, want)
		}
	}
	// r.rego is embedded: a custom rule of its id is told that, not sent to
	// a file of the same name it cannot see; two custom ones name the first.
	if err := reg.AddModule("s.rego", rule("Bad_Id", ""), false); err == nil || !strings.Contains(err.Error(), `s.rego: rule "Bad_Id" is already defined as a built-in rule; choose another id`) {
		t.Errorf("duplicate of a built-in id: %v", err)
	}
	if err := reg.AddModule("t.rego", rule("other-id", ""), false); err != nil {
		t.Fatal(err)
	}
	if err := reg.AddModule("u.rego", rule("other-id", ""), false); err == nil || !strings.Contains(err.Error(), `u.rego: rule "other-id" is already defined in t.rego`) {
		t.Errorf("duplicate id: %v", err)
	}
}

func TestInputSharesConvertedValues(t *testing.T) {
	doc := load(t, api)
	in := input.Build(doc).(ast.Object)
	ops := in.Get(ast.StringTerm("operations")).Value.(*ast.Array)
	if ops.Len() != 2 {
		t.Fatalf("operations = %v", ops)
	}
	first := ops.Elem(0).Value.(ast.Object)
	node := first.Get(ast.StringTerm("node"))
	raw := in.Get(ast.StringTerm("document")).Value.(ast.Object).Get(ast.StringTerm("paths")).Value.(ast.Object).
		Get(ast.StringTerm("/a")).Value.(ast.Object).Get(ast.StringTerm("get"))
	if node != raw {
		t.Error("the operation's node is a copy of the raw document's value, not the same term")
	}
	if got := first.Get(ast.StringTerm("formats")); got != nil {
		t.Error("unexpected formats on an operation")
	}
	if f := in.Get(ast.StringTerm("formats")).String(); f != `["oas", "oas3", "oas3.1"]` {
		t.Errorf("formats = %s", f)
	}

	// A Swagger 2.0 response and the media types it produces are at one
	// place: one path for all; so are their schemas. Every $ref to a
	// target has one target path, and empty sibling lists are one.
	swagger := input.Build(load(t, `swagger: "2.0"
info: {title: T, version: "1"}
produces: [application/json, application/xml]
paths:
  /a:
    get:
      responses:
        "200": {description: ok, schema: {$ref: "#/definitions/A"}}
        "201": {description: ok, schema: {$ref: "#/definitions/A"}}
definitions:
  A: {type: object}
`)).(ast.Object)
	field := func(v *ast.Term, key string) *ast.Term { return v.Value.(ast.Object).Get(ast.StringTerm(key)) }
	resp := swagger.Get(ast.StringTerm("operations")).Value.(*ast.Array).Elem(0)
	resp = field(resp, "responses").Value.(*ast.Array).Elem(0)
	content := field(resp, "content").Value.(*ast.Array)
	if content.Len() != 2 || field(content.Elem(0), "source") != field(resp, "source") || field(content.Elem(1), "source") != field(resp, "source") ||
		field(content.Elem(0), "schemaSource") != field(content.Elem(1), "schemaSource") {
		t.Errorf("the response and its media types do not share their paths: %v", resp)
	}
	refs := swagger.Get(ast.StringTerm("refs")).Value.(*ast.Array)
	if refs.Len() != 2 || field(refs.Elem(0), "target") != field(refs.Elem(1), "target") || field(refs.Elem(0), "siblings") != field(refs.Elem(1), "siblings") {
		t.Errorf("references to one target do not share its path and their empty siblings: %v", refs)
	}
}

// TestInputRefs checks what input.refs says of each reference: where it is
// written, what it resolves to (across files and through chains) and which
// keys stand beside it.
func TestInputRefs(t *testing.T) {
	entry := `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "pet.yaml#/Pet", description: a pet}
components:
  schemas:
    Alias: {$ref: "#/components/schemas/Owner"}
    Owner: {type: object}
    Broken: {$ref: "#/components/schemas/Nope"}
    List: {allOf: [{$ref: "#/components/schemas/Owner/type"}]}
`
	pet := "Pet:\n  type: object\n  properties:\n    owner: {$ref: \"api.yaml#/components/schemas/Alias\"}\n"
	doc, dir := loadFiles(t, map[string]string{"api.yaml": entry, "pet.yaml": pet})
	refs := input.Build(doc).(ast.Object).Get(ast.StringTerm("refs")).Value.(*ast.Array)
	got := map[string]string{}
	// An item holds the documented keys, no more: past eight keys an OPA
	// object's map takes a table of its own, and a large API has tens of
	// thousands of references.
	keys := `{"circular", "error", "file", "path", "ref", "siblings", "target", "targetFile"}`
	refs.Foreach(func(r *ast.Term) {
		o := r.Value.(ast.Object)
		field := func(k string) string { return o.Get(ast.StringTerm(k)).String() }
		got[field("ref")] = strings.Join([]string{field("file"), field("path"), field("targetFile"), field("target"), field("siblings")}, " ")
		if k := ast.NewSet(o.Keys()...).String(); k != keys {
			t.Errorf("ref %s has keys %s, want %s", field("ref"), k, keys)
		}
	})
	petFile := ast.StringTerm(filepath.Join(dir, "pet.yaml")).String()
	want := map[string]string{
		`"pet.yaml#/Pet"`: `"" ["paths", "/a", "get", "responses", "200", "content", "application/json", "schema"] ` + petFile + ` ["Pet"] ["description"]`,
		// The target is the value pointed at, here itself a reference.
		`"api.yaml#/components/schemas/Alias"`: petFile + ` ["Pet", "properties", "owner"] "" ["components", "schemas", "Alias"] []`,
		`"#/components/schemas/Owner"`:         `"" ["components", "schemas", "Alias"] "" ["components", "schemas", "Owner"] []`,
		`"#/components/schemas/Nope"`:          `"" ["components", "schemas", "Broken"] "" null []`,
		// Array indices are numbers.
		`"#/components/schemas/Owner/type"`: `"" ["components", "schemas", "List", "allOf", 0] "" ["components", "schemas", "Owner", "type"] []`,
	}
	for ref, w := range want {
		if got[ref] != w {
			t.Errorf("ref %s:\n got  %s\n want %s", ref, got[ref], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d refs, want %d: %v", len(got), len(want), got)
	}
	to := input.Build(doc).(ast.Object).Get(ast.StringTerm("refsTo")).Value.(ast.Object)
	if got := to.Keys(); len(got) != 4 {
		t.Errorf("refsTo has keys %v, want 4 (unresolved references are left out)", got)
	}
	owner := to.Get(ast.StringTerm("#/components/schemas/Owner")).Value.(*ast.Array)
	if owner.Len() != 1 || owner.Elem(0).Value.(ast.Object).Get(ast.StringTerm("ref")).String() != `"#/components/schemas/Owner"` {
		t.Errorf("refsTo[#/components/schemas/Owner] = %v", owner)
	}
	if to.Get(ast.StringTerm(filepath.Join(dir, "pet.yaml")+"#/Pet")) == nil {
		t.Errorf("refsTo has no entry for the Pet of pet.yaml: %v", to.Keys())
	}
	// The indexes of a few list the very items of refs.
	for key, want := range map[string]string{"unresolvedRefs": `"#/components/schemas/Nope"`, "refsWithSiblings": `"pet.yaml#/Pet"`} {
		list := input.Build(doc).(ast.Object).Get(ast.StringTerm("index")).Value.(ast.Object).Get(ast.StringTerm(key)).Value.(*ast.Array)
		if list.Len() != 1 || list.Elem(0).Value.(ast.Object).Get(ast.StringTerm("ref")).String() != want {
			t.Errorf("%s = %v, want the item of %s", key, list, want)
		}
	}
}

// TestInputSchemasWith checks the keyword index of schemas: every schema
// with a key is listed under it, as the very value of input.schemas.
func TestInputSchemasWith(t *testing.T) {
	doc := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
paths: {}
components:
  schemas:
    A: {type: string, enum: [a]}
    B:
      type: object
      properties:
        c: {type: integer, enum: [1]}
        d: {type: string}
    E: {type: [string, "null"]}
`)
	in := input.Build(doc).(ast.Object)
	schemas := in.Get(ast.StringTerm("schemas")).Value.(*ast.Array)
	with := in.Get(ast.StringTerm("schemasWith")).Value.(ast.Object)
	enum := with.Get(ast.StringTerm("enum")).Value.(*ast.Array)
	if enum.Len() != 2 || enum.Elem(0) != schemas.Elem(0) || enum.Elem(1) != schemas.Elem(3) {
		t.Errorf("schemasWith.enum = %v, want schemas 0 and 3 of %v", enum, schemas)
	}
	if got := with.Get(ast.StringTerm("type")).Value.(*ast.Array).Len(); got != 5 {
		t.Errorf("schemasWith.type has %d schemas, want 5", got)
	}
	if got := with.Get(ast.StringTerm("properties")).Value.(*ast.Array).Len(); got != 1 {
		t.Errorf("schemasWith.properties has %d schemas, want 1", got)
	}
	ofType := in.Get(ast.StringTerm("schemasOfType")).Value.(ast.Object)
	strs := ofType.Get(ast.StringTerm("string")).Value.(*ast.Array)
	if strs.Len() != 3 || strs.Elem(0) != schemas.Elem(0) || strs.Elem(1) != schemas.Elem(2) || strs.Elem(2) != schemas.Elem(4) {
		t.Errorf("schemasOfType.string = %v, want schemas 0, 2 and 4 of %v", strs, schemas)
	}
	if ofType.Get(ast.StringTerm("null")) == nil || ofType.Get(ast.StringTerm("object")) == nil {
		t.Errorf("schemasOfType misses null or object: %v", ofType)
	}
}

func TestInputExtensionRefs(t *testing.T) {
	doc := load(t, `openapi: 3.0.3
info: {title: T, version: "1"}
paths: {}
x-webhooks:
  ping:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Ping"}
components:
  schemas:
    Ping: {type: object, x-see: [{$ref: "#/components/schemas/Pong"}]}
    Pong: {$ref: "#/components/schemas/Ping"}
`)
	refs := input.Build(doc).(ast.Object).Get(ast.StringTerm("index")).Value.(ast.Object).Get(ast.StringTerm("extensionRefs")).String()
	want := `[{"path": ["x-webhooks", "ping", "post", "requestBody", "content", "application/json", "schema"], "ref": "#/components/schemas/Ping"}, ` +
		`{"path": ["components", "schemas", "Ping", "x-see", 0], "ref": "#/components/schemas/Pong"}]`
	if refs != want {
		t.Errorf("extensionRefs =\n %s\nwant\n %s", refs, want)
	}
}

func TestInputComponentRefs(t *testing.T) {
	doc := load(t, `openapi: 3.0.3
info: {title: T, version: "1"}
paths:
  /a:
    get:
      responses:
        "200": {$ref: "#/components/responses/Ok"}
components:
  responses:
    Ok:
      description: ok
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Pet"}
  schemas:
    Pet:
      properties:
        owner: {$ref: "#/components/schemas/User"}
        name: {$ref: "#/components/schemas/User/properties/name"}
        self: {$ref: "#/components/schemas/Pet"}
    "a/b":
      items: {$ref: "#/components/schemas/a~1b"}
    User: {properties: {name: {type: string}}}
`)
	got := input.Build(doc).(ast.Object).Get(ast.StringTerm("componentRefs")).String()
	want := `{"#/components/responses/Ok": ["#/components/schemas/Pet"], ` +
		`"#/components/schemas/Pet": ["#/components/schemas/Pet", "#/components/schemas/User"], ` +
		`"#/components/schemas/a~1b": ["#/components/schemas/a~1b"]}`
	if got != want {
		t.Errorf("componentRefs =\n %s\nwant\n %s", got, want)
	}
}

// TestProseMatching: specgate.prose_matching finds the titles, summaries
// and descriptions that match a pattern, in document order and with their
// paths, skipping the data of examples, defaults and extensions (but an
// Example Object's own summary); texts of other files name their file.
func TestProseMatching(t *testing.T) {
	entry := `openapi: 3.0.3
info: {title: Pets, version: "1", description: About pets}
paths:
  /a:
    get:
      summary: Get a
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                properties:
                  title: {type: string, description: The title, example: {description: not prose}}
                  owner: {$ref: "owner.yaml#/Owner"}
                default: {title: not prose}
              examples:
                one: {summary: One, value: {description: not prose}}
      tags: [{description: not a tag list}]
x-logo: {title: not prose}
`
	owner := "Owner:\n  description: The owner\n  enum: [{title: not prose}]\n"
	doc, _ := loadFiles(t, map[string]string{"api.yaml": entry, "owner.yaml": owner})
	search := func(pattern string) ([]string, error) {
		t.Helper()
		e, err := compile(t, 0, rule("prose", fmt.Sprintf(
			`violations contains {"path": p, "message": text, "file": f} if { some [p, text, f] in specgate.prose_matching(%q) }`, pattern)))
		if err != nil {
			t.Fatal(err)
		}
		vs, err := e.Eval(policy.WithDocument(context.Background(), doc), input.Build(doc))
		var got []string
		for _, v := range vs {
			got = append(got, fmt.Sprintf("%s %s %q", filepath.Base(v.File), spec.Pointer(v.Path), v.Message))
		}
		slices.Sort(got)
		return got, err
	}
	got, err := search(".")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`. /info/description "About pets"`,
		`. /info/title "Pets"`,
		`. /paths/~1a/get/responses/200/content/application~1json/examples/one/summary "One"`,
		`. /paths/~1a/get/responses/200/content/application~1json/schema/properties/title/description "The title"`,
		`. /paths/~1a/get/responses/200/description "ok"`,
		`. /paths/~1a/get/summary "Get a"`,
		`. /paths/~1a/get/tags/0/description "not a tag list"`,
		`owner.yaml /Owner/description "The owner"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("texts matching . =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got, _ := search(`(?i)^the `); strings.Join(got, "\n") != want[3]+"\n"+want[7] {
		t.Errorf("texts matching (?i)^the = %q", got)
	}
	// A pattern that does not compile is an error of the builtin, which
	// makes the call undefined, as it does regex.match's.
	if got, err := search(`eval(`); err != nil || len(got) != 0 {
		t.Errorf("an invalid pattern: findings %q, error %v; want none", got, err)
	}
}

// TestInputMarkupTexts: the texts that may hold HTML or a script link are
// found anywhere, examples and extensions included; others are not.
func TestInputMarkupTexts(t *testing.T) {
	doc := load(t, `openapi: 3.0.3
info: {title: Pets, version: "1", description: "About <b>pets</b>"}
paths:
  /a:
    get:
      summary: "1 < 2"
      description: "See JAVASCRIPT:alert(1)"
      responses:
        "200":
          description: "plain, with javascript but no colon; and j"
          content:
            application/json:
              example: {description: "<i>in an example</i>"}
x-logo: {title: "jAvAsCrIpT:x"}
`)
	got := input.Build(doc).(ast.Object).Get(ast.StringTerm("index")).Value.(ast.Object).Get(ast.StringTerm("markupTexts")).Value
	want := ast.MustParseTerm(`{"About <b>pets</b>", "1 < 2", "See JAVASCRIPT:alert(1)", "<i>in an example</i>", "jAvAsCrIpT:x"}`).Value
	if got.Compare(want) != 0 {
		t.Errorf("markupTexts = %v, want %v", got, want)
	}
}

// TestRulesShareLibraryValues: rules evaluated on several cores share the
// values their library computes, and a value computed under `with` holds
// there only: a rule that reads the library under a replaced input, next
// to rules that read it plainly, sees each in its place.
func TestRulesShareLibraryValues(t *testing.T) {
	srcs := []string{
		"package specgate.lib.shared\n\npaths := {op.path | some op in input.operations}\n",
		rule("mocked", "import data.specgate.lib.shared\n\n"+
			`violations contains {"path": [], "message": concat(",", sort(p))} if { p := shared.paths with input.operations as [{"path": "/mock"}] }`),
	}
	for i := range 6 {
		srcs = append(srcs, rule(fmt.Sprintf("plain-%d", i), "import data.specgate.lib.shared\n\n"+
			`violations contains {"path": [], "message": concat(",", sort(shared.paths))} if true`))
	}
	e, err := compile(t, 0, srcs...)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for range 20 {
		vs, err := e.Eval(context.Background(), input.Build(load(t, api)))
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 7 {
			t.Fatalf("got %d violations, want 7: %+v", len(vs), vs)
		}
		for _, v := range vs {
			want := "/a,/b"
			if v.Rule == "mocked" {
				want = "/mock"
			}
			if v.Message != want {
				t.Fatalf("%s reported %q, want %q", v.Rule, v.Message, want)
			}
		}
	}
}

// TestViolationsOfOtherShapes: a rule whose violations is an array reports
// each element; one whose violations is neither a set nor an array reports
// that, rather than nothing.
func TestViolationsOfOtherShapes(t *testing.T) {
	vs := evalAPI(t,
		rule("listed", `violations := [{"path": ["info"], "message": "one"}, {"path": ["paths"], "message": "two"}]`),
		rule("scalar", `violations := 3`),
	)
	var got []string
	for _, v := range vs {
		got = append(got, v.Rule+": "+v.Message)
	}
	want := []string{"listed: one", "listed: two", "scalar: rule scalar: violations is not a set but number"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestEvalTimed: every rule that ran has its time and findings, slowest
// first; the first rule to need a library value computes it, and that part
// of its time is shared, named by the value; a rule that reads it later
// shares none, and a rule's own function calls are its own time.
func TestEvalTimed(t *testing.T) {
	e, err := compile(t, 0,
		"package specgate.lib.shared\n\ntotal := sum([n | some n in numbers.range(1, 200000)])\n",
		rule("a-first", "import data.specgate.lib.shared\n\n"+
			`violations contains {"path": [], "message": "big"} if { shared.total > 10; f("x") }`+"\n\nf(s) if count(s) == 1"),
		rule("b-second", "import data.specgate.lib.shared\n\n"+
			`violations contains {"path": [p], "message": "big"} if { shared.total > 10; some p in ["a", "b"] }`),
		rule("c-none", `violations contains {"path": [], "message": "never"} if false`),
	)
	if err != nil {
		t.Fatal(err)
	}
	// One core takes the rules in order of id, so a-first computes the
	// library value.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	vs, times, err := e.EvalTimed(context.Background(), input.Build(load(t, api)))
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 3 {
		t.Errorf("got %d violations, want 3: %+v", len(vs), vs)
	}
	byRule := map[string]policy.RuleTime{}
	for i, rt := range times {
		byRule[rt.Rule] = rt
		if i > 0 && rt.Time > times[i-1].Time {
			t.Errorf("%s (%v) comes after %s (%v): not slowest first", rt.Rule, rt.Time, times[i-1].Rule, times[i-1].Time)
		}
	}
	if len(times) != 3 {
		t.Fatalf("got times of %d rules, want 3: %+v", len(times), times)
	}
	first, second, none := byRule["a-first"], byRule["b-second"], byRule["c-none"]
	if first.Findings != 1 || second.Findings != 2 || none.Findings != 0 {
		t.Errorf("findings a-first %d, b-second %d, c-none %d; want 1, 2, 0", first.Findings, second.Findings, none.Findings)
	}
	if len(first.Values) != 1 || first.Values[0].Value != "data.specgate.lib.shared.total" {
		t.Fatalf("a-first computed %+v, want data.specgate.lib.shared.total alone", first.Values)
	}
	if first.Shared < first.Values[0].Time || first.Shared > first.Time || first.Shared == 0 {
		t.Errorf("a-first: shared %v, value %v, rule %v; want value <= shared <= rule, shared > 0", first.Shared, first.Values[0].Time, first.Time)
	}
	if second.Shared != 0 || len(second.Values) != 0 || none.Shared != 0 {
		t.Errorf("b-second shares %v (%+v), c-none %v; want nothing: the value was known", second.Shared, second.Values, none.Shared)
	}
	if first.Time < second.Time {
		t.Errorf("a-first took %v, less than b-second's %v, though it computed the library value", first.Time, second.Time)
	}
}

// TestViolationsByRuleWithPathsApart: the violations come by rule id
// whatever order the rules are given in, within a rule in OPA's order, and
// each keeps its own path: the paths of thousands of findings share blocks
// of memory, yet a path that grows does not write over the next one.
func TestViolationsByRuleWithPathsApart(t *testing.T) {
	vs := evalAPI(t,
		rule("zeta", `violations := [{"path": ["paths", i, "x"], "message": sprintf("%d", [i])} | some i in numbers.range(0, 4999)]`),
		rule("long", `violations contains {"path": numbers.range(1, 2000), "message": "long"} if true`),
		rule("alpha", `violations contains {"path": ["info", n], "message": "a"} if some n in ["b", "a"]`),
	)
	if len(vs) != 5003 {
		t.Fatalf("got %d violations, want 5003", len(vs))
	}
	if got := fmt.Sprintf("%s %v %s %v %s %d", vs[0].Rule, vs[0].Path, vs[1].Rule, vs[1].Path, vs[2].Rule, len(vs[2].Path)); got != "alpha [info a] alpha [info b] long 2000" {
		t.Errorf("the first three: %s", got)
	}
	for i, v := range vs[3:] {
		if v.Rule != "zeta" || v.Message != fmt.Sprint(i) || fmt.Sprint(v.Path) != fmt.Sprintf("[paths %d x]", i) {
			t.Fatalf("violation %d = %+v, want zeta's %d", i+3, v, i)
		}
	}
	for i := 3; i < len(vs)-1; i++ {
		_ = append(vs[i].Path, "grown")
		if fmt.Sprint(vs[i+1].Path) != fmt.Sprintf("[paths %d x]", i-2) {
			t.Fatalf("growing violation %d's path changed the next one: %v", i, vs[i+1].Path)
		}
	}
}
