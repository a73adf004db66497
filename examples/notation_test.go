package examples

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// parseOne parses s as the value of a JSON string written at line 1,
// column 7 of a file t.json ({"v": "..."}), as an example file holds it.
func parseOne(t *testing.T, s string) (Value, *spec.Error) {
	t.Helper()
	quoted, _ := json.Marshal(s)
	data := []byte(`{"v": ` + string(quoted) + `}`)
	root, err := spec.Parse("t.json", data, spec.Limits{})
	if err != nil {
		t.Fatalf("parse %s: %v", data, err)
	}
	r := &reader{file: "t.json", src: newSource("t.json", data)}
	return parseString(s, r.strAt(root.Fields[0].Value))
}

// shape writes a parsed value compactly, for comparisons.
func shape(v Value) string {
	switch v := v.(type) {
	case *Literal:
		return fmt.Sprintf("lit(%v)", v.Value)
	case *Template:
		var parts []string
		for _, p := range v.Parts {
			switch {
			case p.Env != nil:
				def := ""
				if p.Env.HasDefault {
					def = ":" + p.Env.Default
				}
				parts = append(parts, fmt.Sprintf("env(%s%s)@%d", strings.Join(p.Env.Names, "|"), def, p.Env.At.Range.Start.Col))
			case p.Lookup != nil:
				parts = append(parts, "lookup("+lookupShape(p.Lookup)+")@"+fmt.Sprint(p.Lookup.At.Range.Start.Col))
			default:
				parts = append(parts, fmt.Sprintf("text(%q)", p.Text))
			}
		}
		return "tpl[" + strings.Join(parts, " ") + "]"
	case *Capture:
		return fmt.Sprintf("capture(%s:%s)", v.Name, v.Type)
	case *TypeOf:
		return fmt.Sprintf("type(%s)", v.Type)
	case *Match:
		var ps []string
		for _, p := range v.Params {
			ps = append(ps, p.Key+"="+p.Text)
		}
		return "match(" + strings.Join(ps, "; ") + ")"
	}
	return fmt.Sprintf("%T", v)
}

func lookupShape(l *Lookup) string {
	s := l.Root
	for _, st := range l.Steps {
		switch {
		case st.Ref != nil:
			s += "[" + lookupShape(st.Ref) + "]"
		case st.IsIndex:
			s += fmt.Sprintf("[%d]", st.Index)
		default:
			s += fmt.Sprintf(".%q", st.Key)
		}
	}
	return s
}

