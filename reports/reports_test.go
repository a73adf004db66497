package reports_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/reports/lintreport"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

func TestMaturity(t *testing.T) {
	d := func(sev level.Severity, maturity string) reports.Finding {
		return reports.Finding{Rule: "r", Severity: sev, Maturity: maturity}
	}
	for _, tc := range []struct {
		name  string
		diags []reports.Finding
		want  string
	}{
		{"clean", nil, "Platinum"},
		{"warnings never lower it", []reports.Finding{d(level.Warn, "Baseline"), d(level.Warn, "Silver")}, "Platinum"},
		{"a Gold error", []reports.Finding{d(level.Error, "Gold")}, "Silver (1 Gold error to fix for Gold)"},
		{"the lowest error decides", []reports.Finding{d(level.Error, "Gold"), d(level.Error, "Silver"), d(level.Error, "Silver")},
			"Bronze (2 Silver errors to fix for Silver)"},
		{"a Baseline error", []reports.Finding{d(level.Error, "Baseline"), d(level.Error, "Gold")}, "none (1 Baseline error to fix for Baseline)"},
		{"an unknown maturity counts as Baseline", []reports.Finding{d(level.Error, "")}, "none (1 Baseline error to fix for Baseline)"},
	} {
		f := reports.File{Name: "a.yaml", Loaded: true, Findings: tc.diags}
		m, ok := f.Maturity()
		if !ok || m.String() != tc.want {
			t.Errorf("%s: maturity %q (ok %v), want %q", tc.name, m, ok, tc.want)
		}
	}
	f := reports.File{Name: "a.yaml", Findings: []reports.Finding{d(level.Error, "Gold")}}
	if m, ok := f.Maturity(); ok {
		t.Errorf("a file that did not load has maturity %q", m)
	}
}

func TestLookup(t *testing.T) {
	for name, want := range map[string]string{"text": "stylish", "STYLISH": "stylish", "md": "markdown", "sarif": "sarif", "ctrf": "ctrf"} {
		if f, ok := reports.Lookup(name); !ok || f.Name != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", name, f.Name, ok, want)
		}
	}
	if _, ok := reports.Lookup("xml"); ok {
		t.Error("Lookup(xml) found a format")
	}
}

func TestRepoPath(t *testing.T) {
	run := &reports.Run{Dir: "/repo/specs", Root: "/repo"}
	for name, want := range map[string]string{
		"api.yaml":                     "specs/api.yaml ok",
		"../other/b.yaml":              "other/b.yaml ok",
		"/repo/c.yaml":                 "c.yaml ok",
		"../../elsewhere.yaml":         "../../elsewhere.yaml outside",
		"/tmp/x.yaml":                  "/tmp/x.yaml outside",
		"https://example.com/api.yaml": "https://example.com/api.yaml outside",
		"<stdin>":                      "<stdin> outside",
	} {
		p, ok := run.RepoPath(name)
		got := p + " outside"
		if ok {
			got = p + " ok"
		}
		if got != want {
			t.Errorf("RepoPath(%q) = %s, want %s", name, got, want)
		}
	}
}

func TestStylish(t *testing.T) {
	run := testRun(t)
	out := string(write(t, reports.WriteStylish, run))
	for _, want := range []string{
		"testdata/api.yaml:15:9 error error-response-schema response 404 of GET /pets has no schema\n",
		"testdata/parts/pet.yaml:4:7 error path-parameters-snake-case ",
		"missing.yaml error load-error no such file or folder\n",
		"\ntestdata/api.yaml  OpenAPI 3.1.0   2 errors, 3 warnings  maturity Baseline (1 Bronze error to fix for Bronze)\n",
		"events.json        AsyncAPI 3.0.0  0 errors, 0 warnings  maturity Platinum\n",
		"broken.yaml        -               1 error, 0 warnings   not loaded\n",
		"4 files, 4 errors, 3 warnings in 1.5s\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stylish output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Error("colour without Color")
	}
	run.Color = true
	out = string(write(t, reports.WriteStylish, run))
	if !strings.Contains(out, "\x1b[33mwarn \x1b[0m") || !strings.Contains(out, "\x1b[31merror\x1b[0m") {
		t.Errorf("no colour in %q", out)
	}
}

// TestJSONIsTheReportIndented: the report written a diagnostic at a time
// is byte for byte the whole report encoded and indented at once (with
// and without diagnostics, with characters HTML would escape).
func TestJSONIsTheReportIndented(t *testing.T) {
	full := testRun(t)
	empty := &reports.Run{Tool: full.Tool, Kind: reports.Lint, Files: []reports.File{{Name: "a.yaml", Format: "OpenAPI 3.1.0", Loaded: true}}}
	for name, run := range map[string]*reports.Run{"findings": full, "none": empty} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(reports.NewJSONReport(run)); err != nil {
			t.Fatal(err)
		}
		if got := write(t, reports.WriteJSON, run); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: WriteJSON wrote\n%s\nthe report indented is\n%s", name, got, want.Bytes())
		}
	}
}

