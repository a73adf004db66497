package server

import (
	"testing"
	"time"
)

// Options left empty, zero or negative take the defaults, except a negative
// queue timeout (no waiting), which is kept; set options are kept.
func TestFillDefaults(t *testing.T) {
	d := Defaults()
	var zero Options
	zero.fillDefaults()
	if zero.ConfigPath != d.ConfigPath || zero.Ruleset != d.Ruleset || zero.MaxConcurrent != d.MaxConcurrent ||
		zero.QueueTimeout != d.QueueTimeout || zero.MaxBodySize != d.MaxBodySize || zero.MaxSpecSize != d.MaxSpecSize ||
		zero.FetchTimeout != d.FetchTimeout || zero.RequestTimeout != d.RequestTimeout || zero.RuleTimeout != d.RuleTimeout ||
		zero.ShutdownTimeout != d.ShutdownTimeout || zero.Version != d.Version || zero.Logger == nil {
		t.Errorf("zero options filled as %+v, want the defaults %+v", zero, d)
	}
	neg := Options{MaxConcurrent: -1, QueueTimeout: -1, MaxBodySize: -5, RuleTimeout: -time.Second}
	neg.fillDefaults()
	if neg.MaxConcurrent != d.MaxConcurrent || neg.MaxBodySize != d.MaxBodySize || neg.RuleTimeout != d.RuleTimeout {
		t.Errorf("negative limits filled as %d, %d, %v; want the defaults %d, %d, %v",
			neg.MaxConcurrent, neg.MaxBodySize, neg.RuleTimeout, d.MaxConcurrent, d.MaxBodySize, d.RuleTimeout)
	}
	if neg.QueueTimeout != -1 {
		t.Errorf("negative queue timeout became %v, want it kept", neg.QueueTimeout)
	}
	set := Options{ConfigPath: "lint.yaml", MaxConcurrent: 3, FetchTimeout: time.Minute, Version: "1.2.3"}
	set.fillDefaults()
	if set.ConfigPath != "lint.yaml" || set.MaxConcurrent != 3 || set.FetchTimeout != time.Minute || set.Version != "1.2.3" {
		t.Errorf("set options changed: %+v", set)
	}
}
