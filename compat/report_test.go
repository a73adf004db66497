package compat

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/outputtest"
	"github.com/specgate/specgate/internal/schematest"
	"github.com/specgate/specgate/spec"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata/reports")

// goldenReport checks the default-response case (changes in the base and
// the revision, at every level) and a file that cannot be read.
func goldenReport(t *testing.T) *Report {
	fx := readFixture(t, "testdata/cases/default-response.txtar")
	t.Chdir(fx.dir)
	opts := Options{Loader: spec.NewLoader(spec.Options{})}
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return &Report{Tool: "specgate", Version: "test", Mode: "files", Base: "base.yaml", Start: start, Stop: start.Add(42 * time.Millisecond),
		Results: []Result{
			CheckFiles(context.Background(), opts, "base.yaml", "rev.yaml"),
			CheckFiles(context.Background(), opts, "base.yaml", "missing.yaml"),
		}}
}

func TestReportsGolden(t *testing.T) {
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			golden, err := filepath.Abs(filepath.Join("testdata", "reports", "default-response."+format))
			if err != nil {
				t.Fatal(err)
			}
			// The golden file of the chrome every HTML report shares.
			reportsChrome, err := filepath.Abs(filepath.Join("..", "reports", "testdata", "golden", "chrome.html"))
			if err != nil {
				t.Fatal(err)
			}
			rep := goldenReport(t)
			var buf bytes.Buffer
			if err := Write(&buf, format, rep, false); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			if format == "html" {
				// The page's chrome (head, style, script) is the report
				// template's, compared with the reports package's golden file.
				var chrome []byte
				got, chrome = outputtest.SplitPage(got)
				if want, err := os.ReadFile(reportsChrome); err != nil {
					t.Fatal(err)
				} else if !bytes.Equal(chrome, want) {
					t.Errorf("the html report's chrome differs from %s (go test ./reports -update rewrites it)", reportsChrome)
				}
			}
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s report differs from %s (go test ./compat -run Golden -update rewrites it):\n%s", format, golden, got)
			}
			if format == "json" || format == "ctrf" {
				var v map[string]any
				if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
					t.Errorf("invalid JSON: %v", err)
				}
			}
			if rep.ExitCode() != 2 || rep.Verdict() != Error {
				t.Errorf("exit %d, verdict %s: an unreadable file makes the run an error", rep.ExitCode(), rep.Verdict())
			}
		})
	}
}

// The CTRF report counts its tests and carries the fields the CTRF schema
// requires.
func TestCTRFShape(t *testing.T) {
	rep := goldenReport(t)
	var buf bytes.Buffer
	if err := Write(&buf, "ctrf", rep, false); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		ReportFormat string `json:"reportFormat"`
		SpecVersion  string `json:"specVersion"`
		Results      struct {
			Tool    struct{ Name string }
			Summary map[string]int64
			Tests   []struct {
				Name, Status string
				Duration     *int64
				Extra        *struct {
					SpecFile                 string
					LineNumber, ColumnNumber int
					RuleViolation            struct{ Rule string }
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ReportFormat != "CTRF" || doc.SpecVersion == "" || doc.Results.Tool.Name != "specgate" {
		t.Errorf("header %+v", doc)
	}
	counts := map[string]int64{}
	for _, tc := range doc.Results.Tests {
		if tc.Name == "" || tc.Duration == nil {
			t.Errorf("test without name or duration: %+v", tc)
		}
		counts[tc.Status]++
		if tc.Status == "failed" && tc.Extra != nil && (tc.Extra.SpecFile == "" || tc.Extra.LineNumber == 0 || tc.Extra.RuleViolation.Rule == "") {
			t.Errorf("failed change without location or rule: %+v", tc.Extra)
		}
	}
	s := doc.Results.Summary
	// 2 breaking changes and the unreadable file fail.
	if s["tests"] != int64(len(doc.Results.Tests)) || s["failed"] != 3 || s["failed"] != counts["failed"] || s["passed"] != counts["passed"] {
		t.Errorf("summary %v, tests by status %v", s, counts)
	}
}

// The CTRF report is valid against the CTRF JSON Schemas the lint reports'
// CTRF is checked against, and names its version.
func TestCTRFMatchesSchema(t *testing.T) {
	schema, err := filepath.Abs(filepath.Join("..", "reports", "testdata", "schemas", "ctrf.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, "ctrf", goldenReport(t), false); err != nil { // in the fixture's folder
		t.Fatal(err)
	}
	for _, name := range []string{"ctrf.schema.json", "ctrf-schema-0.0.json"} {
		path := filepath.Join(filepath.Dir(schema), name)
		if errs := schematest.Complaints(t, buf.Bytes(), path); errs != nil {
			t.Errorf("the CTRF report does not match %s:\n%s", name, strings.Join(errs, "\n"))
		}
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"specVersion": "0.0.0"`)) {
		t.Errorf("the CTRF report does not name the schema's version 0.0.0:\n%.200s", buf.String())
	}
	// A field the schema does not know on a test fails it.
	broken := bytes.Replace(buf.Bytes(), []byte(`"status"`), []byte(`"verdict": "x", "status"`), 1)
	if errs := schematest.Complaints(t, broken, schema); len(errs) == 0 {
		t.Error("a CTRF test with an unknown field passed the schema")
	}
}
