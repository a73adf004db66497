package main

import (
	"strings"
	"testing"
)

// TestParseRedoclyCountsTheTotals: Redocly lists at most --max-problems
// problems (100 by default); the counts come from its totals.
func TestParseRedoclyCountsTheTotals(t *testing.T) {
	problems := strings.Repeat(`{"severity": "error"},`, 100)
	out := "validating api.json...\n" + `{"totals": {"errors": 242, "warnings": 576, "ignored": 0}, "version": "2.77.0", "problems": [` +
		strings.TrimSuffix(problems, ",") + `]}`
	got, err := parseRedocly([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if got["error"] != 242 || got["warn"] != 576 {
		t.Errorf("counts = %v, want 242 errors and 576 warnings", got)
	}
	if text := countText(got); text != "242E 576W" {
		t.Errorf("countText = %q", text)
	}
}

// TestParseRedoclyWithoutTotals counts the problems of an output without
// totals, by severity.
func TestParseRedoclyWithoutTotals(t *testing.T) {
	got, err := parseRedocly([]byte(`{"problems": [{"severity": "error"}, {"severity": "warn"}, {"severity": "warn"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got["error"] != 1 || got["warn"] != 2 {
		t.Errorf("counts = %v", got)
	}
	if _, err := parseRedocly([]byte("no report")); err == nil {
		t.Error("an output without JSON parsed")
	}
}
