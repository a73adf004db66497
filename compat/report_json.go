package compat

import (
	"encoding/json"
	"io"
)

// JSONReport is the document --format json writes (docs/compat.md).
type JSONReport struct {
	Tool    JSONTool     `json:"tool"`
	Mode    string       `json:"mode"`
	Base    string       `json:"base"`
	Commit  string       `json:"commit,omitempty"`
	Strict  bool         `json:"strict"`
	Verdict Verdict      `json:"verdict"`
	Results []JSONResult `json:"results"`
	Summary Totals       `json:"summary"`
}

// JSONTool names the program.
type JSONTool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// JSONResult is one specification's verdict.
type JSONResult struct {
	Spec     string       `json:"spec"`
	BaseSpec string       `json:"baseSpec,omitempty"`
	Base     string       `json:"base"`
	Format   string       `json:"format,omitempty"`
	Verdict  Verdict      `json:"verdict"`
	Reason   Reason       `json:"reason"`
	Message  string       `json:"message"`
	Breaking int          `json:"breaking"`
	Warnings int          `json:"warnings"`
	Info     int          `json:"info"`
	Changes  []JSONChange `json:"changes"`
}

// JSONChange is one change.
type JSONChange struct {
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
}

// NewJSONReport builds the json document of a report.
func NewJSONReport(rep *Report) JSONReport {
	out := JSONReport{Tool: JSONTool{rep.Tool, rep.Version}, Mode: rep.Mode, Base: rep.Base, Commit: rep.Commit,
		Strict: rep.Strict, Verdict: rep.Verdict(), Results: []JSONResult{}, Summary: rep.Totals()}
	for i := range rep.Results {
		r := &rep.Results[i]
		jr := JSONResult{Spec: r.Spec, BaseSpec: r.BaseSpec, Base: r.Base, Format: r.Format, Verdict: r.Verdict, Reason: r.Reason,
			Message: r.Message, Breaking: r.Count(Breaking), Warnings: r.Count(Warning), Info: r.Count(Info), Changes: []JSONChange{}}
		for _, c := range r.Changes {
			l := c.Location
			jr.Changes = append(jr.Changes, JSONChange{RuleID: c.RuleID, Level: c.Level.String(), Fails: Fails(c, rep.Strict),
				Message: c.Message, Why: c.Why, Operations: c.Operations, Location: l.String(), Side: l.Side.String(),
				File: l.File, Line: l.Line, Column: l.Column, EndLine: l.EndLine, EndColumn: l.EndColumn, Pointer: l.Pointer})
		}
		out.Results = append(out.Results, jr)
	}
	return out
}

// WriteJSON writes the json report, indented.
func WriteJSON(w io.Writer, rep *Report) error {
	return encodeJSON(w, NewJSONReport(rep))
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
