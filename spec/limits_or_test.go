package spec

import (
	"testing"
	"time"
)

// Or keeps the limits that are set and takes the others, zero or
// negative, from the defaults given.
func TestLimitsOr(t *testing.T) {
	def := Limits{MaxFileSize: 1, MaxDepth: 2, MaxNodes: 3, MaxAliasFactor: 4, FetchTimeout: 5 * time.Second}
	got := Limits{MaxFileSize: 10, MaxDepth: -1, MaxAliasFactor: 40}.Or(def)
	want := Limits{MaxFileSize: 10, MaxDepth: 2, MaxNodes: 3, MaxAliasFactor: 40, FetchTimeout: 5 * time.Second}
	if got != want {
		t.Errorf("Or = %+v, want %+v", got, want)
	}
	if got := (Limits{}).Or(DefaultLimits()); got != DefaultLimits() {
		t.Errorf("zero limits = %+v, want the defaults", got)
	}
}
