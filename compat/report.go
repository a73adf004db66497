package compat

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// Report is one run of the check. Its reports are written by package
// reports, from the model Run gives; docs/compat.md describes them.
type Report struct {
	Tool    string // "specgate"
	Version string
	// Mode is "files" (two files compared) or "git".
	Mode string
	// Base is the base branch in git mode, the base file otherwise.
	Base   string
	Commit string // git mode: the commit the base versions were read from
	Strict bool
	// ShowInfo lists info-level changes in the text and HTML formats (they
	// are always in JSON).
	ShowInfo    bool
	Results     []Result
	Start, Stop time.Time
}

// Formats are the report formats, in the order --help lists them.
var Formats = []string{"text", "json", "ctrf", "html"}

// Write writes the report in format to w.
func Write(w io.Writer, format string, rep *Report, color bool) error {
	f, ok := reports.Lookup(format)
	known := false
	for _, name := range Formats {
		known = known || name == format
	}
	if !ok || !known {
		return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
	}
	run := rep.Run()
	run.Color = color
	return f.Write(w, run)
}

// Run is the report in the model of package reports: a file per
// specification with its verdict, a finding per change.
func (rep *Report) Run() *reports.Run {
	run := &reports.Run{
		Tool: reports.Tool{Name: rep.Tool, Version: rep.Version}, Kind: reports.Compat,
		Start: rep.Start, Elapsed: rep.Stop.Sub(rep.Start),
		Compat: &reports.CompatRun{Mode: rep.Mode, Base: rep.Base, Commit: rep.Commit, Strict: rep.Strict, ShowInfo: rep.ShowInfo,
			Verdict: string(rep.Verdict()), Totals: rep.Totals()},
		Files: make([]reports.File, len(rep.Results)),
	}
	if rep.Start.IsZero() {
		run.Elapsed = 0
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		f := &run.Files[i]
		f.Name, f.Format, f.Loaded = r.Spec, r.Format, r.Verdict != Error
		f.Verdict = &reports.Verdict{Verdict: string(r.Verdict), Reason: string(r.Reason), Message: r.Message, Base: r.Base, BaseFile: r.BaseSpec}
		f.Findings = make([]reports.Finding, len(r.Changes))
		for j, c := range r.Changes {
			f.Findings[j] = rep.finding(c)
		}
	}
	return run
}

// severities are the change levels as severities: what a report that
// knows no change level (sarif, github) shows.
var severities = [...]level.Severity{Info: level.Off, Warning: level.Warn, Breaking: level.Error}

// finding is a change as a finding.
func (rep *Report) finding(c Change) reports.Finding {
	l := c.Location
	return reports.Finding{
		Rule: c.RuleID, Severity: severities[c.Level], Message: c.Message,
		File: l.File, Pointer: l.Pointer,
		Range: spec.Range{Start: spec.Pos{Line: int32(l.Line), Col: int32(l.Column)}, End: spec.Pos{Line: int32(l.EndLine), Col: int32(l.EndColumn)}},
		Change: &reports.Change{Level: c.Level.String(), Fails: Fails(c, rep.Strict), Why: c.Why, Operations: c.Operations, Side: l.Side.String(),
			Base: place(c.Base), Revision: place(c.Revision)},
	}
}

// place is a location as a report's place; nil when it names no file.
func place(l Location) *reports.Place {
	if l.File == "" {
		return nil
	}
	return &reports.Place{File: l.File, Pointer: l.Pointer,
		Range: spec.Range{Start: spec.Pos{Line: int32(l.Line), Col: int32(l.Column)}, End: spec.Pos{Line: int32(l.EndLine), Col: int32(l.EndColumn)}}}
}

// ExitCode is 2 when a specification could not be checked, else 1 when one
// is incompatible, else 0.
func (rep *Report) ExitCode() int {
	code := 0
	for _, r := range rep.Results {
		switch r.Verdict {
		case Error:
			return 2
		case Incompatible:
			code = 1
		}
	}
	return code
}

// Totals counts verdicts and change levels over all results.
type Totals = reports.CompatTotals

// Totals counts the report's results.
func (rep *Report) Totals() Totals {
	t := Totals{Specs: len(rep.Results)}
	for i := range rep.Results {
		r := &rep.Results[i]
		switch r.Verdict {
		case Compatible:
			t.Compatible++
		case Incompatible:
			t.Incompatible++
		case Error:
			t.Errors++
		case Skipped:
			t.Skipped++
		}
		t.Breaking += r.Count(Breaking)
		t.Warnings += r.Count(Warning)
		t.Info += r.Count(Info)
	}
	return t
}

// Verdict is the overall verdict: error, else incompatible, else
// compatible.
func (rep *Report) Verdict() Verdict {
	switch rep.ExitCode() {
	case 2:
		return Error
	case 1:
		return Incompatible
	}
	return Compatible
}
