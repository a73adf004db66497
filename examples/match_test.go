package examples

import (
	"reflect"
	"strings"
	"testing"

	"github.com/specgate/specgate/spec"
)

// problems writes a result's problems as "path: message" lines.
func problems(r Result) []string {
	var out []string
	for _, p := range r.Problems {
		out = append(out, p.Path+": "+p.Message)
	}
	return out
}

func TestMatchers(t *testing.T) {
	data := `{
  "scalar": "active",
  "obj": {"id": 101, "name": "Jack"},
  "arr": [10, 20],
  "literalMatcher": "$match(dataType: integer)",
  "product": {"id": 101, "name": "Desk lamp"},
  "nested": {"id": "$match(dataType: integer)", "details": {"category": "$match(pattern: lighting|furniture)", "available": true}},
  "lighting": {"category": "lighting", "price": "$match(dataType: number)"},
  "featured": {"featured": true},
  "required": ["$match(dataType: string)", {"tier": "premium", "id": "$match(dataType: integer)"}],
  "stages": [{"stage": "created"}, {"stage": "verified"}, {"stage": "shipped"}],
  "none": []
}`
	ctx := &Context{Data: map[string]Value{"data": valueFrom(t, data)}}
	stages := `[{"stage": "created"}, {"stage": "paid"}, {"stage": "verified"}, {"stage": "packed"}, {"stage": "shipped"}]`
	tests := []struct {
		matcher, actual string
		want            []string // problems; none when it matches
	}{
		{`$match(exact: hello)`, `"hello"`, nil},
		{`$match(exact: hello)`, `"Hello"`, []string{`$: expected exactly "hello", found "Hello"`}},
		{`$match(exact: 10)`, `10.0`, nil},
		{`$match(exact: 10)`, `"10"`, []string{`$: expected exactly 10, found "10"`}},
		{`$match(exact: [10, 20])`, `[10, 20]`, nil},
		{`$match(exact: [10, 20])`, `[20, 10]`, []string{`$: expected exactly [10,20], found [20,10]`}},
		{`$match(exact: {"id": 10})`, `{"id": 10, "x": 1}`, []string{`$: expected exactly {"id":10}, found {"id":10,"x":1}`}},
		{`$match(exact: $(data.scalar))`, `"active"`, nil},
		{`$match(exact: $(data.obj))`, `{"id": 101, "name": "Jack"}`, nil},
		{`$match(exact: $(data.obj))`, `{"id": 101, "name": "Jack", "extra": 1}`, []string{`$: expected exactly {"id":101,"name":"Jack"}, found {"extra":1,"id":101,"name":"Jack"}`}},
		{`$match(exact: $(data.arr))`, `[10, 20]`, nil},
		{`$match(exact: $(data.literalMatcher))`, `5`, []string{`$: expected exactly "$match(dataType: integer)", found 5`}},
		{`$match(exact: $(data.literalMatcher))`, `"$match(dataType: integer)"`, nil},
		{`$match(exact: $(data.missing))`, `1`, []string{`$: $(data.missing) is not resolved (nothing is stored under "data"), and no dictionary entry or generator gives a value for $`}},
		{`$match(pattern: approved|verified)`, `"verified"`, nil},
		{`$match(pattern: approved|verified)`, `"pending"`, []string{`$: "pending" does not match the pattern approved|verified`}},
		{`$match(pattern: ^\d+$)`, `123`, nil},
		{`$match(pattern: x)`, `{"a": 1}`, []string{`$: pattern x applies to a string, a number or a boolean, found {"a":1}`}},
		{`$match(dataType: integer)`, `42`, nil},
		{`$match(dataType: integer)`, `4.5`, []string{`$: expected an integer, found 4.5`}},
		{`$match(dataType: integer)`, `"4"`, []string{`$: expected an integer, found "4"`}},
		{`$match(dataType: uuid, pattern: ^a)`, `"a0f4c2de-9b4e-4f6c-8a51-2b7f3f4c1d2e"`, nil},
		{`$match(contains: $(data.product))`, `{"id": 101, "name": "Desk lamp", "stock": 8}`, nil},
		{`$match(contains: $(data.product))`, `{"id": 202, "name": "Desk lamp", "stock": 8}`, []string{`$.id: expected 101, found 202`}},
		{`$match(contains: $(data.product))`, `{"name": "Desk lamp"}`, []string{`$.id: missing; expected 101`}},
		{`$match(contains: $(data.nested))`, `{"id": 7, "x": 1, "details": {"category": "lighting", "available": true, "y": 2}}`, nil},
		{`$match(contains: $(data.nested))`, `{"id": "7", "details": {"category": "toys", "available": true}}`, []string{`$.id: expected an integer, found "7"`, `$.details.category: "toys" does not match the pattern lighting|furniture`}},
		{`$match(contains: {"k": "$match(dataType: string)"})`, `{"k": "v", "z": 0}`, nil},
		{`$match(contains: $(data.product), atLeast: 1)`, `{"id": 101, "name": "Desk lamp"}`, []string{`$: atLeast applies to arrays, and the value is an object`}},
		{`$match(contains: (integer))`, `{"a": 1}`, []string{`$: contains on an object takes one object template, found (integer)`}},
		{`$match(contains: (integer))`, `[4, 5]`, nil},
		{`$match(contains: (integer))`, `["high", "low"]`, []string{`$: no item matches (integer) among 2 items, expected at least 1`}},
		{`$match(contains: (integer))`, `"x"`, []string{`$: contains applies to an array or an object, found "x"`}},
		{`$match(contains: $(data.lighting))`, `[{"category": "furniture", "price": 80}, {"id": 101, "category": "lighting", "price": 35, "stock": 8}]`, nil},
		{`$match(contains: $(data.lighting))`, `[{"category": "lighting", "price": "unknown"}, {"category": "furniture", "price": 35}]`, []string{`$: no item matches $(data.lighting) among 2 items, expected at least 1`}},
		{`$match(contains: [(integer), (boolean), $(data.featured)])`, `["a", {"featured": true, "id": 101}]`, nil},
		{`$match(contains: [(integer), (boolean), $(data.featured)])`, `["a", {"featured": false}]`, []string{`$: no item matches [(integer), (boolean), $(data.featured)] among 2 items, expected at least 1`}},
		{`$match(contains: [hello, 3])`, `["x", 3]`, nil},
		{`$match(contains: (integer), atLeast: 2, atMost: 4)`, `[1, "a", 2]`, nil},
		{`$match(contains: (integer), atLeast: 2, atMost: 4)`, `[1, "a"]`, []string{`$: 1 item matches (integer) among 2 items, expected at least 2`}},
		{`$match(contains: (integer), atLeast: 2, atMost: 4)`, `[1, 2, 3, 4, 5]`, []string{`$: 5 items match (integer) among 5 items, expected at most 4`}},
		{`$match(contains: (string), count: 2)`, `["a", 1, "b"]`, nil},
		{`$match(contains: (string), count: 2)`, `["a", 1, "b", "c"]`, []string{`$: 3 items match (string) among 4 items, expected 2`}},
		{`$match(contains: (string), atMost: 0)`, `[1, 2]`, nil},
		{`$match(contains: (integer), atIndex: 1)`, `["created", 20, "shipped"]`, nil},
		{`$match(contains: (integer), atIndex: 1)`, `[20, "created", "shipped"]`, []string{`$[1]: "created" does not match (integer)`}},
		{`$match(contains: (integer), atIndex: 5)`, `[20]`, []string{`$: no item at index 5 of 1 items`}},
		{`$match(contains: (integer), inLast: 3, atLeast: 2)`, `[1, 2, "a", 3, "b"]`, []string{`$: 1 item matches (integer) among the last 3 of 5 items, expected at least 2`}},
		{`$match(contains: (integer), inLast: 3, atIndex: 0)`, `["x", "y", 7, "z", "w"]`, nil},
		{`$match(contains: (integer), inLast: 3, atIndex: 0)`, `[1, 2, "z", 3, 4]`, []string{`$[2]: "z" does not match (integer)`}},
		{`$match(contains: (string), inFirst: 9)`, `[1, "a"]`, nil},
		{`$match(contains: (string), inFirst: 0)`, `["a"]`, []string{`$: no item matches (string) among the first 0 of 1 items, expected at least 1`}},
		{`$match(contains: (string), inFirst: 3, atLeast: 1, minLength: 3, maxLength: 10)`, `["a", "b"]`, []string{`$: expected at least 3 items, found 2`}},
		{`$match(length: 0)`, `[]`, nil},
		{`$match(length: 0)`, `[1]`, []string{`$: expected 0 items, found 1`}},
		{`$match(maxLength: 1)`, `[1, 2]`, []string{`$: expected at most 1 items, found 2`}},
		{`$match(minLength: 1)`, `"abc"`, []string{`$: a length applies to an array, found "abc"`}},
		{`$match(contains: $(data.required))`, `["starter", {"tier": "premium", "id": 42, "active": true}]`, nil},
		{`$match(contains: $(data.required))`, `[{"tier": "premium", "id": 42}, "starter"]`, nil},
		{`$match(contains: $(data.required))`, `["starter", "other"]`, []string{`$: the items of $(data.required) do not each match a different item (in any order) among 2 items`}},
		{`$match(contains: $(data.stages), contiguous: false, order: exact)`, stages, nil},
		{`$match(contains: $(data.stages), contiguous: true, order: exact)`, stages, []string{`$: the items of $(data.stages) do not each match a different item (in order, next to each other) among 5 items`}},
		{`$match(contains: $(data.stages), contiguous: true, order: exact)`, `[{"stage": "new"}, {"stage": "created"}, {"stage": "verified"}, {"stage": "shipped"}]`, nil},
		{`$match(contains: $(data.stages), contiguous: true)`, `[{"stage": "x"}, {"stage": "shipped"}, {"stage": "created"}, {"stage": "verified"}]`, nil},
		{`$match(contains: $(data.stages), order: exact)`, `[{"stage": "shipped"}, {"stage": "created"}, {"stage": "verified"}]`, []string{`$: the items of $(data.stages) do not each match a different item (in order) among 3 items`}},
		{`$match(contains: $(data.stages), inFirst: 3, order: exact)`, stages, []string{`$: the items of $(data.stages) do not each match a different item (in order) among the first 3 of 5 items`}},
		{`$match(contains: $(data.none))`, `[1]`, []string{`$: $(data.none) is an empty array of matcher items, which matches nothing; write $match(length: 0) for an empty array`}},
		{`$match(contains: $(data.stages), atLeast: 1)`, stages, []string{`$: atLeast, atMost, count and atIndex do not apply to $(data.stages), an array of matcher items`}},
	}
	for _, tt := range tests {
		t.Run(tt.matcher+" "+tt.actual, func(t *testing.T) {
			v, err := parseOne(t, tt.matcher)
			if err != nil {
				t.Fatal(err)
			}
			got := problems(ctx.Check(v, plain(t, tt.actual), Assertions))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			// A problem points at the matcher, or at the expectation inside
			// the data it reads.
			for _, p := range ctx.Check(v, plain(t, tt.actual), Assertions).Problems {
				if (p.At.File != "t.json" || p.At.Range.Start.Col != 7) && (p.At.File != "v.json" || p.At.Range.Start.Line < 2) {
					t.Errorf("problem located at %v, want the matcher at t.json:1:7 or the data", p.At)
				}
			}
		})
	}
}

