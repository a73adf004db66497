package level

import (
	"slices"
	"testing"
)

func TestParseSeverity(t *testing.T) {
	for in, want := range map[string]Severity{"off": Off, "warn": Warn, "WARNING": Warn, "Error": Error} {
		if got, ok := ParseSeverity(in); !ok || got != want {
			t.Errorf("ParseSeverity(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "info", "fatal"} {
		if got, ok := ParseSeverity(in); ok {
			t.Errorf("ParseSeverity(%q) = %v, want no severity", in, got)
		}
	}
	if got := Severity(7).String(); got != "severity(7)" {
		t.Errorf("an unknown severity reads %q", got)
	}
}

func TestReach(t *testing.T) {
	for _, tc := range []struct {
		name   string
		errors []string
		want   string
	}{
		{"clean", nil, "Platinum"},
		{"a Gold error", []string{"Gold"}, "Silver (1 Gold error to fix for Gold)"},
		{"the lowest error decides", []string{"Gold", "Silver", "Silver"}, "Bronze (2 Silver errors to fix for Silver)"},
		{"a Baseline error", []string{"Baseline", "Gold"}, "none (1 Baseline error to fix for Baseline)"},
		{"an unknown maturity counts as Baseline", []string{""}, "none (1 Baseline error to fix for Baseline)"},
		{"a Platinum error", []string{"Platinum"}, "Gold (1 Platinum error to fix for Platinum)"},
	} {
		if got := Reach(slices.Values(tc.errors)).String(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if m := Reach(slices.Values([]string{"Silver"})); m.With("**"+m.Level+"**") != "**Bronze** (1 Silver error to fix for Silver)" {
		t.Errorf("With decorates the level only: %q", m.With("**"+m.Level+"**"))
	}
}
