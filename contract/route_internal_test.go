package contract

import (
	"strings"
	"testing"
	"time"
)

func TestMatchParts(t *testing.T) {
	cases := []struct {
		template, segment string
		want              string // variables joined by "|", or "no" when it does not match
	}{
		{"{name}.json", "report.json", "report"},
		{"{name}.json", "a.b.json", "a.b"},
		{"{name}.json", ".json", "no"},
		{"{id}.{ext}", "a.b.png", "a|b.png"},
		{"{a}-{b}", "x-y-z", "x|y-z"},
		{"{a}-{b}", "x-", "no"},
		{"v{version}", "v2", "2"},
		{"v{version}", "v", "no"},
		{"{a},{b}", "1,2", "1|2"},
		{"{a}{b}", "xy", "x|y"},
		{"files", "files", ""},
		{"{a}-{b}.{c}-{d}.json", "w-x.y-z.json", "w|x|y|z"},
	}
	for _, tc := range cases {
		caps, ok := matchParts(parseSegment(tc.template).parts, tc.segment, nil, nil)
		got := strings.Join(caps, "|")
		if !ok {
			got = "no"
		}
		if got != tc.want {
			t.Errorf("%s against %q: %q, want %q", tc.template, tc.segment, got, tc.want)
		}
	}
}

// TestMatchPartsIsBounded matches a long hostile segment that makes the
// backtracking try every split: it gives up within its step budget.
func TestMatchPartsIsBounded(t *testing.T) {
	seg := parseSegment("{a}-{b}.{c}-{d}.json")
	hostile := strings.Repeat("x-", 4000) + "x.json"
	start := time.Now()
	if _, ok := matchParts(seg.parts, hostile, nil, nil); ok {
		t.Error("matched")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
}