func TestJSON(t *testing.T) {
	var rep reports.JSONReport
	if err := json.Unmarshal(write(t, reports.WriteJSON, testRun(t)), &rep); err != nil {
		t.Fatal(err)
	}
	d := rep.Diagnostics[0]
	if d.RuleID != "health-endpoint" || d.Severity != "warn" || d.Line != 5 || d.Column != 1 || d.EndLine != 5 || d.EndColumn != 6 ||
		d.Pointer != "/paths" || d.Category != "Operations" || d.Maturity != "Gold" || d.File != "testdata/api.yaml" ||
		!strings.HasSuffix(d.DocURL, "/health-endpoint.md") {
		t.Errorf("first diagnostic = %+v", d)
	}
	if last := rep.Diagnostics[len(rep.Diagnostics)-1]; last.RuleID != linter.LoadErrorRule || last.DocURL != "" || last.Line != 0 {
		t.Errorf("load errors have no doc page nor position: %+v", last)
	}
	s := rep.Summary
	if s.Files != 4 || s.Errors != 4 || s.Warnings != 3 || len(s.PerFile) != 4 {
		t.Fatalf("summary = %+v", s)
	}
	if f := s.PerFile[0]; !f.Loaded || f.Errors != 2 || f.Warnings != 3 || f.Maturity != "Baseline" || f.Format != "OpenAPI 3.1.0" {
		t.Errorf("first file = %+v", f)
	}
	if f := s.PerFile[2]; f.Loaded || f.Maturity != "" {
		t.Errorf("unloaded file = %+v", f)
	}
}

