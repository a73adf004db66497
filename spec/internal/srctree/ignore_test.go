package srctree

import (
	"slices"
	"testing"

	"github.com/specgate/specgate/spec"
)

func TestDirectiveRules(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{" specgate:ignore a-rule", []string{"a-rule"}},
		{"specgate:ignore a, b  c -- why: because", []string{"a", "b", "c"}},
		{"\n * specgate:ignore a\n * more text", []string{"a"}},
		{" specgate:ignorea", nil},
		{" specgate:ignore", nil},
		{" see specgate:ignore a", nil},
		{" a plain comment", nil},
	}
	for _, tt := range tests {
		if got := directiveRules(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("%q: %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestIgnore: a comment after code stands for its line, one on lines of
// its own for the next line with code; the element starting there gets
// the rules, merged with those of other directives.
func TestIgnore(t *testing.T) {
	data := []byte("a\nb // x\n\n// y\n\n c\n")
	c := NewComments(data)
	c.Code(1)
	c.Code(2)
	c.Comment(4, 8, " specgate:ignore r1")
	c.Comment(10, 14, " specgate:ignore r2 r3")
	c.Code(6)
	list := c.List()
	if len(list) != 2 || list[0].Target != 2 || list[1].Target != 6 || list[1].At.Start != (spec.Pos{Line: 4, Col: 1}) {
		t.Fatalf("comments: %+v", list)
	}
	b, cNode := Object(spec.Range{}), Object(spec.Range{})
	e := Elements{}
	e.Add(2, b)
	e.Add(2, Object(spec.Range{})) // an element inside b on its line
	e.Add(6, cNode)
	list = append(list, Comment{Text: " specgate:ignore r4", Target: 6})
	Ignore(e, list)
	values := func(n *spec.Node) []string {
		var out []string
		for _, it := range n.Get(IgnoreKey).Items {
			out = append(out, it.Value)
		}
		return out
	}
	if got := values(b); !slices.Equal(got, []string{"r1"}) {
		t.Errorf("b: %q", got)
	}
	if got := values(cNode); !slices.Equal(got, []string{"r2", "r3", "r4"}) {
		t.Errorf("c: %q", got)
	}
}

// SkipString steps over a string with its escapes, either quote, and one
// left open at its line's end or at the end of the data.
func TestSkipString(t *testing.T) {
	for _, tc := range []struct {
		data  string
		start int
		want  int
	}{
		{`a "b" c`, 2, 5},
		{`"a\"b" x`, 0, 6},
		{`'it''s'`, 0, 4},
		{`x "a\\" y`, 2, 7},
		{"\"open\nnext", 0, 6},
		{"\"a\\\nb\"", 0, 4},
		{`"never closed`, 0, 14},
	} {
		if got := SkipString([]byte(tc.data), tc.start); got != tc.want {
			t.Errorf("SkipString(%q, %d) = %d, want %d", tc.data, tc.start, got, tc.want)
		}
	}
}
