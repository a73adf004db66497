package reports

import (
	"io"
	"slices"
	"strings"

	"github.com/specgate/specgate/internal/level"
)

// The SARIF 2.1.0 model, as much of it as specgate writes and GitHub code
// scanning reads.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool       sarifTool         `json:"tool"`
		Invocation []sarifInvocation `json:"invocations,omitempty"`
		ColumnKind string            `json:"columnKind"`
		Results    []sarifResult     `json:"results"`
		Properties map[string]any    `json:"properties,omitempty"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string         `json:"id"`
		Name                 string         `json:"name,omitempty"`
		ShortDescription     sarifText      `json:"shortDescription"`
		FullDescription      sarifText      `json:"fullDescription"`
		Help                 sarifHelp      `json:"help"`
		HelpURI              string         `json:"helpUri,omitempty"`
		DefaultConfiguration sarifConfig    `json:"defaultConfiguration"`
		Properties           map[string]any `json:"properties,omitempty"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool   `json:"executionSuccessful"`
		StartTimeUTC        string `json:"startTimeUtc,omitempty"`
		EndTimeUTC          string `json:"endTimeUtc,omitempty"`
	}
	sarifResult struct {
		RuleID     string          `json:"ruleId"`
		RuleIndex  int             `json:"ruleIndex"`
		Level      string          `json:"level"`
		Message    sarifText       `json:"message"`
		Locations  []sarifLocation `json:"locations"`
		Properties map[string]any  `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifact `json:"artifactLocation"`
		Region           sarifRegion   `json:"region"`
	}
	sarifArtifact struct {
		URI string `json:"uri"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
		EndLine     int `json:"endLine,omitempty"`
		EndColumn   int `json:"endColumn,omitempty"`
	}
)

const (
	sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"
	projectURL  = "https://github.com/specgate/specgate"
)

func sarifLevel(s level.Severity) string {
	switch s {
	case level.Error:
		return "error"
	case level.Warn:
		return "warning"
	}
	return "none"
}

// WriteSARIF writes a SARIF 2.1.0 log with one run. Every rule that ran is
// a reporting descriptor (title, description, help with how-to-fix, doc
// URI); results have repository-relative URIs and 1-based regions counted
// in Unicode code points. Findings without a position (a file that cannot
// be read) point at line 1, since code scanning requires a line.
func WriteSARIF(w io.Writer, run *Run) error {
	ids := make([]string, 0, len(run.Rules))
	for _, r := range run.Rules {
		ids = append(ids, r.ID)
	}
	fs := run.Findings()
	for i := range fs {
		if !slices.Contains(ids, fs[i].Rule) {
			ids = append(ids, fs[i].Rule)
		}
	}
	rules := make([]sarifRule, len(ids))
	index := map[string]int{}
	for i, id := range ids {
		rules[i] = run.sarifRule(id)
		index[id] = i
	}
	out := sarifRun{
		Tool:       sarifTool{Driver: sarifDriver{Name: run.Tool.Name, Version: run.Tool.Version, InformationURI: projectURL, Rules: rules}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	if !run.Start.IsZero() {
		inv := sarifInvocation{ExecutionSuccessful: true, StartTimeUTC: run.Start.UTC().Format(timeFormat)}
		if run.Elapsed > 0 {
			inv.EndTimeUTC = run.Start.Add(run.Elapsed).UTC().Format(timeFormat)
		}
		out.Invocation = []sarifInvocation{inv}
	}
	maturity := map[string]string{}
	for i := range run.Files {
		if m, ok := run.Files[i].Maturity(); ok {
			maturity[run.fileURI(run.Files[i].Name)] = m.Level
		}
	}
	if len(maturity) > 0 {
		out.Properties = map[string]any{"maturity": maturity}
	}
	for i := range fs {
		out.Results = append(out.Results, run.sarifResult(&fs[i], index[fs[i].Rule]))
	}
	return WriteIndentedJSON(w, sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{out}})
}

const timeFormat = "2006-01-02T15:04:05.000Z"

func (run *Run) sarifRule(id string) sarifRule {
	title, desc := run.ruleText(id)
	r := sarifRule{ID: id, ShortDescription: sarifText{title}, FullDescription: sarifText{firstParagraph(desc)},
		DefaultConfiguration: sarifConfig{Level: "error"}}
	help := []string{desc}
	md := []string{"**" + title + "**", desc}
	if rule := run.Rule(id); rule != nil {
		r.Name = pascal(id)
		r.HelpURI = rule.DocURL
		r.DefaultConfiguration.Level = sarifLevel(rule.Severity)
		// SARIF wants tags unique; a category and a family may share a name.
		tags := appendNew([]string{strings.ToLower(rule.Category)}, rule.Family)
		tags = append(tags, "maturity-"+strings.ToLower(rule.Maturity))
		r.Properties = map[string]any{"category": rule.Category, "maturity": rule.Maturity, "tags": tags}
		if rule.HowToFix != "" {
			help = append(help, "How to fix: "+rule.HowToFix)
			md = append(md, "#### How to fix", rule.HowToFix)
		}
		if r.HelpURI != "" {
			help = append(help, "Documentation: "+r.HelpURI)
			md = append(md, "[Documentation]("+r.HelpURI+")")
		}
	}
	r.Help = sarifHelp{Text: strings.Join(help, "\n\n"), Markdown: strings.Join(md, "\n\n")}
	return r
}

func (run *Run) sarifResult(f *Finding, ruleIndex int) sarifResult {
	region := sarifRegion{StartLine: 1}
	if f.Range.Start.Line > 0 {
		region = sarifRegion{StartLine: int(f.Range.Start.Line), StartColumn: int(f.Range.Start.Col)}
		if f.Range.End.Line > 0 {
			region.EndLine, region.EndColumn = int(f.Range.End.Line), int(f.Range.End.Col)
		}
	}
	res := sarifResult{
		RuleID: f.Rule, RuleIndex: ruleIndex, Level: sarifLevel(f.Severity), Message: sarifText{f.Message},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
			ArtifactLocation: sarifArtifact{URI: run.fileURI(f.File)}, Region: region}}},
	}
	if f.Pointer != "" {
		res.Properties = map[string]any{"pointer": f.Pointer}
	}
	return res
}

// firstParagraph keeps a description's first paragraph: code scanning shows
// fullDescription in a list, and the whole text is in help.
func firstParagraph(s string) string {
	if ps := paragraphs(s); len(ps) > 0 {
		return ps[0]
	}
	return ""
}

// pascal turns a rule id into the PascalCase name SARIF viewers show.
func pascal(id string) string {
	var b strings.Builder
	for part := range strings.SplitSeq(id, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}
