package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/specgate/specgate/internal/english"
)

// The backward-compatibility check's own documents: its json report and
// its text layout (docs/compat.md). Its CTRF, JUnit and HTML are the
// common ones.

// CompatJSONReport is the document the json format writes for a compat
// run.
type CompatJSONReport struct {
	Tool    CompatJSONTool     `json:"tool"`
	Mode    string             `json:"mode"`
	Base    string             `json:"base"`
	Commit  string             `json:"commit,omitempty"`
	Strict  bool               `json:"strict"`
	Verdict string             `json:"verdict"`
	Results []CompatJSONResult `json:"results"`
	Summary CompatTotals       `json:"summary"`
}

// CompatJSONTool names the program.
type CompatJSONTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// CompatJSONResult is one specification's verdict.
type CompatJSONResult struct {
	Spec     string             `json:"spec"`
	BaseSpec string             `json:"baseSpec,omitempty"`
	Base     string             `json:"base"`
	Format   string             `json:"format,omitempty"`
	Verdict  string             `json:"verdict"`
	Reason   string             `json:"reason"`
	Message  string             `json:"message"`
	Breaking int                `json:"breaking"`
	Warnings int                `json:"warnings"`
	Info     int                `json:"info"`
	Changes  []CompatJSONChange `json:"changes"`
}

