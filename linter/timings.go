package linter

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// WriteTimings writes, for each result that has them, the time each rule
// took on that input, slowest first (lint --timings):
//
//	api.yaml: 148 rules in 1.21s on 2 cores (2.35s of rule time)
//	       time     shared  findings  rule
//	      412ms     28.1ms       185  no-ambiguous-paths
//	     97.4ms          -      2857  media-type-examples
//
// A rule's time is its own evaluation, on the core that ran it. Values
// that several rules read (the libraries' indexes of parameters,
// responses, schemas) are computed once, by the first rule that needs
// them, and counted in that rule's time; "shared" is that part of it, so
// the time less the shared part is what the rule costs alone once they
// are known. Rules run on every core at once, so the times add up to more
// than the evaluation's.
func WriteTimings(w io.Writer, results []Result) error {
	var b strings.Builder
	for _, r := range results {
		t := r.Timings
		if t == nil {
			continue
		}
		var sum time.Duration
		width := len("rule")
		for _, rt := range t.Rules {
			sum += rt.Time
			width = max(width, len(rt.Rule))
		}
		fmt.Fprintf(&b, "%s: %d rules in %s on %d %s (%s of rule time)\n", r.File, len(t.Rules), duration(t.Eval), t.Cores, plural(t.Cores, "core", "cores"), duration(sum))
		fmt.Fprintf(&b, "  %9s  %9s  %8s  %s\n", "time", "shared", "findings", "rule")
		for _, rt := range t.Rules {
			shared := "-"
			if rt.Shared > 0 {
				shared = duration(rt.Shared)
			}
			fmt.Fprintf(&b, "  %9s  %9s  %8d  %s\n", duration(rt.Time), shared, rt.Findings, rt.Rule)
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// duration prints a time with three significant digits at most, in the
// unit that suits it: 412µs, 41.2ms, 1.21s.
func duration(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= 100*time.Millisecond:
		return d.Round(time.Millisecond).String()
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
