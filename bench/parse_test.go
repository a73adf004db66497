package main

import (
	"os"
	"path/filepath"
	"slices"
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

// TestBroadSpecs: the broad corpus is its JSON and YAML files of at least
// the minimum size, under the api folder at any depth, named by their path
// there.
func TestBroadSpecs(t *testing.T) {
	cache := t.TempDir()
	api := broadDir(cache)
	files := map[string]int{"big.json": 2048, "small.json": 10, "microsoft.com/graph.yaml": 4096, "_index.js": 4096}
	for name, size := range files {
		path := filepath.Join(api, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := broadSpecs(cache, 1024, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, specName(p))
	}
	if want := []string{"big.json", "microsoft.com/graph.yaml"}; !slices.Equal(names, want) {
		t.Errorf("broad specs %v, want %v", names, want)
	}
	if _, err := broadSpecs(t.TempDir(), 1024, ""); err == nil || !strings.Contains(err.Error(), "-install") {
		t.Errorf("without the corpus: %v, want a hint to install it", err)
	}
	if got := specName("../shared/corpus/stripe.yaml"); got != "stripe.yaml" {
		t.Errorf("specName of a corpus spec = %q", got)
	}
}
