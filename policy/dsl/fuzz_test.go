package dsl_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/policy/dsl"
	"github.com/specgate/specgate/policy/input"
	"github.com/specgate/specgate/spec"
)

// pathSeeds are JSONPaths in every form rulesets write, and broken ones.
var pathSeeds = []string{
	"$", "$.info", "$.paths./pets.get", "$.paths[*][get,put,post]", `$['x-a']["b c"]`, "$..parameters",
	"$..*", "$..[?(@.in == 'query')]", "$.tags[0]", "$.tags[-1]", "$.tags[1:3]", "$.tags[:2]", "$.tags[1:]",
	"$.paths.*~", "#Op.responses", `$.paths[?(@property.match(/^\/v[0-9]+/i))]`,
	"$.x[?(!@.a && (@.b === 1 || typeof @.c === 'string'))]", "$..[?(@property === 'x-internal-id')]~",
	"$.paths[?(@property.startsWith('/internal'))]", "$.a[?(@.b.length > 2 && @.c.indexOf('x') != -1)]",
	"$.a[?(@parentProperty == 'get' && /^[a-z]+$/.test(@property))]", "$.a[?(@.b.toLowerCase().trim().endsWith('z'))]",
	"$.a[?(@['x-y'] !== undefined && @.n <= -1.5e3 || @.s.includes(\"q\"))]",
	"paths", "$.paths[", "$.a~.b", "$..", "$.a[?(@.b ==)]", "$.a[?(@.b.foo())]", "$.a[?(@root.x)]",
	"$.a[(@.length-1)]", "$.a[0:1:2]", "$.a[?(@.b.match(/(?=x)/))]", "$['unterminated", "$.a[?(@.b == 'x'",
}

// FuzzParsePath: parsing any string returns a path or a *PathError whose
// offset lies within the string; never a panic.
func FuzzParsePath(f *testing.F) {
	for _, s := range pathSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p, err := dsl.ParsePath(src)
		if err != nil {
			var pe *dsl.PathError
			if !errors.As(err, &pe) {
				t.Fatalf("ParsePath(%q): error %T (%v), want *dsl.PathError", src, err, err)
			}
			if pe.Offset < 0 || pe.Offset > len(src) || pe.Msg == "" {
				t.Fatalf("ParsePath(%q): error at offset %d of %d: %v", src, pe.Offset, len(src), err)
			}
			return
		}
		if p == nil || p.Src != src {
			t.Fatalf("ParsePath(%q) = %+v", src, p)
		}
	})
}

