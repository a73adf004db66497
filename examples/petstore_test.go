package examples

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The worked examples of the bundled specification load without a problem
// and each names an operation and a status that petstore.yaml declares,
// with only the query parameters it declares.
func TestPetstoreExamples(t *testing.T) {
	set := Discover("petstore.yaml", nil, Options{})
	if len(set.Errors) > 0 {
		t.Fatal(set.Errors)
	}
	var names []string
	for _, ex := range set.Examples {
		names = append(names, ex.Name)
	}
	want := []string{"health", "pets/echo_pet", "pets/first_pet", "pets/get_pet", "get_pet_with_matchers", "pets/list_pets", "pets/list_pets_contains", "pets/pet_not_found"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("examples %q, want %q", names, want)
	}
	doc := load(t, "petstore.yaml")
	for _, ex := range set.Examples {
		var found bool
		for _, op := range doc.Views().Operations {
			template := "^" + regexp.MustCompile(`\\\{[^}]*\\\}`).ReplaceAllString(regexp.QuoteMeta(op.Path), `(?:[^/]+|\$\([^)]*\))`) + "$"
			if strings.ToUpper(op.Method) != ex.Request.Method || !regexp.MustCompile(template).MatchString(ex.Request.RawPath) {
				continue
			}
			found = true
			statuses := map[string]bool{}
			for _, r := range op.Responses {
				statuses[r.Status] = true
			}
			if !statuses[strconv.Itoa(ex.Response.Status)] {
				t.Errorf("%s: status %d is not declared by %s %s", ex.Name, ex.Response.Status, op.Method, op.Path)
			}
			declared := map[string]bool{}
			for _, p := range op.Parameters {
				declared[p.In+":"+p.Name] = true
			}
			for _, q := range ex.Request.Query {
				if !declared["query:"+q.Name] {
					t.Errorf("%s: query parameter %s is not declared", ex.Name, q.Name)
				}
			}
		}
		if !found {
			t.Errorf("%s: %s %s is no operation of petstore.yaml", ex.Name, ex.Request.Method, ex.Request.RawPath)
		}
	}

	// first_pet: the fixture captures the first pet's id, which the
	// request sends and the response must echo.
	first := set.Named("pets/first_pet")
	ctx := first.Context(nil)
	r := ctx.Check(first.Before[0].Response.Body, plain(t, `{"items": [{"id": "p-9", "name": "Max"}]}`), Assertions)
	if !r.OK() {
		t.Fatal(problems(r))
	}
	ctx.Store = r.Captured
	if path, err := ctx.Eval(first.Request.Path); err != nil || path != "/pets/p-9" {
		t.Errorf("path %v (%v)", path, err)
	}
	if got := problems(ctx.Check(first.Response.Body, plain(t, `{"id": "p-8", "name": "Max"}`), Assertions)); !reflect.DeepEqual(got, []string{`$.id: expected exactly "p-9", found "p-8"`}) {
		t.Errorf("response check %q", got)
	}
	// echo_pet: the mock answers with the id it was asked for.
	echo := set.Named("pets/echo_pet")
	ctx = echo.Context(&Context{Request: &EchoRequest{Method: "GET", Path: "/pets/p-7", PathParams: map[string]string{"petId": "p-7"}}})
	if body, err := ctx.Eval(echo.Response.Body); err != nil || !reflect.DeepEqual(body, map[string]any{"id": "p-7", "name": "Echo"}) {
		t.Errorf("echo body %v (%v)", body, err)
	}
	// list_pets_contains: a page holding Rex matches, one without does not.
	list := set.Named("pets/list_pets_contains")
	ctx = list.Context(nil)
	if r := ctx.Check(list.Response.Body, plain(t, `{"items": [{"id": "p-2", "name": "Mia"}, {"id": "p-1", "name": "Rex"}]}`), Assertions); !r.OK() {
		t.Errorf("a page with Rex: %q", problems(r))
	}
	if got := problems(ctx.Check(list.Response.Body, plain(t, `{"items": [{"id": "p-2", "name": "Mia"}]}`), Assertions)); !reflect.DeepEqual(got, []string{`$.items: no item matches $(data.rex) among 1 items, expected at least 1`}) {
		t.Errorf("a page without Rex: %q", got)
	}
}