func TestSARIF(t *testing.T) {
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string `json:"id"`
						ShortDescription struct{ Text string }
						FullDescription  struct{ Text string }
						Help             struct{ Text, Markdown string }
						HelpURI          string `json:"helpUri"`
						Default          struct {
							Level string `json:"level"`
						} `json:"defaultConfiguration"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(write(t, reports.WriteSARIF, testRun(t)), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	rules := run.Tool.Driver.Rules
	if len(rules) != 7 || rules[6].ID != linter.LoadErrorRule {
		t.Fatalf("rules: every rule that ran plus load-error, got %d", len(rules))
	}
	r := rules[1]
	if r.ID != "error-response-schema" || r.ShortDescription.Text != "Error responses have a schema" ||
		r.FullDescription.Text != "What error-response-schema checks, in a first paragraph." ||
		!strings.Contains(r.Help.Text, "How to fix: Do what error-response-schema asks.") || !strings.Contains(r.Help.Markdown, "#### How to fix") ||
		r.HelpURI != linter.DocsURL+"error-response-schema.md" || r.Default.Level != "error" {
		t.Errorf("rule = %+v", r)
	}
	res := run.Results[4]
	loc := res.Locations[0].PhysicalLocation
	if res.RuleID != "path-parameters-snake-case" || rules[res.RuleIndex].ID != res.RuleID || res.Level != "error" ||
		loc.ArtifactLocation.URI != "specs/testdata/parts/pet.yaml" ||
		loc.Region.StartLine != 4 || loc.Region.StartColumn != 7 || loc.Region.EndLine != 4 || loc.Region.EndColumn != 18 {
		t.Errorf("result = %+v", res)
	}
	if res := run.Results[0]; res.Level != "warning" {
		t.Errorf("a warn diagnostic has level %q", res.Level)
	}
	last := run.Results[len(run.Results)-1].Locations[0].PhysicalLocation
	if last.ArtifactLocation.URI != "specs/missing.yaml" || last.Region.StartLine != 1 || last.Region.StartColumn != 0 {
		t.Errorf("a finding without a position points at line 1 of its file: %+v", last)
	}
}

type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Type string `xml:"type,attr"`
				Text string `xml:",chardata"`
			} `xml:"failure"`
			Error     *struct{} `xml:"error"`
			SystemOut string    `xml:"system-out"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnit(t *testing.T) {
	run := testRun(t)
	var doc junitDoc
	if err := xml.Unmarshal(write(t, reports.WriteJUnit, run), &doc); err != nil {
		t.Fatal(err)
	}
	// One case per rule that applies to each file: five OpenAPI rules, the
	// AsyncAPI one, and a load-error case for each file that did not load.
	if doc.Tests != 8 || doc.Failures != 2 || doc.Errors != 2 || len(doc.Suites) != 4 {
		t.Fatalf("tests %d, failures %d, errors %d, suites %d", doc.Tests, doc.Failures, doc.Errors, len(doc.Suites))
	}
	api := doc.Suites[0]
	c := api.Cases[4]
	if api.Name != "testdata/api.yaml" || c.Name != "path-parameters-snake-case" || c.Failure == nil || c.Failure.Type != "error" ||
		c.Failure.Text != `testdata/parts/pet.yaml:4:7 error path parameter "petId" is not snake_case (use "pet_id") (/get/parameters/0/name)` {
		t.Errorf("case = %+v", c)
	}
	if c := api.Cases[1]; c.Name != "health-endpoint" || c.Failure != nil || !strings.Contains(c.SystemOut, "warn the API has no GET /health operation") {
		t.Errorf("a warning below the fail severity is output, not a failure: %+v", c)
	}
	if c := doc.Suites[1].Cases; len(c) != 1 || c[0].Name != "channel-description" || c[0].Failure != nil {
		t.Errorf("AsyncAPI cases = %+v", c)
	}
	if c := doc.Suites[2].Cases; len(c) != 1 || c[0].Name != linter.LoadErrorRule || c[0].Error == nil {
		t.Errorf("unloaded file cases = %+v", c)
	}

	run.FailSeverity = level.Warn
	if err := xml.Unmarshal(write(t, reports.WriteJUnit, run), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Failures != 5 || doc.Errors != 2 {
		t.Errorf("failing at warn: failures %d, errors %d; want 5, 2", doc.Failures, doc.Errors)
	}
	run.FailSeverity = level.Off
	if err := xml.Unmarshal(write(t, reports.WriteJUnit, run), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Failures != 0 || doc.Errors != 2 {
		t.Errorf("--fail-severity off: failures %d, errors %d; want 0, 2 (a file that does not load is always an error)", doc.Failures, doc.Errors)
	}
}

func TestCTRF(t *testing.T) {
	var rep struct {
		ReportFormat string `json:"reportFormat"`
		SpecVersion  string `json:"specVersion"`
		Results      struct {
			Tool    struct{ Name string }
			Summary struct{ Tests, Passed, Failed, Start, Stop int }
			Tests   []struct {
				Name, Status, RawStatus string
				Suite                   []string
				Line                    int
				Extra                   struct {
					RuleID, Maturity string
					Outputs          []reports.JSONDiagnostic
				}
			}
			Extra struct{ Files []reports.FileSummary }
		}
	}
	if err := json.Unmarshal(write(t, reports.WriteCTRF, testRun(t)), &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Results.Summary
	if rep.ReportFormat != "CTRF" || rep.SpecVersion != reports.CTRFSpecVersion || rep.Results.Tool.Name != "specgate" ||
		s.Tests != 8 || s.Failed != 4 || s.Passed != 4 || s.Stop-s.Start != 1500 {
		t.Errorf("report = %+v", rep)
	}
	tc := rep.Results.Tests[2]
	if tc.Name != "media-type-xml in testdata/api.yaml" || tc.Status != "passed" || tc.RawStatus != "warn" || tc.Line != 24 ||
		tc.Extra.RuleID != "media-type-xml" || tc.Extra.Maturity != "Bronze" || len(tc.Extra.Outputs) != 1 ||
		tc.Extra.Outputs[0].Message != trickyMessage || tc.Extra.Outputs[0].Pointer != "/paths/~1pets/post/requestBody/content/application~1xml" {
		t.Errorf("test = %+v", tc)
	}
	if tc := rep.Results.Tests[5]; tc.Extra.RuleID != "channel-description" || tc.Status != "passed" || tc.Extra.Outputs == nil || len(tc.Extra.Outputs) != 0 {
		t.Errorf("a clean rule has an empty outputs array: %+v", tc)
	}
	if f := rep.Results.Extra.Files; len(f) != 4 || f[1].Maturity != "Platinum" {
		t.Errorf("files = %+v", f)
	}
}

func TestGitHub(t *testing.T) {
	run := testRun(t)
	run.Files = lintreport.Files([]linter.Result{{File: "a,b:c.yaml", Format: "OpenAPI 3.0.3", Findings: []reports.Finding{
		{Rule: "media-type-xml", Severity: level.Warn, Message: trickyMessage, File: "a,b:c.yaml", Range: at(2, 3, 4, 5)},
		{Rule: "error-response-schema", Severity: level.Error, Message: "plain", Maturity: "Bronze", File: "a,b:c.yaml", Range: at(7, 1, 7, 9)},
	}}}, nil)
	want := "::warning file=specs/a%2Cb%3Ac.yaml,line=2,col=3,endLine=4,title=media-type-xml::" +
		"application/xml \"is\" <discouraged>, use JSON: 100%25 | always%0Asecond line & more\n" +
		"::error file=specs/a%2Cb%3Ac.yaml,line=7,col=1,endLine=7,endColumn=9,title=error-response-schema::plain\n" +
		"::notice title=specgate summary::a,b:c.yaml: 1 error, 1 warning, maturity Baseline (1 Bronze error to fix for Bronze)\n"
	if got := string(write(t, reports.WriteGitHub, run)); got != want {
		t.Errorf("github output:\n%s\nwant:\n%s", got, want)
	}
}

func TestMarkdownCapsFindings(t *testing.T) {
	run := testRun(t)
	var ds []reports.Finding
	for i := range reports.MarkdownMaxFindings + 5 {
		ds = append(ds, reports.Finding{Rule: "operation-summary", Severity: level.Warn, Message: fmt.Sprintf("finding %d", i), File: "a.yaml", Range: at(i+1, 1, i+1, 2)})
	}
	run.Files = lintreport.Files([]linter.Result{{File: "a.yaml", Format: "OpenAPI 3.1.0", Findings: ds}}, nil)
	out := string(write(t, reports.WriteMarkdown, run))
	if !strings.Contains(out, "| a.yaml | OpenAPI 3.1.0 | 0 | 205 | **Platinum** |") ||
		!strings.Contains(out, fmt.Sprintf("finding %d |", reports.MarkdownMaxFindings-1)) ||
		strings.Contains(out, fmt.Sprintf("finding %d |", reports.MarkdownMaxFindings)) || !strings.Contains(out, "… and 5 more") {
		t.Errorf("markdown:\n%s", out)
	}
}

func TestOperationsOf(t *testing.T) {
	doc, err := spec.NewLoader(spec.Options{}).Load(context.Background(), "testdata/api.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, op := range reports.OperationsOf(doc) {
		for _, r := range op.Rows {
			got = append(got, strings.Join([]string{op.Method, op.Path, r.RequestType, r.Status, r.ResponseType}, " "))
		}
	}
	want := []string{
		"GET /pets  200 application/json",
		"GET /pets  404 ",
		"POST /pets application/json 201 ",
		"POST /pets application/xml 201 ",
		"GET /pets/{petId}  200 application/json",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("operation rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRealLintMatchesSchemas lints the example spec with the built-in
// rules and the strict ruleset, and validates the SARIF and CTRF of that
// run, so that the real rules' metadata fits the schemas too.
func TestRealLintMatchesSchemas(t *testing.T) {
	reg, err := rulesets.BuiltinRegistry()
	if err != nil {
		t.Fatal(err)
	}
	sevs, err := rulesets.Resolve(reg, nil, rulesets.Strict)
	if err != nil {
		t.Fatal(err)
	}
	l, err := linter.New(context.Background(), linter.Options{Registry: reg, Severities: sevs})
	if err != nil {
		t.Fatal(err)
	}
	run := lintreport.New(l.LintFiles(context.Background(), []string{"../examples/petstore.yaml", "testdata/api.yaml"}),
		lintreport.Rules(reg, sevs), nil)
	run.Tool = reports.Tool{Name: "specgate", Version: "test"}
	if len(run.Findings()) == 0 {
		t.Fatal("the example has no finding under strict; pick inputs that do")
	}
	if errs := matchSchema(t, write(t, reports.WriteSARIF, run), "sarif-2.1.0-rtm.5.json"); errs != nil {
		t.Errorf("SARIF:\n%s", strings.Join(errs, "\n"))
	}
	if errs := matchSchema(t, write(t, reports.WriteCTRF, run), "ctrf-schema-0.0.json"); errs != nil {
		t.Errorf("CTRF:\n%s", strings.Join(errs, "\n"))
	}
	var buf bytes.Buffer
	if err := reports.WriteHTML(&buf, run); err != nil || !strings.Contains(buf.String(), `data-rule="`) {
		t.Errorf("html: %v", err)
	}
}

func TestShortList(t *testing.T) {
	tests := []struct {
		items []string
		n     int
		want  string
	}{
		{nil, 3, ""},
		{[]string{"GET /a"}, 3, "GET /a"},
		{[]string{"a", "b", "c"}, 3, "a, b, c"},
		{[]string{"a", "b", "c", "d", "e"}, 3, "a, b, c and 2 more"},
		{[]string{"a", "b"}, 1, "a and 1 more"},
	}
	for _, tt := range tests {
		if got := reports.ShortList(tt.items, tt.n); got != tt.want {
			t.Errorf("ShortList(%q, %d) = %q, want %q", tt.items, tt.n, got, tt.want)
		}
	}
}
