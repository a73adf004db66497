package examples

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// valueFrom reads JSON or YAML text as an example value (notations parsed),
// failing the test on any problem.
func valueFrom(t *testing.T, text string) Value {
	t.Helper()
	root, err := spec.Parse("v.json", []byte(text), spec.Limits{})
	if err != nil {
		t.Fatalf("parse %s: %v", text, err)
	}
	r := &reader{file: "v.json", src: newSource("v.json", []byte(text))}
	v := r.value(root)
	if len(r.errs) > 0 {
		t.Fatalf("value %s: %v", text, r.errs)
	}
	return v
}

// plain decodes JSON as the runtime sees values (UseNumber).
func plain(t *testing.T, text string) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %s: %v", text, err)
	}
	return v
}

func env(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

func TestEval(t *testing.T) {
	ctx := &Context{
		Getenv: env(map[string]string{"API_TOKEN": "secret", "ACTIVE": "false", "META": `{"source":"runtime"}`, "FALLBACK": "EMP999"}),
		Store: map[string]any{
			"token": "T1",
			"ROLE":  "admin",
			"user":  plain(t, `{"id": 7, "roles": ["reader", "writer"]}`),
			"n":     json.Number("3"),
		},
		Data: map[string]Value{
			"dataLookup": valueFrom(t, `{"roles": {"admin": {"scope": "all", "auth": "Bearer $(token)"}, "reader": {"scope": "read"}}, "list": [{"x": 1}]}`),
			"data":       valueFrom(t, `{"scalar": "active", "obj": {"id": 101, "check": "$match(dataType: integer)"}, "self": "$(data.scalar)"}`),
		},
		Request: &EchoRequest{
			Method: "GET", Path: "/pets/42",
			PathParams: map[string]string{"id": "42"},
			Query:      url.Values{"q": {"first", "second"}},
			Headers:    http.Header{"X-Request-Id": {"r-1"}},
			Body:       plain(t, `{"a": {"b": [true]}}`),
		},
	}
	tests := []struct {
		in   string // a JSON value holding notations
		want string // the resolved value as JSON
	}{
		{`"Bearer ${API_TOKEN:test-token}"`, `"Bearer secret"`},
		{`"${MISSING:test-token}"`, `"test-token"`},
		{`"${EMPLOYEE_CODE|FALLBACK:EMP123}"`, `"EMP999"`},
		{`"${ACTIVE:true}"`, `false`},
		{`"${MISSING:true}"`, `true`},
		{`"${MISSING:12.50}"`, `12.50`},
		{`"${MISSING:[\"internal\",\"test\"]}"`, `["internal","test"]`},
		{`"${META:{}}"`, `{"source":"runtime"}`},
		{`"n=${MISSING:1}"`, `"n=1"`},
		{`"${MISSING:}"`, `""`},
		{`"$(token)"`, `"T1"`},
		{`"$(n)"`, `3`},
		{`"n is $(n)"`, `"n is 3"`},
		{`"$(user)"`, `{"id":7,"roles":["reader","writer"]}`},
		{`"$(user.roles[1])"`, `"writer"`},
		{`"user $(user)"`, `"user {\"id\":7,\"roles\":[\"reader\",\"writer\"]}"`},
		{`"$(dataLookup.roles[ROLE].scope)"`, `"all"`},
		{`"$(dataLookup.roles['reader'].scope)"`, `"read"`},
		{`"$(dataLookup.roles[ROLE].auth)"`, `"Bearer T1"`},
		{`"$(dataLookup.roles[ROLE])"`, `{"auth":"Bearer T1","scope":"all"}`},
		{`"$(dataLookup.list[0].x)"`, `1`},
		{`"$(data.self)"`, `"active"`},
		{`"$(request.method) $(request.path)"`, `"GET /pets/42"`},
		{`"$(request.path.id)"`, `"42"`},
		{`"$(request.query.q)"`, `"first"`},
		{`"$(request.query.q[1])"`, `"second"`},
		{`"$(request.headers.x-request-id)"`, `"r-1"`},
		{`"$(request.body.a.b[0])"`, `true`},
		{`"$(request.body.a)"`, `{"b":[true]}`},
		{`{"id": "$(request.path.id)", "tags": ["$(token)", 1]}`, `{"id":"42","tags":["T1",1]}`},
		{`"$match(exact: 10)"`, `10`},
		{`"$match(exact: $(data.obj))"`, `{"check":"$match(dataType: integer)","id":101}`},
		{`"$$(token) ${MISSING:x}"`, `"$(token) x"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ctx.Eval(valueFrom(t, tt.in))
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if want := plain(t, tt.want); !reflect.DeepEqual(got, want) {
				t.Errorf("got %#v, want %#v", got, want)
			}
		})
	}
}

// What no notation resolves goes to the dictionary (by JSON path, then by
// field name), then to the generator; strict mode fails on variables, with
// the notation's position.
func TestEvalUnresolved(t *testing.T) {
	body := `{"user": {"email": "${EMAIL}", "name": "$(name)", "age": "(integer)", "tags": ["(string)"]}, "id": "$match(dataType: uuid)"}`
	var asked []Unresolved
	gen := func(u Unresolved) (any, error) {
		asked = append(asked, u)
		return "gen:" + string(u.Type), nil
	}
	dict := MapDictionary{"$.user.email": "a@example.com", "name": "Jo"}
	ctx := &Context{Getenv: env(nil), Dictionary: dict, Generate: gen}
	got, err := ctx.Eval(valueFrom(t, body))
	if err != nil {
		t.Fatal(err)
	}
	want := plain(t, `{"user": {"email": "a@example.com", "name": "Jo", "age": "gen:integer", "tags": ["gen:string"]}, "id": "gen:uuid"}`)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	var paths []string
	for _, u := range asked {
		paths = append(paths, u.Notation+"@"+u.Path+"/"+u.Field)
	}
	if want := []string{"(integer)@$.user.age/age", "(string)@$.user.tags[0]/tags", "$match(dataType: uuid)@$.id/id"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("generator asked for %v, want %v", paths, want)
	}

	strict := &Context{Getenv: env(nil), Strict: true, Generate: gen}
	_, err = strict.Eval(valueFrom(t, `{"a": "(integer)", "b": "x ${EMAIL}"}`))
	if err == nil || err.Error() != `v.json:1:28: ${EMAIL} is not resolved (the variable is not set and has no default) and strict mode forbids generating it` {
		t.Errorf("strict: %v", err)
	}
	_, err = (&Context{}).Eval(valueFrom(t, `{"a": "$(token)"}`))
	if err == nil || err.Error() != `v.json:1:8: $(token) is not resolved (nothing is stored under "token"), and no dictionary entry or generator gives a value for $.a` {
		t.Errorf("nothing to fill: %v", err)
	}
	_, err = (&Context{}).Eval(valueFrom(t, `["(email)"]`))
	if err == nil || err.Error() != `v.json:1:2: (email) asks for a generated value at $[0], and no dictionary entry or generator gives one` {
		t.Errorf("placeholder without generator: %v", err)
	}
	loop := &Context{Data: map[string]Value{"data": valueFrom(t, `{"a": "$(data.b)", "b": "$(data.a)"}`)}}
	_, err = loop.Eval(valueFrom(t, `"$(data.a)"`))
	if err == nil || !strings.Contains(err.Error(), "goes through more than 16 lookups") {
		t.Errorf("a lookup cycle: %v", err)
	}
	bad := &Context{Store: map[string]any{"k": plain(t, `{"x": 1}`), "m": map[string]any{}}}
	_, err = bad.Eval(valueFrom(t, `"$(m[k])"`))
	if err == nil || err.Error() != `v.json:1:6: the index k of $(m[k]) is an object, not a key or an index` {
		t.Errorf("an object as an index: %v", err)
	}
}

func TestMapDictionary(t *testing.T) {
	d := MapDictionary{"$.a.name": "by path", "name": "by field"}
	for _, tt := range []struct{ path, field, want string }{
		{"$.a.name", "name", "by path"},
		{"$.b.name", "name", "by field"},
		{"$.b.other", "other", ""},
	} {
		v, _ := d.Lookup(tt.path, tt.field)
		if got, _ := v.(string); got != tt.want {
			t.Errorf("Lookup(%s, %s) = %v, want %q", tt.path, tt.field, v, tt.want)
		}
	}
}

func TestLastField(t *testing.T) {
	for path, want := range map[string]string{"$": "", "$.a": "a", "$.a.b": "b", "$.a[0]": "", `$['x.y']`: "x.y", `$.a['it\'s']`: "it's"} {
		if got := lastField(path); got != want {
			t.Errorf("lastField(%s) = %q, want %q", path, got, want)
		}
	}
}

// A matcher without exact stands for a value that satisfies it, whichever
// parameters it writes: a value made of it (the mock's response, a
// request) passes the matcher's own check.
func TestEvalMatcherValues(t *testing.T) {
	gen := func(u Unresolved) (any, error) {
		switch u.Type {
		case TypeInteger, TypeNumber:
			return json.Number("7"), nil
		case TypeDate:
			return "2024-01-01", nil
		case TypeEmail:
			return "user@example.com", nil
		case TypeBoolean:
			return true, nil
		case "":
			return "any", nil
		}
		return "specgate", nil
	}
	data := valueFrom(t, `{"rex": {"name": "Rex", "id": "$match(pattern: ^p-[0-9]+$)"}, "pair": ["$match(dataType: integer)", "$match(pattern: ^x)"], "n": 3}`)
	ctx := &Context{Generate: gen, Data: map[string]Value{"data": data}}
	tests := []struct {
		matcher string
		want    string // the value made, as JSON
	}{
		{`$match(dataType: string)`, `"specgate"`},
		{`$match(dataType: integer)`, `7`},
		{`$match(dataType: string, pattern: ^[A-Z])`, `"A"`},
		{`$match(pattern: ^p-\d{3}$)`, `"p-000"`},
		{`$match(pattern: "^(cat|dog|bird)s?$")`, `"cat"`},
		{`$match(pattern: [^a-z]+@x)`, `"A@x"`},
		{`$match(dataType: integer, pattern: ^4[0-9]$)`, `40`},
		{`$match(dataType: date, pattern: ^2024-)`, `"2024-01-01"`},
		{`$match(dataType: email, pattern: example\.com$)`, `"user@example.com"`},
		{`$match(contains: $(data.rex))`, `{"id":"p-0","name":"Rex"}`},
		{`$match(contains: $(data.rex), minLength: 1, maxLength: 20)`, `[{"id":"p-0","name":"Rex"}]`},
		{`$match(contains: (integer))`, `[7]`},
		{`$match(contains: (integer), atLeast: 3)`, `[7,7,7]`},
		{`$match(contains: (integer), count: 2, length: 4)`, `[7,7,null,null]`},
		{`$match(contains: (string), atMost: 1, minLength: 3)`, `["specgate",null,null]`},
		{`$match(contains: (integer), atMost: 0, length: 2)`, `[null,null]`},
		{`$match(contains: (boolean), atIndex: 2)`, `[true,true,true]`},
		{`$match(contains: (integer), inLast: 2, count: 1, length: 3)`, `[null,null,7]`},
		{`$match(contains: (integer), inFirst: 1, atLeast: 1, minLength: 2)`, `[7,7]`},
		{`$match(contains: [(integer), (boolean)])`, `[7]`},
		{`$match(contains: {"kind": "dog"})`, `{"kind":"dog"}`},
		{`$match(contains: {"kind": "dog"}, minLength: 2)`, `[{"kind":"dog"},{"kind":"dog"}]`},
		{`$match(contains: $(data.pair), contiguous: true, order: exact)`, `[7,"x"]`},
		{`$match(contains: $(data.pair), minLength: 3)`, `[7,"x",7]`},
		{`$match(contains: $(data.n))`, `[3]`},
		{`$match(minLength: 2)`, `["any","any"]`},
		{`$match(length: 0)`, `[]`},
		{`$match(maxLength: 3)`, `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.matcher, func(t *testing.T) {
			m := valueFrom(t, strconv.Quote(tt.matcher))
			got, err := ctx.Eval(m)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if want := plain(t, tt.want); !reflect.DeepEqual(got, want) {
				t.Errorf("got %s, want %s", show(got), tt.want)
			}
			if res := ctx.Check(m, got, Subset); !res.OK() {
				t.Errorf("the value made does not satisfy the matcher: %v", res.Problems)
			}
		})
	}
}

// A matcher that no value satisfies is an error at its position, and a
// dictionary entry that satisfies a matcher is taken as it is.
func TestEvalMatcherValueErrors(t *testing.T) {
	ctx := &Context{Generate: func(Unresolved) (any, error) { return json.Number("7"), nil }}
	for matcher, want := range map[string]string{
		`$match(contains: (integer), inFirst: 1, atLeast: 2)`: `v.json:1:1: cannot make a value that satisfies $match(contains: (integer), inFirst: 1, atLeast: 2): the value tried, [7,7], fails: 1 item matches (integer) among the first 1 of 2 items, expected at least 2`,
		`$match(pattern: a^b)`:                                `v.json:1:1: no text matches the pattern a^b of $match(pattern: a^b)`,
		`$match(dataType: boolean, pattern: ^\d+$)`:           `v.json:1:1: cannot make a value that satisfies $match(dataType: boolean, pattern: ^\d+$): the value tried, 0, fails: expected a boolean, found 0`,
	} {
		_, err := ctx.Eval(valueFrom(t, strconv.Quote(matcher)))
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", matcher, err, want)
		}
	}
	dict := &Context{Dictionary: MapDictionary{"name": "Max", "code": "lower"}, Generate: func(Unresolved) (any, error) { return "gen", nil }}
	got, err := dict.Eval(valueFrom(t, `{"name": "$match(pattern: ^[A-Z])", "code": "$match(pattern: ^[A-Z])"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := plain(t, `{"name": "Max", "code": "A"}`); !reflect.DeepEqual(got, want) {
		t.Errorf("with a dictionary: got %v, want %v", got, want)
	}
}
