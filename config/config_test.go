package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/spec"
)

func TestExpand(t *testing.T) {
	env := map[string]string{"HOST": "api.example.com", "EMPTY": "", "a.b": "dotted"}
	getenv := func(k string) string { return env[k] }
	for _, tc := range []struct {
		in, out string
		missing []string
		err     string
	}{
		{in: "plain", out: "plain"},
		{in: "${HOST}", out: "api.example.com"},
		{in: "https://${HOST}:8443/v1", out: "https://api.example.com:8443/v1"},
		{in: "${PORT:8080}", out: "8080"},
		{in: "${BASE:http://localhost:8080}", out: "http://localhost:8080"},
		{in: "${EMPTY:fallback}", out: "fallback"},
		{in: "${NONE:}", out: ""},
		{in: "${a.b}", out: "dotted"},
		{in: "${TOKEN}", out: "generated-TOKEN", missing: []string{"TOKEN"}},
		{in: "${A}-${B:b}-${C}", out: "generated-A-b-generated-C", missing: []string{"A", "C"}},
		{in: "$${HOST} and ${HOST}", out: "${HOST} and api.example.com"},
		{in: "cost: $5 {x}", out: "cost: $5 {x}"},
		{in: "${HOST", err: `"${HOST" has a ${ without its closing }`},
		{in: "${}", err: "${} does not name a variable"},
		{in: "${1X}", err: "${1X} does not name a variable"},
		{in: "${A B}", err: "${A B} does not name a variable"},
	} {
		out, missing, err := Expand(tc.in, getenv)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Expand(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || out != tc.out || !slices.Equal(missing, tc.missing) {
			t.Errorf("Expand(%q) = %q, %q, %v; want %q, %q", tc.in, out, missing, err, tc.out, tc.missing)
		}
	}
	for in, want := range map[string]bool{"${A}": true, "x ${A:1}": true, "$${A}": false, "$${A} ${B}": true, "none": false} {
		if got := HasTemplate(in); got != want {
			t.Errorf("HasTemplate(%q) = %v", in, got)
		}
	}
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestResolvedView checks what a complete version 3 file resolves to:
// $refs followed, templates expanded, paths absolute, settings merged.
func TestResolvedView(t *testing.T) {
	cfg, err := Load("testdata/v3/full.yaml", Options{Getenv: func(k string) string {
		return map[string]string{"API_KEY": "key-1", "PAYMENTS_PORT": "9555"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Version != 3 || cfg.StrictMode || len(cfg.Warnings) != 0 {
		t.Errorf("version %d, strict %v, warnings %v", cfg.Version, cfg.StrictMode, cfg.Warnings)
	}
	if len(cfg.Tests) != 1 || len(cfg.Mocks) != 1 {
		t.Fatalf("%d tests, %d mocks; want 1 and 1", len(cfg.Tests), len(cfg.Mocks))
	}
	test := cfg.Tests[0]
	wantTest := &Test{
		Service: "orders",
		Spec: &Spec{ID: "orders", Path: abs(t, "testdata/specs/orders.yaml"), Filter: "PATH='/orders'",
			Security: []*Credential{{Scheme: "bearerAuth", Type: Bearer, Token: "dev-token"}, {Scheme: "apiKey", Type: APIKey, Token: "key-1"}}},
		Target:     Target{Scheme: "http", Host: "localhost", Port: 8080, BasePath: "/api"},
		Examples:   []string{abs(t, "testdata/examples/orders")},
		Dictionary: map[string]any{"name": "Rex", "$.order.id": json.Number("42")},
		Settings:   TestSettings{Resiliency: ResiliencyPositive, Timeout: 3 * time.Second, MaxAttempts: 5, MaxRetryDelay: DefaultMaxRetryDelay},
	}
	if got, want := jsonOf(t, test), jsonOf(t, wantTest); got != want {
		t.Errorf("test:\n%s\nwant:\n%s", got, want)
	}
	if test.Target.URL() != "http://localhost:8080/api" {
		t.Errorf("URL() = %q", test.Target.URL())
	}
	if c := test.Spec.Security[1]; c.At != (spec.Pos{Line: 66, Col: 17}) || c.Pointer != "/components/runOptions/ordersTest/openapi/specs/0/spec/securitySchemes/apiKey" {
		t.Errorf("apiKey credential at %v %s", c.At, c.Pointer)
	}
	mock := cfg.Mocks[0]
	wantMock := &Mock{
		Service:  "payments",
		Type:     Stateful,
		Specs:    []*Spec{{ID: "payments.yaml", Path: abs(t, "testdata/specs/payments.yaml")}},
		Target:   Target{Scheme: "http", Host: "127.0.0.1", Port: 9555},
		Examples: []string{abs(t, "testdata/examples/payments")},
		Settings: MockSettings{Delay: 250 * time.Millisecond, Generative: true, Lenient: true, StartTimeout: DefaultStartTimeout},
	}
	if got, want := jsonOf(t, mock), jsonOf(t, wantMock); got != want {
		t.Errorf("mock:\n%s\nwant:\n%s", got, want)
	}
	if cfg.Report.Dir != abs(t, "testdata/build/reports") || !slices.Equal(cfg.Report.Formats, []string{"ctrf", "junit"}) {
		t.Errorf("report %+v", cfg.Report)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// paymentsDependency declares one dependency, the payments spec, for the
// mock; a test writes the dependency's runOptions and settings after it.
const paymentsDependency = `dependencies:
  services:
    - service:
        definitions:
          - definition:
              specs: [../specs/payments.yaml]
`

// TestDefaults: a minimal file gets the documented defaults.
func TestDefaults(t *testing.T) {
	cfg, err := Parse("testdata/v3/minimal.yaml", []byte("version: 3\n"+paymentsDependency), Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := cfg.Mocks[0]
	if m.Type != Stateless || m.Target.URL() != "http://localhost:9000" || m.Settings != (MockSettings{Lenient: true, StartTimeout: DefaultStartTimeout}) {
		t.Errorf("mock %+v", m)
	}
	if cfg.Settings.Test != (TestSettings{Resiliency: ResiliencyNone, Timeout: DefaultTimeout, MaxAttempts: DefaultMaxAttempts, MaxRetryDelay: DefaultMaxRetryDelay}) {
		t.Errorf("test settings %+v", cfg.Settings.Test)
	}
	if cfg.Report.Dir != abs(t, "testdata/v3/build/reports/specgate") || !slices.Equal(cfg.Report.Formats, []string{"ctrf", "html"}) {
		t.Errorf("report %+v", cfg.Report)
	}
}

// TestLenientTemplates: without strictMode an unset variable is generated
// (a placeholder string, a typed value's default) and each is a warning at
// its place.
func TestLenientTemplates(t *testing.T) {
	cfg, err := Parse("testdata/v3/lenient.yaml", []byte(`version: 3
systemUnderTest:
  service:
    definitions:
      - definition:
          specs:
            - spec: {id: orders, path: ../specs/orders.yaml}
  runOptions:
    openapi:
      host: ${HOST:localhost}
      port: ${PORT}
      specs:
        - spec:
            id: orders
            securitySchemes:
              bearerAuth: {type: bearer, token: "${TOKEN}"}
`), Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Tests[0].Target.URL(); got != "http://localhost" {
		t.Errorf("target %q", got)
	}
	if got := cfg.Tests[0].Spec.Security[0].Token; got != "generated-TOKEN" {
		t.Errorf("token %q", got)
	}
	var got []string
	for _, w := range cfg.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		"testdata/v3/lenient.yaml:11:13: ${PORT} is not set and has no default: port is left at its default (set strictMode: true to make this an error)",
		`testdata/v3/lenient.yaml:16:49: ${TOKEN} is not set and has no default: using "generated-TOKEN" (set strictMode: true to make this an error)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestTypedTemplates: a template stands for a number or a boolean too.
func TestTypedTemplates(t *testing.T) {
	data := []byte("version: 3\n" + paymentsDependency + `      runOptions:
        openapi:
          port: ${MOCK_PORT:9300}
      settings:
        mock:
          generative: ${GENERATIVE:false}
`)
	cfg, err := Parse("testdata/v3/typed.yaml", data, Options{Getenv: func(k string) string {
		return map[string]string{"GENERATIVE": "true"}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	if m := cfg.Mocks[0]; m.Target.Port != 9300 || !m.Settings.Generative {
		t.Errorf("mock %+v", m)
	}
	_, err = Parse("testdata/v3/typed.yaml", data, Options{Getenv: func(k string) string {
		return map[string]string{"MOCK_PORT": "nine"}[k]
	}})
	if err == nil || err.Error() != `testdata/v3/typed.yaml:10:17: port must be an integer, found "nine" (from ${MOCK_PORT:9300})` {
		t.Errorf("error %v", err)
	}
}

// TestV2ResolvesAsItsUpgrade is the upgrade's property: a version 2 file
// and the version 3 file that `config upgrade` writes for it resolve to the
// same view, and the upgrade is version 3 (upgrading it again does
// nothing).
func TestV2ResolvesAsItsUpgrade(t *testing.T) {
	env := Options{Getenv: func(k string) string { return map[string]string{"API_KEY": "key-2"}[k] }}
	files, _ := filepath.Glob("testdata/v2/*")
	if len(files) < 3 {
		t.Fatalf("%d version 2 fixtures", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			v2, err := Load(file, env)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(file)
			out, _, err := Upgrade(file, data, env)
			if err != nil {
				t.Fatal(err)
			}
			v3, err := Parse(file, out, env)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if v2.Version != 2 || v3.Version != 3 {
				t.Errorf("versions %d, %d", v2.Version, v3.Version)
			}
			if a, b := jsonOf(t, v2), jsonOf(t, v3); a != b {
				t.Errorf("version 2 resolves to\n%s\nits upgrade to\n%s\nupgrade:\n%s", a, b, out)
			}
			if _, _, err := Upgrade(file, out, env); !errors.Is(err, ErrVersion3) {
				t.Errorf("upgrading the upgrade: %v", err)
			}
		})
	}
}

// upgradeFile upgrades a version 2 file with no environment variables set.
func upgradeFile(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := Upgrade(file, data, Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestUpgradeOutput pins the upgrade of a version 2 file: its shape, the
// comments that travel with their values, the templates left unexpanded.
func TestUpgradeOutput(t *testing.T) {
	out := upgradeFile(t, "testdata/v2/groups.yaml")
	want, err := os.ReadFile("testdata/upgrade/groups.v3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("upgrade of groups.yaml:\n%s\nwant testdata/upgrade/groups.v3.yaml:\n%s", out, want)
	}
	for _, s := range []string{"# Legacy configuration of the order service.", "# Our own specs, next to this file.", "# the service", "# slow CI", "token: ${ORDERS_TOKEN:dev-token}", "lenient: false"} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("upgrade lacks %q", s)
		}
	}
}

// TestUpgradeJSON: a JSON file is upgraded to JSON, keys in their order.
func TestUpgradeJSON(t *testing.T) {
	out := upgradeFile(t, "testdata/v2/legacy.json")
	if !json.Valid(out) || !bytes.HasPrefix(out, []byte("{\n  \"version\": 3,\n  \"systemUnderTest\": {")) {
		t.Errorf("not the JSON of version 3:\n%s", out)
	}
	if !bytes.Contains(out, []byte(`"token": "${API_KEY}"`)) {
		t.Errorf("template not kept:\n%s", out)
	}
}

func TestUpgradeRefusesBadFiles(t *testing.T) {
	data, _ := os.ReadFile("testdata/invalid/v2_unknown.yaml")
	_, _, err := Upgrade("testdata/invalid/v2_unknown.yaml", data, Options{})
	var errs Errors
	if !errors.As(err, &errs) || len(errs) != 5 {
		t.Fatalf("error %v, want the file's 5 problems", err)
	}
	data, _ = os.ReadFile("testdata/semantic/strict.yaml")
	if _, _, err := Upgrade("testdata/semantic/strict.yaml", data, Options{Getenv: testEnv}); err == nil || errors.Is(err, ErrVersion3) {
		t.Errorf("a version 3 file with errors: %v", err)
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok := Find(sub); ok {
		t.Fatal("found a configuration in an empty tree")
	}
	want := filepath.Join(dir, "a", "specgate.yml")
	if err := os.WriteFile(want, []byte("version: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, ok := Find(sub); !ok || got != want {
		t.Errorf("Find = %q, %v; want %q", got, ok, want)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ name, data, want string }{
		{"missing.yaml", "", "missing.yaml: cannot read the configuration: no such file or directory"},
		{"list.yaml", "- a\n", "list.yaml:1:1: the configuration must be a mapping, found a list"},
		{"syntax.yaml", "version: 3\nsystemUnderTest: [\n", "syntax.yaml:"},
		{"dup.yaml", "version: 3\nversion: 2\n", `dup.yaml:2:1: duplicate key "version"`},
	} {
		var err error
		if tc.data == "" {
			_, err = Load(filepath.Join(t.TempDir(), tc.name), Options{})
		} else {
			_, err = Parse(tc.name, []byte(tc.data), Options{})
		}
		var errs Errors
		if !errors.As(err, &errs) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestValuesAreJSON: dictionary values are what encoding/json decodes
// with UseNumber, from the file and from a dictionary file alike.
func TestValuesAreJSON(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "dict.yaml"), []byte("id: 7\nprice: 1.50\ntags: [a, \"${NOT_EXPANDED}\"]\nnested: {ok: true, none: null}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "specgate.yaml"), []byte("version: 3\nspecgate:\n  data:\n    dictionary: dict.yaml\n"), 0o644)
	cfg, err := Load(filepath.Join(dir, "specgate.yaml"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": json.Number("7"), "price": json.Number("1.50"), "tags": []any{"a", "${NOT_EXPANDED}"},
		"nested": map[string]any{"ok": true, "none": nil}}
	if !reflect.DeepEqual(cfg.Data.Dictionary, want) || cfg.Data.DictionaryFile != filepath.Join(dir, "dict.yaml") {
		t.Errorf("dictionary %#v from %q", cfg.Data.Dictionary, cfg.Data.DictionaryFile)
	}
}

// TestWorkedExample loads examples/specgate.yaml, the example docs/config.md
// walks through.
func TestWorkedExample(t *testing.T) {
	cfg, err := Load("../examples/specgate.yaml", Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Warnings) > 0 {
		t.Errorf("warnings: %v", cfg.Warnings)
	}
	petstore := abs(t, "../examples/petstore.yaml")
	if len(cfg.Tests) != 1 || cfg.Tests[0].Spec.ID != "petstore" || cfg.Tests[0].Spec.Path != petstore || cfg.Tests[0].Target.URL() != "http://localhost:8080/v1" {
		t.Errorf("tests: %s", jsonOf(t, cfg.Tests))
	}
	if len(cfg.Mocks) != 1 || cfg.Mocks[0].Type != Stateful || cfg.Mocks[0].Target.URL() != "http://localhost:9000/v1" ||
		cfg.Mocks[0].Settings.Delay != 50*time.Millisecond || cfg.Mocks[0].Specs[0].Path != petstore {
		t.Errorf("mocks: %s", jsonOf(t, cfg.Mocks))
	}
	cfg, err = Load("../examples/specgate.yaml", Options{Getenv: func(k string) string {
		return map[string]string{"PETSTORE_URL": "https://staging.example.com/pets/v1"}[k]
	}})
	if err != nil || cfg.Tests[0].Target != (Target{Scheme: "https", Host: "staging.example.com", BasePath: "/pets/v1"}) {
		t.Errorf("with PETSTORE_URL: %v %+v", err, cfg.Tests[0].Target)
	}
}

// TestStrictModeThroughRef: strictMode in a settings block that
// specgate.settings refers to still decides how every template expands.
func TestStrictModeThroughRef(t *testing.T) {
	_, err := Parse("testdata/v3/strict-ref.yaml", []byte("version: 3\n"+paymentsDependency+`      runOptions:
        openapi:
          host: ${MOCK_HOST}
components:
  settings:
    strict:
      strictMode: true
specgate:
  settings:
    $ref: "#/components/settings/strict"
`), Options{Getenv: func(string) string { return "" }})
	if err == nil || err.Error() != "testdata/v3/strict-ref.yaml:10:17: ${MOCK_HOST} is not set and has no default (strictMode is on)" {
		t.Errorf("error %v", err)
	}
}
