package compat

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Report is one run of the check as the report writers see it. Each
// format has its own file: report_text.go, report_json.go, report_ctrf.go,
// report_html.go.
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
	switch format {
	case "text":
		return WriteText(w, rep, color)
	case "json":
		return WriteJSON(w, rep)
	case "ctrf":
		return WriteCTRF(w, rep)
	case "html":
		return WriteHTML(w, rep)
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
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
type Totals struct {
	Specs        int `json:"specs"`
	Compatible   int `json:"compatible"`
	Incompatible int `json:"incompatible"`
	Errors       int `json:"errors"`
	Skipped      int `json:"skipped"`
	Breaking     int `json:"breaking"`
	Warnings     int `json:"warnings"`
	Info         int `json:"info"`
}

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

// where renders a change's location. In git mode both versions of a file
// have the same name, so a location in the base names the branch.
func where(r *Result, c *Change) string {
	s := c.Location.String()
	if c.Location.Side == Base && r.Base != r.BaseSpec {
		s += " (on " + r.Base + ")"
	}
	return s
}

// shown reports whether a change is listed in the text and HTML formats.
func (rep *Report) shown(c *Change) bool { return rep.ShowInfo || c.Level != Info }
