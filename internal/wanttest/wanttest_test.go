package wanttest

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Parse reads each comment's quoted substrings, with escapes and a tag,
// by line; other lines, and a "want" that is no comment, are passed over.
func TestParse(t *testing.T) {
	data := strings.Join([]string{
		`openapi: 3.1.0`,
		`info: {title: "x"} # want "a \"quoted\" title" "second"`,
		`description: we want this`,
		`  dependsOn: [ghost] # want broken "no workflow"`,
		`  x: 1 #want "tight"`,
	}, "\n")
	wants := Wants{}
	if err := Parse("f.yaml", []byte(data), Hash, wants); err != nil {
		t.Fatal(err)
	}
	want := Wants{
		{"f.yaml", 2}: {{Text: `a "quoted" title`}, {Text: "second"}},
		{"f.yaml", 4}: {{Text: "no workflow", Tag: "broken"}},
		{"f.yaml", 5}: {{Text: "tight"}},
	}
	if len(wants) != len(want) {
		t.Fatalf("got %v, want %v", wants, want)
	}
	for k, ws := range want {
		if !slices.Equal(wants[k], ws) {
			t.Errorf("%v: got %v, want %v", k, wants[k], ws)
		}
	}
}

// A comment that is not a list of quoted strings is an error at its line.
func TestParseBad(t *testing.T) {
	for _, line := range []string{
		`a: 1 # want "unterminated`,
		`a: 1 # want broken`,
		`a: 1 # want "x" trailing`,
		`a: 1 # want to say`,
	} {
		err := Parse("bad.yaml", []byte("x: 0\n"+line), Hash, Wants{})
		if err == nil || !strings.HasPrefix(err.Error(), "bad.yaml:2: bad want comment: ") {
			t.Errorf("%s: error %v", line, err)
		}
	}
}

// The caller's pattern finds comments of other languages; its first group
// is the list.
func TestParseOtherComments(t *testing.T) {
	re := regexp.MustCompile(`(?:#|//|<!--)\s*want\s+("[^"]*"(?:\s+"[^"]*")*)\s*(?:-->)?\s*$`)
	wants := Wants{}
	data := "<a/> <!-- want \"wsdl\" -->\nint32 a = 1; // want \"proto\" \"two\"\n"
	if err := Parse("m", []byte(data), re, wants); err != nil {
		t.Fatal(err)
	}
	if got := wants[Key{"m", 1}]; !slices.Equal(got, []Want{{Text: "wsdl"}}) {
		t.Errorf("line 1: %v", got)
	}
	if got := wants[Key{"m", 2}]; !slices.Equal(got, []Want{{Text: "proto"}, {Text: "two"}}) {
		t.Errorf("line 2: %v", got)
	}
}

// Match pairs each problem with one want of its line, checks its tag, and
// lists the problems and wants left over, the wants in file and line order.
func TestMatch(t *testing.T) {
	wants := Wants{
		{"a.yaml", 3}:  {{Text: "cycle"}, {Text: "cycle"}},
		{"a.yaml", 10}: {{Text: "never met"}},
		{"a.yaml", 7}:  {{Text: "ghost", Tag: "broken"}},
		{"b.yaml", 1}:  {{Text: "also unmet"}},
	}
	got := Match(wants, []Found{
		{File: "a.yaml", Line: 3, Col: 5, Message: "a cycle: a → b → a"},
		{File: "a.yaml", Line: 3, Col: 9, Message: "another cycle"},
		{File: "a.yaml", Line: 3, Col: 11, Message: "a third cycle"},
		{File: "a.yaml", Line: 7, Col: 2, Message: "names ghost"},
		{File: "a.yaml", Line: 8, Col: 1, Message: "unwanted"},
	})
	want := []string{
		`a.yaml:3:11: unexpected problem: a third cycle`,
		`a.yaml:7:2: names ghost: found tagged "", wanted tagged "broken"`,
		`a.yaml:8:1: unexpected problem: unwanted`,
		`a.yaml:10: missing problem matching "never met"`,
		`b.yaml:1: missing problem matching "also unmet"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := Match(Wants{{"a", 1}: {{Text: "x", Tag: "broken"}}}, []Found{{File: "a", Line: 1, Message: "x", Tag: "broken"}}); got != nil {
		t.Errorf("a met want: %v", got)
	}
}

// With Exact a problem meets only the want that is its whole message: of
// two rule ids, one inside the other, each meets its own want whatever the
// order, and the shorter want is not met by the longer id alone. Without
// it, the first want the message contains is taken.
func TestMatchExact(t *testing.T) {
	both := func() Wants {
		return Wants{{"rev.yaml", 4}: {{Text: "request-body-added"}, {Text: "request-body-added-required"}}}
	}
	found := []Found{
		{File: "rev.yaml", Line: 4, Col: 7, Message: "request-body-added-required"},
		{File: "rev.yaml", Line: 4, Col: 7, Message: "request-body-added"},
	}
	if got := Match(both(), found, Exact()); got != nil {
		t.Errorf("exact, both ids wanted: %v", got)
	}
	substring := []string{
		`rev.yaml:4:7: unexpected problem: request-body-added`,
		`rev.yaml:4: missing problem matching "request-body-added-required"`,
	}
	if got := Match(both(), found); !slices.Equal(got, substring) {
		t.Errorf("by substring, both ids wanted:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(substring, "\n"))
	}

	shorter := func() Wants { return Wants{{"rev.yaml", 4}: {{Text: "request-body-added"}}} }
	longer := []Found{{File: "rev.yaml", Line: 4, Col: 7, Message: "request-body-added-required"}}
	exact := []string{
		`rev.yaml:4:7: unexpected problem: request-body-added-required`,
		`rev.yaml:4: missing problem matching "request-body-added"`,
	}
	if got := Match(shorter(), longer, Exact()); !slices.Equal(got, exact) {
		t.Errorf("exact, the shorter id wanted:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(exact, "\n"))
	}
	if got := Match(shorter(), longer); got != nil {
		t.Errorf("by substring, the shorter id wanted: %v", got)
	}
}