// Check walks an expected body: in Assertions mode only matchers, type
// placeholders and captures assert; Subset and Equal compare literals, and
// Equal also keys and lengths. Captures record what they matched.
func TestCheckModes(t *testing.T) {
	expected := valueFrom(t, `{"id": "(id:integer)", "name": "Rex", "tags": ["a", "(string)"], "owner": {"email": "$match(dataType: email)"}, "kind": "$(kind)"}`)
	actual := plain(t, `{"id": 7, "name": "Max", "tags": ["b", 3], "owner": {"email": "not-mail"}, "kind": "dog", "extra": true}`)
	ctx := &Context{Store: map[string]any{"kind": "cat"}}
	tests := []struct {
		mode Mode
		want []string
	}{
		{Assertions, []string{
			`$.tags[1]: expected (string), found 3`,
			`$.owner.email: expected an email, found "not-mail"`,
		}},
		{Subset, []string{
			`$.name: expected "Rex", found "Max"`,
			`$.tags[0]: expected "a", found "b"`,
			`$.tags[1]: expected (string), found 3`,
			`$.owner.email: expected an email, found "not-mail"`,
			`$.kind: expected "cat" ($(kind)), found "dog"`,
		}},
		{Equal, []string{
			`$.name: expected "Rex", found "Max"`,
			`$.tags[0]: expected "a", found "b"`,
			`$.tags[1]: expected (string), found 3`,
			`$.owner.email: expected an email, found "not-mail"`,
			`$.kind: expected "cat" ($(kind)), found "dog"`,
			`$.extra: unexpected key "extra"`,
		}},
	}
	for _, tt := range tests {
		r := ctx.Check(expected, actual, tt.mode)
		if got := problems(r); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("mode %d:\ngot  %q\nwant %q", tt.mode, got, tt.want)
		}
		if !reflect.DeepEqual(r.Captured, map[string]any{"id": plain(t, `7`)}) {
			t.Errorf("mode %d: captured %v", tt.mode, r.Captured)
		}
	}
	r := ctx.Check(valueFrom(t, `{"a": {"b": "(b:string)"}, "c": ["(integer)"]}`), plain(t, `{"a": {"b": 1}, "c": []}`), Assertions)
	if got, want := problems(r), []string{`$.a.b: (b:string) expects a string, found 1`, `$.c[0]: missing; expected (integer)`}; !reflect.DeepEqual(got, want) || r.Captured != nil {
		t.Errorf("got %q (captured %v), want %q", got, r.Captured, want)
	}
	if r := ctx.Check(expected, "text", Assertions); len(r.Problems) != 1 || r.Problems[0].Message != `expected an object, found "text"` {
		t.Errorf("a string for an object: %q", problems(r))
	}
	// A problem points at the expectation written in the file.
	r = ctx.Check(expected, actual, Assertions)
	if at := r.Problems[0].At; at.File != "v.json" || at.Range.Start != (spec0(1, 53)) {
		t.Errorf("problem at %v", at)
	}
}

func TestUses(t *testing.T) {
	each, _ := parseOne(t, `$match(dataType: string, value: each, times: 2)`)
	shared, _ := parseOne(t, `$match(dataType: string, value: any, times: 1)`)
	var u Uses
	m := each.(*Match)
	for i := 0; i < 2; i++ {
		if !u.Available(m, "hello") {
			t.Fatalf("use %d of hello refused", i+1)
		}
		u.Record(m, "hello")
	}
	if u.Available(m, "hello") || !u.Available(m, "world") {
		t.Errorf("each: hello available %v (want false), world %v (want true)", u.Available(m, "hello"), u.Available(m, "world"))
	}
	s := shared.(*Match)
	u.Record(s, "a")
	if u.Available(s, "b") {
		t.Error("value: any shares one count, and b was allowed after a used it up")
	}
	if !strings.Contains(s.Raw, "times: 1") {
		t.Fatal(s.Raw)
	}
}

func spec0(line, col int32) spec.Pos { return spec.Pos{Line: line, Col: col} }
