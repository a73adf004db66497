package schema_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

func TestCompileErrors(t *testing.T) {
	f := load(t, "broken.yaml")
	cases := []struct {
		schema string
		want   string // the *spec.Error
	}{
		{"/components/schemas/BadPattern", `testdata/broken.yaml:8:16: invalid regular expression "([a-z]+": missing closing )`},
		{"/components/schemas/UsesBad", `testdata/broken.yaml:8:16: invalid regular expression "([a-z]+": missing closing )`},
		{"/components/schemas/Dangling", `testdata/broken.yaml:21:17: $ref "#/components/schemas/Missing" does not resolve: testdata/broken.yaml#/components/schemas has no "Missing"`},
	}
	for _, c := range cases {
		t.Run(c.schema, func(t *testing.T) {
			sc, err := f.set.Compile(f.node(t, c.schema), spec.PointerPath(c.schema))
			if sc != nil {
				t.Errorf("compiled, want an error")
			}
			var se *spec.Error
			if !errors.As(err, &se) {
				t.Fatalf("error %v (%T), want a *spec.Error", err, err)
			}
			if got := err.Error(); got != c.want {
				t.Errorf("error\n\t%s\nwant\n\t%s", got, c.want)
			}
			// The same error again, not a half-compiled schema.
			if _, again := f.set.Compile(f.node(t, c.schema), spec.PointerPath(c.schema)); again == nil || again.Error() != c.want {
				t.Errorf("second compile: %v", again)
			}
		})
	}
	// A bad schema stops only the schemas that reach it: not its
	// neighbours, even after the schema around them failed.
	if _, err := f.set.Compile(f.node(t, "/components/schemas/Holder"), spec.PointerPath("/components/schemas/Holder")); err == nil {
		t.Errorf("Holder compiled")
	}
	good := f.compile(t, "/components/schemas/Holder/properties/good")
	if ps := good.Validate("no", schema.Request); len(ps) != 1 || render(ps[0]) != `$ [pattern] string "no" does not match pattern "^ok$" @ broken.yaml:27:11` {
		t.Errorf("Holder/properties/good: %v", ps)
	}
	sc := f.compile(t, "/components/schemas/Fine")
	if ps := sc.Validate("abc", schema.Request); ps != nil {
		t.Errorf("Fine: %v", ps)
	}
	if ps := sc.Validate("ABC", schema.Request); len(ps) != 1 || ps[0].Keyword != "pattern" {
		t.Errorf("Fine: %v", ps)
	}
}

func TestCompileSameNode(t *testing.T) {
	f := load(t, "oas30.yaml")
	a := f.compile(t, "/components/schemas/Pet")
	b := f.compile(t, "/components/schemas/Pet")
	if a != b {
		t.Errorf("compiling the same node twice gave two schemas")
	}
}

// TestCompileViews compiles schemas as the views give them: a media type's
// schema is the $ref's target, its source the path to the $ref.
func TestCompileViews(t *testing.T) {
	f := load(t, "multi/api.yaml")
	var mt *spec.MediaType
	for _, op := range f.doc.Views().Operations {
		if op.Method == "post" {
			mt = op.RequestBody.Content[0]
		}
	}
	sc, err := f.set.Compile(mt.Schema, mt.SchemaSource)
	if err != nil {
		t.Fatal(err)
	}
	loc := sc.Location()
	if got := fmt.Sprintf("%s:%d %s", loc.File.Name, loc.Range.Start.Line, loc.Pointer); got != "testdata/multi/schemas/order.yaml:1 /Order" {
		t.Errorf("location %s", got)
	}
	ps := sc.Validate(decode(t, `{"lines": []}`), schema.Request)
	if len(ps) != 1 || render(ps[0]) != `$.lines [minItems] expected at least 1 item, found 0 @ multi/schemas/order.yaml:10:7` {
		t.Errorf("problems %v", ps)
	}
}

func TestJSONPath(t *testing.T) {
	cases := []struct {
		path []any
		want string
	}{
		{nil, "$"},
		{[]any{"items", 0, "name"}, "$.items[0].name"},
		{[]any{"a b"}, `$["a b"]`},
		{[]any{"x-rate", "_ok", "a1"}, `$["x-rate"]._ok.a1`},
		{[]any{"1a"}, `$["1a"]`},
		{[]any{""}, `$[""]`},
		{[]any{`q"uote`}, `$["q\"uote"]`},
		{[]any{"héllo"}, `$.héllo`},
	}
	for _, c := range cases {
		if got := schema.JSONPath(c.path); got != c.want {
			t.Errorf("JSONPath(%#v) = %s, want %s", c.path, got, c.want)
		}
	}
}

// TestConcurrentUse compiles and validates from many goroutines at once
// (run with -race).
func TestConcurrentUse(t *testing.T) {
	f := load(t, "oas30.yaml")
	set := schema.NewSet(f.doc)
	ptrs := []string{"/components/schemas/Pet", "/components/schemas/Shape", "/components/schemas/Node", "/components/schemas/Password"}
	values := []string{`{"name": "x"}`, `{"kind": "round", "radius": 1}`, `{"value": 1}`, `"Abcdefg1"`}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 20 {
				k := (i + j) % len(ptrs)
				sc, err := set.Compile(f.node(t, ptrs[k]), spec.PointerPath(ptrs[k]))
				if err != nil {
					t.Error(err)
					return
				}
				dir := schema.Request
				if j%2 == 1 {
					dir = schema.Response
				}
				sc.Validate(decode(t, values[k]), dir)
			}
		}()
	}
	wg.Wait()
}

// TestCompileInvalidSchema: what the dialect's metaschema refuses is an
// error at the keyword.
func TestCompileInvalidSchema(t *testing.T) {
	f := load(t, "generate.yaml")
	const ptr = "/components/schemas/NoValue"
	_, err := f.set.Compile(f.node(t, ptr), spec.PointerPath(ptr))
	if want := "testdata/generate.yaml:12:7: invalid enum: expected at least 1 item, found 0"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