// FuzzTranslateRegex: a JavaScript pattern translates to an RE2 pattern
// that Go (and so OPA's regex builtins) compile, or to a *RegexError;
// translation never panics, and a pattern without backslashes, classes,
// groups or flags is kept as it is.
func FuzzTranslateRegex(f *testing.F) {
	for _, s := range []struct{ src, flags string }{
		{`^[a-z]+$`, ""}, {`^\/v1`, "i"}, {`\u00e9\u{1F600}`, "u"}, {`(?<year>\d{4})`, "g"}, {`[^]`, ""},
		{`a.b`, "s"}, {`^x$`, "im"}, {`foo(?!bar)`, ""}, {`(?<=a)b`, ""}, {`(a)\1`, ""}, {`\k<n>`, ""},
		{`a{2,1}`, ""}, {`\cJ\0`, ""}, {`[\1]`, ""}, {`x`, "y"}, {`x`, "q"}, {`\u{`, ""}, {`\`, ""},
	} {
		f.Add(s.src, s.flags)
	}
	f.Fuzz(func(t *testing.T, src, flags string) {
		re, err := dsl.TranslateRegex(src, flags)
		if err != nil {
			var rerr *dsl.RegexError
			if !errors.As(err, &rerr) {
				t.Fatalf("TranslateRegex(%q, %q): error %T (%v), want *dsl.RegexError", src, flags, err, err)
			}
			return
		}
		if _, err := regexp.Compile(re.RE2); err != nil {
			t.Fatalf("TranslateRegex(%q, %q) = %q, which RE2 rejects: %v", src, flags, re.RE2, err)
		}
		if flags == "" && !strings.ContainsAny(src, `\[(`) && re.RE2 != src {
			t.Fatalf("TranslateRegex(%q) = %q, want it unchanged", src, re.RE2)
		}
		if _, err := dsl.ParsePattern("/" + src + "/" + flags); err != nil && !strings.Contains(src, "/") {
			t.Fatalf("ParsePattern(/%s/%s): %v, but TranslateRegex accepted it", src, flags, err)
		}
	})
}

// rulesetSeeds are small rulesets; the repository's full ruleset (every
// function and JSONPath form) is added too.
var rulesetSeeds = []string{
	"rules:\n  r:\n    description: Summaries are set.\n    severity: error\n    given: \"$.paths[*][get,put]\"\n    then: {field: summary, function: truthy}\n",
	"aliases:\n  Op: [\"$.paths[*][get,post]\"]\nrules:\n  r:\n    given: '#Op'\n    then:\n      - {field: operationId, function: pattern, functionOptions: {match: '/^[a-z][a-zA-Z0-9]*$/'}}\n      - {field: tags, function: length, functionOptions: {min: 1, max: 3}}\n",
	"formats: [oas3]\nrules:\n  r:\n    message: '{{property}} of {{path}}: {{error}} ({{value}})'\n    given: \"$..parameters[?(@.in == 'query')]\"\n    then: {field: name, function: casing, functionOptions: {type: camel, disallowDigits: true, separator: {char: '-', allowLeading: true}}}\n",
	"rules:\n  r:\n    given: $.info\n    then: {function: schema, functionOptions: {schema: {type: object, required: [title]}, dialect: draft7, allErrors: true}}\n",
	"rules:\n  a: {given: $.tags, then: {function: alphabetical, functionOptions: {keyedBy: name}}}\n  b: {given: $.info, then: {function: xor, functionOptions: {properties: [summary, description]}}}\n  c: {given: '$..enum^', then: {function: typedEnum}}\n  d: {given: '$.components.schemas', then: {function: unreferencedReusableObject, functionOptions: {reusableObjectsLocation: '#/components/schemas'}}}\n",
	"rules:\n  r:\n    given: [\"$.paths.*~\", \"$.servers[0].url\"]\n    then: {function: enumeration, functionOptions: {values: [a, 1, true, null]}}\n  s: off\n  operation-tags: warn\n",
	"rules:\n  r:\n    given: \"$.x[?(@property.match(/a\\\\/b/) || @.n > 1.5e3)]\"\n    then: {field: \"a.b['c']\", function: defined}\n",
}

// fuzzDoc is the document compiled rules are evaluated on.
const fuzzDoc = `openapi: 3.1.0
info: {title: Pets, version: "1", summary: s, description: d}
servers: [{url: "https://example.com/v1"}]
tags: [{name: b}, {name: a}]
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      tags: [pets]
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string, enum: [a, 1]}}
        - {name: page_size, in: query, schema: {type: integer}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
components:
  schemas:
    Pet: {type: object, properties: {name: {type: string}}}
    Unused: {type: string}
`

// FuzzCompileRuleset: a ruleset file either fails to parse or compile
// with positioned *spec.Errors, or every definition compiles to a Rego
// module that OPA parses, compiles (with the sandboxed capabilities) and
// evaluates without error. A compile or evaluation error of generated Rego
// is a bug of the compiler, never of the ruleset.
func FuzzCompileRuleset(f *testing.F) {
	for _, s := range rulesetSeeds {
		f.Add([]byte(s))
	}
	if data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "custom", "ruleset.yaml")); err == nil {
		f.Add(data)
	} else {
		f.Fatal(err)
	}
	doc, err := spec.NewLoader(spec.Options{}).LoadBytes(context.Background(), "api.yaml", []byte(fuzzDoc))
	if err != nil {
		f.Fatal(err)
	}
	in := input.Build(doc)
	f.Fuzz(func(t *testing.T, data []byte) {
		// A ruleset with errors is reported, never compiled (as
		// rulesets.Load does).
		rs, err := dsl.ParseRuleset("ruleset.yaml", data)
		if err != nil {
			checkSpecErrors(t, err)
			return
		}
		reg := &policy.Registry{}
		if err := reg.AddModule(dsl.LibraryFile, dsl.Library(), false); err != nil {
			t.Fatal(err)
		}
		// Custom functions get a Rego implementation that finds nothing.
		funcs := map[string]string{}
		var impl strings.Builder
		impl.WriteString("package fuzz.functions\n\n")
		for _, fn := range rs.Functions {
			if regoIdent.MatchString(fn.Value) && !regoKeywords[fn.Value] && funcs[fn.Value] == "" {
				funcs[fn.Value] = "data.fuzz.functions." + fn.Value
				impl.WriteString(fn.Value + "(_, _, _) := []\n")
			}
		}
		if err := reg.AddModule("functions.rego", impl.String(), false); err != nil {
			t.Fatal(err)
		}
		var compiled []*dsl.Compiled
		for _, d := range rs.Rules {
			if d.SeverityOnly {
				continue
			}
			c, err := dsl.Compile(d, &dsl.Env{Aliases: rs.Aliases, Functions: funcs, Formats: d.Formats})
			if err != nil {
				checkSpecErrors(t, err)
				continue
			}
			if err := reg.AddModule(c.File, c.Source, false); err != nil {
				if strings.Contains(err.Error(), "is already defined in") {
					continue // the same id twice in one file
				}
				t.Fatalf("rule %q: generated Rego does not parse: %v\n%s", c.ID, err, c.Source)
			}
			compiled = append(compiled, c)
		}
		if len(compiled) == 0 {
			return
		}
		if err := reg.Validate(); err != nil {
			t.Fatalf("generated metadata is invalid: %v\n%s", err, sources(compiled))
		}
		engine, err := policy.Compile(context.Background(), reg.Rules, reg.Libs, 5*time.Second, nil)
		if err != nil {
			t.Fatalf("generated Rego does not compile: %v\n%s", err, sources(compiled))
		}
		if _, err := engine.Eval(policy.WithDocument(context.Background(), doc), in); err != nil && !errors.Is(err, policy.ErrTimeout) {
			t.Fatalf("generated Rego fails to evaluate: %v\n%s", err, sources(compiled))
		}
	})
}

// regoIdent and regoKeywords tell the function names a Rego module can
// define.
var (
	regoIdent    = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
	regoKeywords = map[string]bool{"as": true, "contains": true, "default": true, "else": true, "every": true, "false": true,
		"if": true, "import": true, "in": true, "not": true, "null": true, "package": true, "some": true, "true": true, "with": true,
		"data": true, "input": true}
)

func sources(cs []*dsl.Compiled) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.Source)
	}
	return b.String()
}

// checkSpecErrors asserts that err is made of located *spec.Errors (or
// MissingFunctionErrors, which are located too).
func checkSpecErrors(t *testing.T, err error) {
	t.Helper()
	for _, e := range dsl.Errors(err) {
		var se *spec.Error
		var mf *dsl.MissingFunctionError
		switch {
		case errors.As(e, &se):
			if se.File == "" || se.Msg == "" || se.Pos.Line < 0 || (se.Pos.Line > 0 && se.Pos.Col < 1) {
				t.Fatalf("error without a file, message or 1-based position: %#v", se)
			}
		case errors.As(e, &mf):
			if mf.Pos.Line < 1 || mf.Pos.Col < 1 {
				t.Fatalf("missing function error without a position: %#v", mf)
			}
		default:
			t.Fatalf("error %T (%v) is not a *spec.Error", e, e)
		}
	}
}
