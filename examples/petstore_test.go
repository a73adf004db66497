package examples

import (
	"reflect"
	"testing"
	"time"

	"github.com/specgate/specgate/schema"
)

// The worked examples of the bundled specification load without a problem
// and check clean against petstore.yaml; the partial one completes into a
// full exchange that checks clean too.
func TestPetstoreExamples(t *testing.T) {
	set := Discover("petstore.yaml", nil, Options{})
	if len(set.Errors) > 0 {
		t.Fatal(set.Errors)
	}
	var names []string
	for _, ex := range set.Examples {
		names = append(names, ex.Name)
	}
	want := []string{"health", "pets/delete_not_allowed", "pets/echo_pet", "pets/first_page", "pets/first_pet", "pets/get_pet", "get_pet_with_matchers", "pets/list_partial", "pets/list_pets", "pets/list_pets_contains", "pets/pet_not_found"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("examples %q, want %q", names, want)
	}
	c := newContract(t, "petstore.yaml")
	k := NewChecker(c, nil)
	if fs := k.CheckAll(set.Examples); len(fs) > 0 {
		t.Errorf("findings on the worked examples: %v", fs)
	}
	if ex := set.Named("pets/delete_not_allowed"); ex.Kind() != MethodNotAllowed {
		t.Errorf("delete_not_allowed is %v", ex.Kind())
	}
	done, err := k.Complete(set.Named("pets/list_partial"), schema.NewGenerator(1))
	if err != nil {
		t.Fatal(err)
	}
	if findParam(done.Request.Query, "page") == nil || done.Response.Status != 200 || done.Metadata.Delay != 100*time.Millisecond {
		t.Errorf("completed partial example: %s", summarize(t, done))
	}
	if fs := k.Check(done); len(fs) > 0 {
		t.Errorf("findings on the completed partial example: %v", fs)
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
