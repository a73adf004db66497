package envtest

import (
	"maps"
	"testing"
)

// Vars sets the pairs over a copy of the base, later pairs over earlier
// ones, and leaves the base as it was.
func TestVars(t *testing.T) {
	base := map[string]string{"A": "1", "B": "2"}
	got := Vars(base, "B", "3", "C", "4", "C", "5", "D")
	want := map[string]string{"A": "1", "B": "3", "C": "5", "D": ""}
	if !maps.Equal(got, want) {
		t.Errorf("Vars = %v, want %v", got, want)
	}
	if !maps.Equal(base, map[string]string{"A": "1", "B": "2"}) {
		t.Errorf("the base was changed: %v", base)
	}
	if got := Vars(nil, "X", "y"); !maps.Equal(got, map[string]string{"X": "y"}) {
		t.Errorf("Vars(nil) = %v", got)
	}
}

func TestGetenv(t *testing.T) {
	getenv := Getenv(map[string]string{"HOME": "/h"})
	if getenv("HOME") != "/h" || getenv("PATH") != "" {
		t.Errorf("Getenv read HOME=%q PATH=%q", getenv("HOME"), getenv("PATH"))
	}
}
