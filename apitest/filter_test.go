package apitest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestFilterSelects(t *testing.T) {
	tests := []*Test{
		{Path: "/pets", Method: "GET", Status: "200"},
		{Path: "/pets", Method: "POST", Status: "201"},
		{Path: "/pets/{petId}", Method: "GET", Status: "404"},
		{Path: "/pets/{petId}", Method: "DELETE", Status: "4XX"},
		{Path: "/pets/{petId}/photos/{photoId}.jpg", Method: "GET", Status: "default"},
		{Path: "/health", Method: "GET", Status: "200"},
	}
	cases := []struct {
		expr string
		want []int // indices of the tests selected
	}{
		{"", []int{0, 1, 2, 3, 4, 5}},
		{"PATH='/pets'", []int{0, 1}},
		{"PATH=/pets", []int{0, 1}},
		{"PATH='/pets/*'", []int{2, 3, 4}},
		{"PATH=/pets*", []int{0, 1, 2, 3, 4}},
		{"PATH='/pets/12'", []int{2, 3}},
		{"PATH='/pets/12/photos/7.jpg'", []int{4}},
		{"PATH='/pets/12/photos/.jpg'", nil}, // a variable is never empty
		{"PATH='/pets,/health'", []int{0, 1, 5}},
		{"PATH='/pets','/health'", []int{0, 1, 5}},
		{"PATH!='/pets'", []int{2, 3, 4, 5}},
		{"METHOD=get", []int{0, 2, 4, 5}},
		{"METHOD=GET,POST", []int{0, 1, 2, 4, 5}},
		{"METHOD!=GET", []int{1, 3}},
		{"STATUS=200", []int{0, 5}},
		{"STATUS=2xx", []int{0, 1, 5}},
		{"STATUS=4XX", []int{2, 3}},
		{"STATUS=404", []int{2}},
		{"STATUS=default", []int{4}},
		{"STATUS=*", []int{0, 1, 2, 3, 4, 5}},
		{"PATH='/pets' && METHOD='POST'", []int{1}},
		{"METHOD=GET && STATUS=2xx || METHOD=DELETE", []int{0, 3, 5}},
		{"METHOD=DELETE || METHOD=GET && STATUS=2xx", []int{0, 3, 5}},
		{"(METHOD=DELETE || METHOD=GET) && STATUS!=2xx", []int{2, 3, 4}},
		{"!METHOD=GET", []int{1, 3}},
		{"!(PATH=/pets*) && STATUS==200", []int{5}},
		{"  path = '/health'  ", []int{5}},
	}
	for _, c := range cases {
		f, err := ParseFilter(c.expr)
		if err != nil {
			t.Errorf("ParseFilter(%q): %v", c.expr, err)
			continue
		}
		var got []int
		for i, tt := range tests {
			if f.Match(tt) {
				got = append(got, i)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q selects %v, want %v", c.expr, got, c.want)
		}
	}
}

func TestFilterErrors(t *testing.T) {
	cases := []struct{ expr, want string }{
		{"PATH", `column 5: expected = or != after PATH, found end of the expression`},
		{"PAHT=/pets", `column 1: unknown field "PAHT": a filter tests PATH, METHOD, STATUS`},
		{"PATH=/pets &&", `column 14: expected a field (PATH, METHOD, STATUS), found end of the expression`},
		{"PATH=/pets & METHOD=GET", `column 12: unexpected "&"`},
		{"(PATH=/pets", `column 12: expected ) to close the parenthesis`},
		{"PATH=/pets)", `column 11: unexpected ")"`},
		{"STATUS=20x", `STATUS "20x" is not a status (200), a class (2xx), default or *`},
		{"STATUS=600", `STATUS "600" is not a status`},
		{"METHOD=G3T", `METHOD "G3T" is not an HTTP method`},
		{"PATH='/pets", `column 6: unclosed quote`},
		{"PATH=", `column 6: expected a value for PATH, found end of the expression`},
		{"PATH=','", `PATH has no value`},
		{"PATH=/pets METHOD=GET", `column 12: unexpected "METHOD"`},
	}
	for _, c := range cases {
		_, err := ParseFilter(c.expr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseFilter(%q) = %v, want an error containing %q", c.expr, err, c.want)
		}
	}
}

func TestShard(t *testing.T) {
	for _, bad := range []string{"", "1", "0/3", "4/3", "a/b", "1/0", "-1/2"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
	// Every test is in exactly one of n shards, and the split is close to
	// even.
	const n, count = 4, 2000
	var shards [n]Shard
	for i := range shards {
		s, err := ParseShard(fmt.Sprintf("%d/%d", i+1, n))
		if err != nil {
			t.Fatal(err)
		}
		shards[i] = s
	}
	var sizes [n]int
	for i := range count {
		tt := &Test{Spec: "api.yaml", Path: fmt.Sprintf("/things/%d", i), Method: "GET", Status: "200", Kind: Generated, Name: "generated"}
		in := 0
		for j, s := range shards {
			if s.Has(tt) {
				in++
				sizes[j]++
			}
		}
		if in != 1 {
			t.Fatalf("%s is in %d shards", tt.ID(), in)
		}
	}
	for j, sz := range sizes {
		if sz < count/n*8/10 || sz > count/n*12/10 {
			t.Errorf("shard %d/%d holds %d of %d tests", j+1, n, sz, count)
		}
	}
	// The identity, not the position, decides: the same test lands in the
	// same shard whatever runs beside it.
	a := &Test{Spec: "api.yaml", Path: "/pets", Method: "GET", Status: "200", Kind: FromExample, Name: "list"}
	b := *a
	b.Seq = 99
	for _, s := range shards {
		if s.Has(a) != s.Has(&b) {
			t.Errorf("shard %s changes with the test's position", s)
		}
	}
	if (Shard{}).Has(a) != true {
		t.Error("the zero shard does not hold every test")
	}
}

// A filter that selects nothing would pass a CI run that tested nothing:
// NewPlan refuses a value that matches no test (with the nearest path or
// method), and filters that together leave no test; one that selects
// some tests, or a shard that has none, is a plan.
func TestPlanRefusesEmptySelection(t *testing.T) {
	for _, tc := range []struct {
		filter, not string
		want        string // "" for a plan
	}{
		{"PATH=/petz", "", `--filter "PATH=/petz": PATH /petz matches no operation of testdata/pets.yaml; did you mean "/pets"?`},
		{"METHOD=PTCH", "", `--filter "METHOD=PTCH": METHOD PTCH matches no operation of testdata/pets.yaml`},
		{"PATH=/health && STATUS=418", "", `--filter "PATH=/health && STATUS=418": STATUS 418 matches no test of testdata/pets.yaml (they expect `},
		{"PATH=/health && METHOD=POST", "", `--filter "PATH=/health && METHOD=POST" selects none of the `},
		{"PATH=/health", "METHOD=GET", `--filter "PATH=/health" and --filter-not "METHOD=GET" together select none of the `},
		{"PATH=/health || PATH=/pets/12", "", ""},
		{"!PATH=/nowhere", "", ""},
		{"", "PATH=/nowhere", ""},
	} {
		_, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: "http://127.0.0.1:1",
			Filter: tc.filter, FilterNot: tc.not, Getenv: func(string) string { return "" }})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("--filter %q --filter-not %q: %v", tc.filter, tc.not, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("--filter %q --filter-not %q: %v, want %q", tc.filter, tc.not, err, tc.want)
		}
	}
	// A shard with no test of the selection is not a mistake of the filter.
	p, err := NewPlan(context.Background(), Options{Specs: []SpecSource{{Path: "testdata/pets.yaml"}}, BaseURL: "http://127.0.0.1:1",
		Filter: "PATH=/health", Shard: Shard{Index: 50, Count: 50}, Getenv: func(string) string { return "" }})
	if err != nil || p.Count() != 0 {
		t.Fatalf("a shard of a filtered run: %v (%d tests), want a plan of no test", err, p.Count())
	}
}
