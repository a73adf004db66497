package examples

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
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