func TestParseNotations(t *testing.T) {
	tests := []struct{ in, want string }{
		{`plain text`, `lit(plain text)`},
		{`costs $5 or $ (none)`, `lit(costs $5 or $ (none))`},
		{`$$(x) and $${Y} and $$match(z)`, `lit($(x) and ${Y} and $match(z))`},
		{`$(token)`, `tpl[lookup(token)@8]`},
		{`Bearer $(token)`, `tpl[text("Bearer ") lookup(token)@15]`},
		{`${API_KEY}`, `tpl[env(API_KEY)@8]`},
		{`${API_KEY:}`, `tpl[env(API_KEY:)@8]`},
		{`id-${A|B.c-d:dflt}-end`, `tpl[text("id-") env(A|B.c-d:dflt)@11 text("-end")]`},
		{`${META:{"a":{"b":1}}}`, `tpl[env(META:{"a":{"b":1}})@8]`},
		{`$(dataLookup.roles[ROLE].scope)`, `tpl[lookup(dataLookup."roles"[ROLE]."scope")@8]`},
		{`$(a.b[0]["c d"]['e''f'])`, `tpl[lookup(a."b"[0]."c d"."e'f")@8]`},
		{`$( request.headers.X-Request-Id )`, `tpl[lookup(request."headers"."X-Request-Id")@8]`},
		{`$(rows[$idx])`, ``}, // see malformed
		{`(token:string)`, `capture(token:string)`},
		{`(n:anything)`, `capture(n:any)`},
		{`(integer)`, `type(integer)`},
		{`(url-https)`, `type(url-https)`},
		{`(none)`, `lit((none))`},
		{`(a b:string)`, `lit((a b:string))`},
		{`$match(dataType: integer)`, `match(dataType=integer)`},
		{`$match(pattern: a,b|c{1,2}, dataType: string)`, `match(pattern=a,b|c{1,2}; dataType=string)`},
		{`$match(contains: [(integer), $(data.x), {"k": 1}], atLeast: 2)`, `match(contains=[(integer), $(data.x), {"k": 1}]; atLeast=2)`},
	}
	for _, tt := range tests {
		if tt.want == "" {
			continue
		}
		t.Run(tt.in, func(t *testing.T) {
			v, err := parseOne(t, tt.in)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if got := shape(v); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestParseNotationErrors(t *testing.T) {
	// The string starts at column 7 of t.json, its first character at 8.
	tests := []struct{ in, want string }{
		{`$(`, `t.json:1:8: unclosed $(: missing ")"`},
		{`x ${`, `t.json:1:10: unclosed ${: missing "}"`},
		{`${}`, `t.json:1:8: ${} names no variable: write ${NAME} or ${NAME:default}`},
		{`${A|1B:x}`, `t.json:1:12: invalid variable name "1B" in ${A|1B:x}: a name starts with a letter or _ and holds letters, digits, _, . and -`},
		{`$()`, `t.json:1:10: $() names nothing: write $(NAME) or $(NAME.key[0])`},
		{`$(a.)`, `t.json:1:12: a name is missing at the end of $(a.)`},
		{`$(a..b)`, `t.json:1:12: expected a name in $(a..b), found "."`},
		{`$(a[])`, `t.json:1:11: empty [] in $(a[]): write an index, a quoted key or a name`},
		{`$(a[-1])`, `t.json:1:12: expected a name in $(-1), found "-"`},
		{`$(a["x])`, `t.json:1:8: unclosed $(: missing ")"`},
		{`$(a b)`, `t.json:1:11: unexpected " " in $(a b): steps are .name or [index]`},
		{`$(rows[$idx])`, `t.json:1:15: expected a name in $($idx), found "$"`},
		{`(token:strng)`, `t.json:1:15: unknown type "strng" in the capture (token:strng) (types: string, number, integer, boolean, null, object, array, any, anyvalue, email, date, datetime, time, uuid, url, url-http, url-https, url-path, anything); did you mean "string"?`},
		{`id: $match(exact: 1)`, `t.json:1:12: a $match(...) matcher must be the whole string value, not part of "id: $match(exact: 1)"`},
		{`$match(exact: 1`, `t.json:1:8: unclosed $match(: a matcher is the whole string and ends with ")"`},
		{`$match()`, `t.json:1:8: $match() has no parameter: write $match(exact: value), $match(pattern: regex), $match(dataType: type) or $match(contains: ...)`},
		{`$match(exat: 1)`, `t.json:1:15: unknown matcher parameter "exat"; did you mean "exact"?`},
		{`$match(exact: 1, bogus: 2)`, `t.json:1:25: unknown matcher parameter "bogus"`},
		{`$match(exact: 1, exact: 2)`, `t.json:1:25: exact is written twice in $match(exact: 1, exact: 2)`},
		{`$match(exact 1)`, `t.json:1:15: expected "key: value" in $match(exact 1)`},
		{`$match(exact: )`, `t.json:1:22: exact has no value in $match(exact: )`},
		{`$match(exact: (integer))`, `t.json:1:22: exact compares with a value; to accept any value of a type write dataType: integer`},
		{`$match(exact: {"a": )`, `t.json:1:22: invalid JSON {"a":: unexpected EOF`},
		{`$match(pattern: [a-)`, "t.json:1:24: invalid pattern \"[a-\": missing closing ]: `[a-`"},
		{`$match(dataType: integr)`, `t.json:1:25: unknown dataType "integr" (types: string, number, integer, boolean, null, object, array, any, anyvalue, email, date, datetime, time, uuid, url, url-http, url-https, url-path, anything); did you mean "integer"?`},
		{`$match(contains: (intger))`, `t.json:1:26: unknown type "intger" in (intger) (types: string, number, integer, boolean, null, object, array, any, anyvalue, email, date, datetime, time, uuid, url, url-http, url-https, url-path, anything); did you mean "integer"?`},
		{`$match(contains: [[1], (integer)])`, `t.json:1:26: an alternative cannot be a literal array: put the array under data and write $(data.name)`},
		{`$match(contains: [1, ], atLeast: 1)`, `t.json:1:28: empty alternative in [1, ]`},
		{`$match(contains: [1, 2)`, `t.json:1:25: unclosed [ in the alternatives [1, 2`},
		{`$match(count: 2, atLeast: 1, contains: (integer))`, `t.json:1:15: count cannot be combined with atLeast`},
		{`$match(atLeast: 3, atMost: 2, contains: (string))`, `t.json:1:15: atLeast (3) exceeds atMost (2)`},
		{`$match(inFirst: 1, inLast: 1, contains: (string))`, `t.json:1:27: inFirst and inLast cannot be combined`},
		{`$match(minLength: 1, length: 1)`, `t.json:1:29: length cannot be combined with minLength or maxLength`},
		{`$match(minLength: 3, maxLength: 1)`, `t.json:1:15: minLength (3) exceeds maxLength (1)`},
		{`$match(atLeast: 1)`, `t.json:1:15: atLeast applies to contains, which is missing`},
		{`$match(contains: (integer), order: exact)`, `t.json:1:36: order applies to a contains operand that is an array of matcher items, given as $(data.name)`},
		{`$match(contiguous: yes, contains: $(data.a))`, `t.json:1:27: contiguous is true or false, found "yes"`},
		{`$match(order: exect, contains: $(data.a))`, `t.json:1:22: order is exact or any, found "exect"; did you mean "exact"?`},
		{`$match(atLeast: -1, contains: (string))`, `t.json:1:24: atLeast is a nonnegative integer, found "-1"`},
		{`$match(times: 0, dataType: string)`, `t.json:1:22: times is at least 1, found 0`},
		{`$match(value: each, dataType: string)`, `t.json:1:15: value counts the uses of a matcher and goes with times`},
		{`$match(contains: [1], length: 2, atIndex: 0, inFirst: 1)`, ``},
	}
	for _, tt := range tests {
		if tt.want == "" {
			continue
		}
		t.Run(tt.in, func(t *testing.T) {
			v, err := parseOne(t, tt.in)
			if err == nil {
				t.Fatalf("no error; parsed %s", shape(v))
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// A notation inside a string with escapes, in YAML and JSON, is located at
// its own column.
func TestNotationPositions(t *testing.T) {
	tests := []struct {
		name, data string
		line, col  int32
	}{
		{"json escapes", `{"v": "a\"b\u00e9\n $(x)"}`, 1, 21},
		{"json surrogate pair", `{"v": "\ud83d\ude00 $(x)"}`, 1, 21},
		{"yaml plain", "v: Bearer $(x)\n", 1, 11},
		{"yaml single quoted", "v: 'it''s $(x)'\n", 1, 11},
		{"yaml double quoted", "v: \"tab\\t$(x)\"\n", 1, 10},
		{"yaml block scalar", "v: |\n  line $(x)\n", 1, 4},
		{"yaml second line", "a: 1\nv:   \"é $(x)\"\n", 2, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := spec.Parse("t.yaml", []byte(tt.data), spec.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			n := root.Get("v")
			r := &reader{file: "t.yaml", src: newSource("t.yaml", []byte(tt.data))}
			v, perr := parseString(n.Value, r.strAt(n))
			if perr != nil {
				t.Fatal(perr)
			}
			tpl, ok := v.(*Template)
			if !ok {
				t.Fatalf("not a template: %s", shape(v))
			}
			var l *Lookup
			for _, p := range tpl.Parts {
				if p.Lookup != nil {
					l = p.Lookup
				}
			}
			if got := l.At.Range.Start; got.Line != tt.line || got.Col != tt.col {
				t.Errorf("$(x) at %d:%d, want %d:%d", got.Line, got.Col, tt.line, tt.col)
			}
		})
	}
}

// The parameters of a matcher are read into its fields.
func TestParseMatchFields(t *testing.T) {
	v, err := parseOne(t, `$match(contains: $(data.items), inLast: 3, minLength: 2, maxLength: 9, contiguous: true, order: exact)`)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(*Match)
	got := []int{m.AtLeast, m.AtMost, m.Count, m.AtIndex, m.InFirst, m.InLast, m.MinLength, m.MaxLength, m.Length}
	if want := []int{-1, -1, -1, -1, -1, 3, 2, 9, -1}; !reflect.DeepEqual(got, want) {
		t.Errorf("bounds %v, want %v", got, want)
	}
	if !m.Contiguous || m.Order != OrderExact || m.Contains.Kind != OperandRef || m.Contains.Ref.Raw != "$(data.items)" {
		t.Errorf("contiguous %v, order %v, operand %+v", m.Contiguous, m.Order, m.Contains)
	}
	v, err = parseOne(t, `$match(dataType: string, times: 2)`)
	if err != nil {
		t.Fatal(err)
	}
	if m := v.(*Match); m.Times != 2 || !m.PerValue {
		t.Errorf("times %d per value %v, want 2 and value: each by default", m.Times, m.PerValue)
	}
	v, err = parseOne(t, `$match(exact: "a, b", pattern: "^\\d{1,3}, exact: x$")`)
	if err != nil {
		t.Fatal(err)
	}
	if m := v.(*Match); m.Exact.Literal != "a, b" || m.Pattern.String() != `^\d{1,3}, exact: x$` {
		t.Errorf("exact %#v pattern %s", m.Exact.Literal, m.Pattern)
	}
}
