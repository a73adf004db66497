package dsl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParsePathForms(t *testing.T) {
	tests := []struct {
		src   string
		check func(*Path) bool
	}{
		{"$", func(p *Path) bool { return len(p.Segments) == 0 }},
		{"$.paths./pets.get", func(p *Path) bool { return len(p.Segments) == 3 && p.Segments[1].Names[0] == "/pets" }},
		{"$.paths[*][get,put]", func(p *Path) bool { return p.Segments[1].Kind == Wildcard && len(p.Segments[2].Names) == 2 }},
		{"$['x-a'][\"b c\"]", func(p *Path) bool { return p.Segments[0].Names[0] == "x-a" && p.Segments[1].Names[0] == "b c" }},
		{"$..parameters", func(p *Path) bool { return p.Segments[0].Descend && p.Segments[0].Names[0] == "parameters" }},
		{"$..*", func(p *Path) bool { return p.Segments[0].Descend && p.Segments[0].Kind == Wildcard }},
		{"$..[?(@.in == 'query')]", func(p *Path) bool { return p.Segments[0].Descend && p.Segments[0].Kind == Filter }},
		{"$.tags[0]", func(p *Path) bool { return p.Segments[1].Kind == Index && p.Segments[1].Indices[0] == 0 }},
		{"$.tags[-1]", func(p *Path) bool { return p.Segments[1].Indices[0] == -1 }},
		{"$.tags[1:3]", func(p *Path) bool { s := p.Segments[1]; return s.Kind == Slice && *s.Start == 1 && *s.End == 3 }},
		{"$.tags[:2]", func(p *Path) bool { s := p.Segments[1]; return s.Kind == Slice && s.Start == nil && *s.End == 2 }},
		{"$.paths.*~", func(p *Path) bool { return p.KeyOf }},
		{"#Op.responses", func(p *Path) bool { return p.Alias == "Op" && p.Segments[0].Names[0] == "responses" }},
		{"$.paths[?(@property.match(/^\\/v[0-9]+/))]", func(p *Path) bool { return p.Segments[1].Kind == Filter }},
		{"$.x[?(!@.a && (@.b === 1 || typeof @.c === 'string'))]", func(p *Path) bool {
			b, ok := p.Segments[1].Expr.(Binary)
			return ok && b.Op == "&&"
		}},
		// && binds tighter than ||, and each groups from the left:
		// ((a || (b && c && d)) || e).
		{"$.x[?(@.a || @.b && @.c && @.d || @.e)]", func(p *Path) bool {
			or, _ := p.Segments[1].Expr.(Binary)
			inner, _ := or.L.(Binary)
			and, _ := inner.R.(Binary)
			first, _ := and.L.(Binary)
			return or.Op == "||" && inner.Op == "||" && and.Op == "&&" && first.Op == "&&"
		}},
	}
	for _, tt := range tests {
		p, err := ParsePath(tt.src)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", tt.src, err)
			continue
		}
		if !tt.check(p) {
			t.Errorf("ParsePath(%q) = %+v", tt.src, p)
		}
	}
}

func TestParsePathErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"paths", "at character 1: a path starts with '$'"},
		{"$.paths[", "unclosed '['"},
		{"$.a~.b", "'~' may only end the path"},
		{"$..", "'..' must be followed by"},
		{"$.a[?(@.b ==)]", "expected a value"},
		{"$.a[?(@.b.foo())]", "unsupported method foo()"},
		{"$.a[?(@.b.startsWith())]", "startsWith() takes 1 argument(s), found 0"},
		{"$.a[?(@.b.matches(/x/))]", `did you mean "match"?`},
		{"$.a[?(@.b == 'x'", "expected ')' to end the filter"},
		{"$.a[?(@root.x)]", "unsupported @root"},
		{"$.a[(@.length-1)]", "script expressions"},
		{"$.a[?(@.b.match(/(?=x)/))]", "lookahead"},
		{"$.a[0:1:2]", "slice steps"},
	}
	for _, tt := range tests {
		_, err := ParsePath(tt.src)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParsePath(%q) error = %v, want it to contain %q", tt.src, err, tt.want)
		}
	}
}

func TestTranslateRegex(t *testing.T) {
	ok := []struct{ src, flags, re2 string }{
		{`^[a-z]+$`, "", `^[a-z]+$`},
		{`^\/v1`, "i", `(?i)^/v1`},
		{`\u00e9`, "", `\x{00e9}`},
		{`(?<year>\d{4})`, "g", `(?<year>\d{4})`},
	}
	for _, tt := range ok {
		re, err := TranslateRegex(tt.src, tt.flags)
		if err != nil || re.RE2 != tt.re2 {
			t.Errorf("TranslateRegex(%q, %q) = %q, %v; want %q", tt.src, tt.flags, re.RE2, err, tt.re2)
		}
	}
	bad := []struct{ src, want string }{
		{`foo(?!bar)`, "lookahead"},
		{`(?<=a)b`, "lookbehind"},
		{`(a)\1`, "backreference"},
		{`a{2,1}`, "not valid in RE2"},
	}
	for _, tt := range bad {
		if _, err := TranslateRegex(tt.src, ""); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("TranslateRegex(%q) error = %v, want %q", tt.src, err, tt.want)
		}
	}
	if re, err := ParsePattern("/^x$/im"); err != nil || re.RE2 != "(?im)^x$" {
		t.Errorf("ParsePattern = %q, %v", re.RE2, err)
	}
}

