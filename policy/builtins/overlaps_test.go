package builtins

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
)

// TestPathOverlaps: pairs of paths that one request may match, neither
// more specific, with the checks their templates must pass; paths that a
// fixed segment, the segment count, the methods or specificity tell apart
// are no pair.
func TestPathOverlaps(t *testing.T) {
	// item writes a path item as path_items gives it.
	item := func(path string, methods ...string) string {
		var segs, shape []string
		for _, s := range strings.Split(strings.Trim(path, "/"), "/") {
			segs = append(segs, fmt.Sprintf("%q", s))
			sh := s
			for strings.Contains(sh, "{") {
				open := strings.Index(sh, "{")
				end := strings.Index(sh[open:], "}")
				sh = sh[:open] + "\x00" + sh[open+end+1:]
			}
			shape = append(shape, fmt.Sprintf("%q", strings.ReplaceAll(sh, "\x00", "{}")))
		}
		ms := make([]string, len(methods))
		for i, m := range methods {
			ms[i] = fmt.Sprintf("%q", m)
		}
		return fmt.Sprintf(`{"segments": [%s], "shape": [%s], "methods": [%s]}`,
			strings.Join(segs, ", "), strings.Join(shape, ", "), strings.Join(ms, ", "))
	}
	for _, tc := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"crossing: each more specific somewhere", []string{item("/orgs/{org}/members", "get"), item("/orgs/mine/{view}", "get")},
			`[[0, 1, [[0, 1, "mine"], [1, 2, "members"]]]]`},
		{"one more specific everywhere", []string{item("/pets/{id}", "get"), item("/pets/mine", "get")}, `[]`},
		{"no method in common", []string{item("/orgs/{org}/members", "get"), item("/orgs/mine/{view}", "post")}, `[]`},
		{"a fixed segment differs", []string{item("/a/{x}/b", "get"), item("/a/c/{y}/d", "get"), item("/a/c/d", "get")}, `[]`},
		{"different counts", []string{item("/a/{x}", "get"), item("/a/b/{y}", "get")}, `[]`},
		{"two different texts after", []string{item("/a/{x}/b/e", "get"), item("/a/c/{y}/d", "get")}, `[]`},
		{"templates on both sides after", []string{item("/a/{x}/b/{z}", "get"), item("/a/c/{y}/d", "get")},
			`[[0, 1, [[0, 1, "c"], [1, 2, "b"], [0, 3, "d"]]]]`},
		{"a mixed segment faces a template", []string{item("/compare/{basehead}", "get"), item("/compare/{base}...{head}", "get")},
			`[[0, 1, []]]`},
		{"a template faces a mixed segment later", []string{item("/r/{id}/{file}", "get"), item("/r/x/{name}.json", "get")},
			`[[0, 1, [[0, 1, "x"]]]]`},
		{"only template names differ", []string{item("/a/{x}", "get"), item("/a/{y}", "get")}, `[]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			query := fmt.Sprintf("x := specgate.path_overlaps([%s])", strings.Join(tc.paths, ", "))
			if got := evalX(t, query); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	for _, bad := range []string{`x := specgate.path_overlaps([{"segments": ["a"], "shape": [], "methods": []}])`,
		`x := specgate.path_overlaps([{"segments": [1], "shape": ["a"], "methods": []}])`} {
		if _, err := rego.New(rego.Query(bad), rego.StrictBuiltinErrors(true)).Eval(context.Background()); err == nil || !strings.Contains(err.Error(), "specgate.path_overlaps: item 0") {
			t.Errorf("%s: error %v, want one naming the item", bad, err)
		}
	}
}
