package spec

import (
	"fmt"
	"testing"
	"unsafe"
)

// The readers keep one copy of each string a file repeats (keys and string
// values), and each node keeps its own place: interning changes what the
// tree holds in memory, not a value or a position.
func TestRepeatedStringsShareTheirBytesAndKeepTheirPlaces(t *testing.T) {
	const desc = "A description long enough to be worth sharing between two operations"
	tests := []struct {
		name, src string
		// where the two copies of desc start, and the "type" keys
		first, second Pos
	}{
		{"a.json", `{
  "a": {"type": "string", "description": "` + desc + `"},
  "b": {"type": "string",
        "description": "` + desc + `"}
}`, Pos{2, 42}, Pos{4, 24}},
		{"a.yaml", `a:
  type: string
  description: ` + desc + `
b:
  type: string
  description: "` + desc + `"
`, Pos{3, 16}, Pos{6, 16}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := Parse(tt.name, []byte(tt.src), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			a, b := root.Get("a").Get("description"), root.Get("b").Get("description")
			if a.Value != desc || b.Value != desc {
				t.Fatalf("values %q and %q, want %q twice", a.Value, b.Value, desc)
			}
			if a.Range.Start != tt.first || b.Range.Start != tt.second {
				t.Errorf("the two copies start at %v and %v, want %v and %v", a.Range.Start, b.Range.Start, tt.first, tt.second)
			}
			if unsafe.StringData(a.Value) != unsafe.StringData(b.Value) {
				t.Errorf("the two copies of the description are two strings, want one")
			}
			ta, tb := root.Get("a").Field("type"), root.Get("b").Field("type")
			if unsafe.StringData(ta.Key) != unsafe.StringData(tb.Key) || unsafe.StringData(ta.Value.Value) != unsafe.StringData(tb.Value.Value) {
				t.Errorf("the keys and values of the two type fields are not shared")
			}
			if ta.KeyRange == tb.KeyRange {
				t.Errorf("the two type keys share a range, %v", ta.KeyRange)
			}
		})
	}
}

// The table shares what a file repeats, and stops taking strings once a
// sample shows the file's strings are distinct (a huge enum): it would
// only grow. What it holds is still shared after that.
func TestStringTableStopsOnDistinctStrings(t *testing.T) {
	distinct := newStringTable()
	for i := range 3 * sampleInterned {
		distinct.string(fmt.Sprintf("v%d", i))
	}
	if !distinct.closed || len(distinct.m) != sampleInterned {
		t.Errorf("distinct strings: closed %v with %d strings, want closed with %d", distinct.closed, len(distinct.m), sampleInterned)
	}
	first := distinct.bytes([]byte("v0"))
	if again := distinct.string("v0"); unsafe.StringData(first) != unsafe.StringData(again) {
		t.Errorf("a string the closed table holds is not shared")
	}

	repeated := newStringTable()
	for i := range 3 * sampleInterned {
		repeated.string("type")
		repeated.string(fmt.Sprintf("v%d", i))
	}
	if repeated.closed || len(repeated.m) != 3*sampleInterned+1 {
		t.Errorf("repeated strings: closed %v with %d strings, want open with %d", repeated.closed, len(repeated.m), 3*sampleInterned+1)
	}

	var none *stringTable
	if none.bytes([]byte("x")) != "x" || none.string("y") != "y" {
		t.Errorf("a nil table changes strings")
	}
}

// Strings that share a slot of the table's recent strings (the same
// length and ends) are each found as themselves, and a closed table's
// recent strings are strings it holds.
func TestStringTableRecentSlots(t *testing.T) {
	a, b := "#/components/schemas/a.graph.item", "#/components/schemas/b.graph.item"
	if recentSlot(a) != recentSlot(b) || recentSlot(a) != recentSlot([]byte(a)) {
		t.Fatalf("slots %d and %d, want one (and the same for bytes)", recentSlot(a), recentSlot(b))
	}
	tab := newStringTable()
	first := tab.bytes([]byte(a))
	for range 3 {
		for _, s := range []string{a, b, "", "type", "typf"} {
			got := tab.bytes([]byte(s))
			if got != s {
				t.Fatalf("bytes(%q) = %q", s, got)
			}
			if again := tab.string(s); again != s || (s != "" && unsafe.StringData(again) != unsafe.StringData(got)) {
				t.Fatalf("string(%q) = %q, not the copy bytes gave", s, again)
			}
		}
	}
	if got := tab.bytes([]byte(a)); unsafe.StringData(got) != unsafe.StringData(first) {
		t.Errorf("a string met again after another took its slot is a new copy")
	}
	// 31 lookups, of which the first of each string but a are additions.
	if tab.hits != 27 || tab.adds != 5 {
		t.Errorf("%d hits and %d additions, want 27 and 5", tab.hits, tab.adds)
	}

	closed := newStringTable()
	closed.closed = true
	x := closed.bytes([]byte("not held"))
	if y := closed.bytes([]byte("not held")); unsafe.StringData(x) == unsafe.StringData(y) {
		t.Errorf("a closed table shares a string it does not hold")
	}
}