// compileErrors parses a ruleset and compiles its rules, returning every
// error message.
func compileErrors(t *testing.T, src string) string {
	t.Helper()
	rs, err := ParseRuleset("rs.yaml", []byte(src))
	var msgs []string
	if err != nil {
		msgs = append(msgs, err.Error())
	}
	for _, d := range rs.Rules {
		if d.SeverityOnly {
			continue
		}
		if _, err := Compile(d, &Env{Aliases: rs.Aliases}); err != nil {
			msgs = append(msgs, err.Error())
		}
	}
	return strings.Join(msgs, "\n")
}

func TestCompileErrorsArePositioned(t *testing.T) {
	tests := []struct{ src, want string }{
		{"rules:\n  r:\n    given: $\n    then: {function: patern, functionOptions: {match: x}}\n",
			`rs.yaml:4:22: unknown function "patern"; did you mean "pattern"?`},
		{"rules:\n  r:\n    given: $\n    then: {function: pattern, functionOptions: {matches: x}}\n",
			`rs.yaml:4:49: "pattern" function does not support "matches" option; did you mean "match"?`},
		{"rules:\n  r:\n    given: $\n    then: {function: pattern, functionOptions: {match: 'a(?!b)'}}\n",
			`rs.yaml:4:56: regular expression /a(?!b)/: lookahead`},
		{"rules:\n  r:\n    given: $.paths[\n    then: {function: truthy}\n",
			`rs.yaml:3:12: invalid JSONPath "$.paths[" at character 8: unclosed '['`},
		{"rules:\n  r:\n    given: '#Nope'\n    then: {function: truthy}\n", `rs.yaml:3:12: unknown alias #Nope`},
		{"rules:\n  r:\n    given: $\n    then: {function: casing, functionOptions: {type: camal}}\n",
			`accept the following values: flat, camel, pascal, kebab, cobol, snake, macro; did you mean "camel"?`},
		{"rules:\n  r:\n    given: $\n    then: {function: truthy, functionOptions: {x: 1}}\n", `"truthy" function does not accept any options`},
		{"rules:\n  r:\n    given: $\n    then: {function: length}\n", `rs.yaml:4:22: "length" function needs a "min" or "max" option`},
		{"rules:\n  r:\n    given: $\n    then: {function: pattern, functionOptions: {}}\n", `rs.yaml:4:48: "pattern" function needs a "match" or "notMatch" option`},
		{"rules:\n  r:\n    given: $\n    then: {function: schema, functionOptions: {schema: {type: strin}}}\n", `rs.yaml:4:56: invalid JSON Schema: the schema is not valid against metaschema`},
		{"rules:\n  r:\n    given: $\n    severty: error\n    then: {function: truthy}\n", `rs.yaml:4:5: unknown key "severty" in rule "r"; did you mean "severity"?`},
		{"rules:\n  r:\n    given: $\n    severity: fatal\n    then: {function: truthy}\n", `rs.yaml:4:15: severity must be error, warn, info, hint or off, found "fatal"`},
		{"formats: [oas4]\nrules: {}\n", `rs.yaml:1:11: unknown format "oas4"`},
		{"rules:\n  r:\n    given: $\n    then: {function: myFn}\n", `rs.yaml:4:22: rule "r" uses function "myFn", which has no Rego implementation`},
	}
	for _, tt := range tests {
		got := compileErrors(t, tt.src)
		if !strings.Contains(got, tt.want) {
			t.Errorf("ruleset:\n%s\nerrors:\n%s\nwant: %s", tt.src, got, tt.want)
		}
	}
}

func TestCompiledModuleIsReadable(t *testing.T) {
	rs, err := ParseRuleset("rs.yaml", []byte(`rules:
  r:
    description: Summaries are set.
    severity: error
    given: "$.paths[*][get,put]"
    then: {field: summary, function: truthy}
`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(rs.Rules[0], &Env{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`package specgate.rules["r"]`, `"severity":"error"`, `# given: $.paths[*][get,put]`,
		`some k`, `in ["get", "put"]`, `dsl.fn_truthy(tv, null)`} {
		if !strings.Contains(c.Source, want) {
			t.Errorf("compiled module lacks %q:\n%s", want, c.Source)
		}
	}
}

func TestSchemaDialects(t *testing.T) {
	errs, err := ValidateValue([]any{"a", "b"}, `{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]}`, "draft2020-12", true)
	if err != nil || len(errs) != 1 || len(errs[0].Path) != 1 || errs[0].Path[0] != 1 {
		t.Errorf("2020-12 prefixItems: %+v, %v", errs, err)
	}
	if _, err := CheckSchema(`{"$ref": "file:///etc/passwd"}`, "auto"); err == nil {
		t.Error("a schema may not load other documents")
	}
}

// Errors takes apart errors.Join at any depth, in order; an error that
// wraps a joined one with %w is one error.
func TestErrors(t *testing.T) {
	a, b, c := errors.New("a"), errors.New("b"), errors.New("c")
	wrapped := fmt.Errorf("w: %w", errors.Join(a, b))
	for _, tc := range []struct {
		err  error
		want []error
	}{
		{errors.Join(a, errors.Join(b, nil, c)), []error{a, b, c}},
		{a, []error{a}},
		{wrapped, []error{wrapped}},
		{errors.Join(wrapped, c), []error{wrapped, c}},
	} {
		if got := Errors(tc.err); !slices.Equal(got, tc.want) {
			t.Errorf("Errors(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