// CompatJSONChange is one change.
type CompatJSONChange struct {
	RuleID     string   `json:"ruleId"`
	Level      string   `json:"level"`
	Fails      bool     `json:"fails"`
	Message    string   `json:"message"`
	Why        string   `json:"why"`
	Operations []string `json:"operations"`
	// Location is "file:line:col"; Side says which version it is in.
	Location  string `json:"location"`
	Side      string `json:"side"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Pointer   string `json:"pointer"`
	// BaseLocation and RevisionLocation place the change in each version
	// (one of them where Location is); absent where no place is known.
	BaseLocation     *CompatJSONPlace `json:"baseLocation,omitempty"`
	RevisionLocation *CompatJSONPlace `json:"revisionLocation,omitempty"`
}

// CompatJSONPlace is a change's place in one version.
type CompatJSONPlace struct {
	Location  string `json:"location"` // file:line:col
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Pointer   string `json:"pointer"`
}

func jsonPlace(p *Place) *CompatJSONPlace {
	if p == nil {
		return nil
	}
	return &CompatJSONPlace{Location: p.Location(), File: p.File, Line: int(p.Range.Start.Line), Column: int(p.Range.Start.Col),
		EndLine: int(p.Range.End.Line), EndColumn: int(p.Range.End.Col), Pointer: p.Pointer}
}

// NewCompatJSONReport builds the json document of a compat run.
func NewCompatJSONReport(run *Run) CompatJSONReport {
	c := run.Compat
	out := CompatJSONReport{Tool: CompatJSONTool{run.Tool.Name, run.Tool.Version}, Mode: c.Mode, Base: c.Base, Commit: c.Commit,
		Strict: c.Strict, Verdict: c.Verdict, Results: []CompatJSONResult{}, Summary: c.Totals}
	for i := range run.Files {
		f := &run.Files[i]
		v := f.Verdict
		jr := CompatJSONResult{Spec: f.Name, BaseSpec: v.BaseFile, Base: v.Base, Format: f.Format, Verdict: v.Verdict, Reason: v.Reason,
			Message: v.Message, Changes: []CompatJSONChange{}}
		for j := range f.Findings {
			x := &f.Findings[j]
			switch x.Change.Level {
			case "breaking":
				jr.Breaking++
			case "warning":
				jr.Warnings++
			case "info":
				jr.Info++
			}
			jr.Changes = append(jr.Changes, CompatJSONChange{RuleID: x.Rule, Level: x.Change.Level, Fails: x.Change.Fails,
				Message: x.Message, Why: x.Change.Why, Operations: x.Change.Operations, Location: x.Location(), Side: x.Change.Side,
				File: x.File, Line: int(x.Range.Start.Line), Column: int(x.Range.Start.Col),
				EndLine: int(x.Range.End.Line), EndColumn: int(x.Range.End.Col), Pointer: x.Pointer,
				BaseLocation: jsonPlace(x.Change.Base), RevisionLocation: jsonPlace(x.Change.Revision)})
		}
		out.Results = append(out.Results, jr)
	}
	return out
}

// compatShown reports whether a change is listed in the text and html
// formats: info-level ones only with ShowInfo.
func (run *Run) compatShown(f *Finding) bool {
	return run.Compat.ShowInfo || f.Change.Level != "info"
}

// compatWhere renders a change's location. In git mode both versions of a
// file have the same name, so a location in the base names the branch.
func compatWhere(file *File, f *Finding) string {
	s := f.Location()
	if f.Change.Side == "base" && inGit(file) {
		s += " (on " + file.Verdict.Base + ")"
	}
	return s
}

// compatOther renders a change's place in the other version ("base:
// api.yaml:12:7 on main", "revision: api.yaml:30:5"), or "".
func compatOther(file *File, f *Finding) string {
	p, side := f.Change.Other()
	if p == nil || p.File == "" {
		return ""
	}
	s := side + ": " + p.Location()
	if side == "base" && inGit(file) {
		s += " on " + file.Verdict.Base
	}
	return s
}

// inGit reports whether the base is a branch (git mode) rather than a file.
func inGit(file *File) bool { return file.Verdict.Base != file.Verdict.BaseFile }

// writeCompatText writes each specification's verdict, then one line per
// change ("file:line:col level rule-id operations: message; why"), then a
// summary line.
func writeCompatText(w io.Writer, run *Run) error {
	paint := painter(run.Color)
	var b strings.Builder
	for i := range run.Files {
		f := &run.Files[i]
		verdict := paint(ansiGreen, "compatible")
		switch f.Verdict.Verdict {
		case "incompatible":
			verdict = paint(ansiRed, "INCOMPATIBLE")
		case "error":
			verdict = paint(ansiRed, "ERROR")
		case "skipped":
			verdict = paint(ansiYellow, "skipped")
		}
		fmt.Fprintf(&b, "%s %s\n", verdict, f.Verdict.Message)
		for j := range f.Findings {
			c := &f.Findings[j]
			if !run.compatShown(c) {
				continue
			}
			lvl := c.Change.Level
			switch {
			case c.Change.Fails:
				lvl = paint(ansiRed, lvl)
			case lvl == "warning":
				lvl = paint(ansiYellow, lvl)
			}
			fmt.Fprintf(&b, "  %s %s %s %s: %s; %s", paint(ansiBold, compatWhere(f, c)), lvl, paint(ansiDim, c.Rule),
				ShortList(c.Change.Operations, 3), c.Message, c.Change.Why)
			if other := compatOther(f, c); other != "" {
				b.WriteString(paint(ansiDim, " ("+other+")"))
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString(compatSummary(run.Compat))
	if !run.Compat.ShowInfo && run.Compat.Totals.Info > 0 {
		b.WriteString(" (--show-info lists them)")
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// compatSummary counts verdicts and changes: "2 specifications checked
// against main: 1 compatible, 1 incompatible; 3 breaking changes, …".
func compatSummary(c *CompatRun) string {
	t := c.Totals
	var b strings.Builder
	fmt.Fprintf(&b, "%s checked against %s: %d compatible, %d incompatible", english.Count(t.Specs, "specification", "specifications"), c.Base, t.Compatible, t.Incompatible)
	if t.Errors > 0 {
		fmt.Fprintf(&b, ", %d not checked (errors)", t.Errors)
	}
	if t.Skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped", t.Skipped)
	}
	fmt.Fprintf(&b, "; %s, %s, %d info", english.Count(t.Breaking, "breaking change", "breaking changes"), english.Count(t.Warnings, "warning", "warnings"), t.Info)
	if c.Strict {
		b.WriteString(" (strict: warnings fail)")
	}
	return b.String()
}
