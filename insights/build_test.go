package insights_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// writeCTRF writes a CTRF report of a run with the reports' own writer.
func writeCTRF(t *testing.T, kind reports.Kind, tests []reports.Test, cov []reports.Coverage) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ctrf-report.json")
	sink, err := reports.NewSink(reports.Output{Format: "ctrf", Path: path})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := sink.Begin(&reports.Run{Tool: reports.Tool{Name: "specgate", Version: "test"}, Kind: kind, Start: start}); err != nil {
		t.Fatal(err)
	}
	for i := range tests {
		if err := sink.Add(&tests[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sink.End(cov); err != nil {
		t.Fatal(err)
	}
	return path
}

func op(method, path, status string) reports.OperationKey {
	return reports.OperationKey{Method: method, Path: path, Status: status, ResponseType: "application/json"}
}

func TestAddCTRFStubUsage(t *testing.T) {
	path := writeCTRF(t, reports.StubUsage, []reports.Test{
		{Name: "GET /pets", Suite: []string{"specs/pets.yaml"}, Type: reports.StubUsage, Status: reports.Passed, File: "specs/pets.yaml", Operation: op("GET", "/pets", "200")},
		{Name: "GET /pets 404", Suite: []string{"specs/pets.yaml"}, Type: reports.StubUsage, Status: reports.Passed, File: "specs/pets.yaml", Operation: op("GET", "/pets", "404")},
		{Name: "POST /pets", Suite: []string{"specs/pets.yaml"}, Type: reports.StubUsage, Status: reports.Skipped, File: "specs/pets.yaml", Operation: op("POST", "/pets", "201")},
		{Name: "DELETE /pets/{id}", Suite: []string{"specs/pets.yaml"}, Type: reports.StubUsage, Status: reports.Passed, File: "specs/pets.yaml", Operation: op("DELETE", "/pets/{id}", "204")},
		{Name: "GET /orders", Suite: []string{"orders.yaml"}, Type: reports.StubUsage, Status: reports.Skipped, File: "orders.yaml", Operation: op("GET", "/orders", "200")},
	}, nil)
	dir := t.TempDir()
	s := insights.NewSubmission("mock", "", insights.Tool{Name: "specgate"}, insights.CI{RepoID: "acme/web"})
	if err := s.AddCTRF(context.Background(), path, &insights.Resolver{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if s.Kind != "stub-usage" {
		t.Errorf("kind %q", s.Kind)
	}
	if len(s.Results) != 2 {
		t.Fatalf("results %+v", s.Results)
	}
	pets, orders := s.Results[0], s.Results[1]
	if pets.Spec.ID != "specs/pets.yaml" || pets.Status != "passed" || !reflect.DeepEqual(pets.UsedOperations, []string{"DELETE /pets/{id}", "GET /pets"}) ||
		*pets.Tests != (insights.TestCounts{Tests: 4, Passed: 3, Skipped: 1}) {
		t.Errorf("pets: %+v %+v", pets, pets.Tests)
	}
	if orders.Spec.ID != "orders.yaml" || orders.Status != "skipped" || orders.UsedOperations != nil {
		t.Errorf("orders: %+v", orders)
	}
	var raw map[string]any
	if err := json.Unmarshal(s.Reports.CTRF, &raw); err != nil || raw["reportFormat"] != "CTRF" {
		t.Errorf("the CTRF report is not carried as it is: %v", err)
	}
}

func TestAddCTRFContract(t *testing.T) {
	path := writeCTRF(t, reports.Contract, []reports.Test{
		{Name: "GET /pets", Suite: []string{"api.yaml"}, Type: reports.Contract, Status: reports.Passed, File: "api.yaml", Operation: op("GET", "/pets", "200")},
		{Name: "POST /pets", Suite: []string{"api.yaml"}, Type: reports.Contract, Status: reports.Failed, File: "api.yaml", Operation: op("POST", "/pets", "201")},
	}, []reports.Coverage{{Spec: "api.yaml", Operations: []reports.CoverageRow{
		{OperationKey: op("GET", "/pets", "200"), Status: reports.Covered, Tests: 1},
		{OperationKey: op("POST", "/pets", "201"), Status: reports.Covered, Tests: 1},
		{OperationKey: op("DELETE", "/pets/{id}", "204"), Status: reports.NotCovered},
	}}})
	s := insights.NewSubmission("test", "", insights.Tool{Name: "specgate"}, insights.CI{RepoID: "acme/pets"})
	if err := s.AddCTRF(context.Background(), path, &insights.Resolver{Dir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if s.Kind != "contract" || len(s.Results) != 1 {
		t.Fatalf("kind %q results %+v", s.Kind, s.Results)
	}
	r := s.Results[0]
	want := reports.CoverageMetrics{Spec: "api.yaml", Covered: 2, AfterFilters: 3, Total: 3}
	if r.Status != "failed" || r.Coverage == nil || *r.Coverage != want || r.Tests.Failed != 1 {
		t.Errorf("result %+v coverage %+v", r, r.Coverage)
	}
	if s.Start.IsZero() {
		t.Error("no start")
	}
}

func TestAddCTRFNotCTRF(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctrf-report.json")
	os.WriteFile(path, []byte("{\n  \"results\": {\"tests\": [{\"name\": 3}]}\n}"), 0o644)
	s := insights.NewSubmission("test", "", insights.Tool{}, insights.CI{})
	err := s.AddCTRF(context.Background(), path, &insights.Resolver{})
	if err == nil || !strings.HasPrefix(err.Error(), path+":2:") || !strings.Contains(err.Error(), "name is a JSON number, where CTRF has a string") {
		t.Errorf("error %v", err)
	}
}

// A CTRF report that is not CTRF is located by line and column, the
// column in characters: "é" and "—" before the mistake take 2 and 3 bytes.
func TestAddCTRFNotCTRFColumn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ctrf-report.json")
	os.WriteFile(path, []byte("{\n  \"results\": {\"tool\": {\"name\": \"café—\"}, \"tests\": [{\"name\": 3}]}\n}"), 0o644)
	s := insights.NewSubmission("test", "", insights.Tool{}, insights.CI{})
	err := s.AddCTRF(context.Background(), path, &insights.Resolver{})
	if err == nil || !strings.HasPrefix(err.Error(), path+":2:61: ") {
		t.Errorf("error %v, want it at %s:2:61, the name's value", err, path)
	}
}

func loader() *spec.Loader { return spec.NewLoader(spec.Options{}) }

// TestAddCompat: each operation a failing change affects is sent once,
// with the rules that affect it.
func TestAddCompat(t *testing.T) {
	ctx := context.Background()
	res := compat.CheckFiles(ctx, compat.Options{Loader: loader()}, "testdata/pets-base.yaml", "testdata/pets-rev.yaml")
	rep := &compat.Report{Tool: "specgate", Mode: "files", Base: "testdata/pets-base.yaml", Results: []compat.Result{res}}
	s := insights.NewSubmission("backward-compatibility-check", "backward-compatibility", insights.Tool{}, insights.CI{RepoID: "acme/pets"})
	if err := s.AddCompat(ctx, rep, nil, &insights.Resolver{}); err != nil {
		t.Fatal(err)
	}
	if len(s.Results) != 1 {
		t.Fatalf("results %+v", s.Results)
	}
	r := s.Results[0]
	want := []insights.AffectedOperation{
		{Operation: "GET /pets", Rules: []string{"response-property-removed"}},
		{Operation: "POST /pets", Rules: []string{"response-property-removed"}},
	}
	if r.Status != "incompatible" || r.Spec.ID != "testdata/pets-rev.yaml" || !reflect.DeepEqual(r.Compat.AffectedOperations, want) ||
		r.Compat.Breaking != 1 || r.Compat.Reason != "breaking-changes" {
		t.Errorf("result %+v compat %+v", r, r.Compat)
	}
	var raw struct {
		Results []struct{ Verdict string } `json:"results"`
	}
	if err := json.Unmarshal(s.Reports.Compat, &raw); err != nil || len(raw.Results) != 1 || raw.Results[0].Verdict != "incompatible" {
		t.Errorf("the compat report: %v %s", err, s.Reports.Compat)
	}
}

// TestCheckConsumers: the consumers a service reports change the
// verdict's message, for each outcome the product specification lists.
func TestCheckConsumers(t *testing.T) {
	ctx := context.Background()
	svc := newService(t, "")
	for _, m := range []struct {
		id, repo string
		used     []string
	}{
		{"web-mock-01", "acme/web", []string{"GET /pets", "POST /pets"}},
		{"app-mock-01", "acme/app", []string{"GET /pets"}},
		{"cli-mock-01", "acme/cli", []string{"DELETE /pets/{id}"}},
	} {
		s := insights.NewSubmission("mock", "stub-usage", insights.Tool{}, insights.CI{RepoID: m.repo})
		s.ID = m.id
		s.Results = []insights.SpecResult{{Spec: insights.SpecRef{ID: "testdata/pets-rev.yaml"}, Status: "passed", UsedOperations: m.used}}
		if _, err := client(svc.ts.URL, "", nil).Submit(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	check := func(t *testing.T, url, specID string) (compat.Result, []insights.ConsumerCheck) {
		t.Helper()
		res := compat.CheckFiles(ctx, compat.Options{Loader: loader()}, "testdata/pets-base.yaml", "testdata/pets-rev.yaml")
		if specID != "" {
			res.Spec = specID
		}
		rep := &compat.Report{Results: []compat.Result{res}}
		checks := insights.CheckConsumers(ctx, client(url, "", &sleeps{}), rep, &insights.Resolver{})
		return rep.Results[0], checks
	}
	t.Run("affected consumers", func(t *testing.T) {
		r, checks := check(t, svc.ts.URL, "")
		want := "; 2 affected consumers: acme/app (GET /pets), acme/web (GET /pets, POST /pets)"
		if !strings.HasSuffix(r.Message, want) || r.Verdict != compat.Incompatible {
			t.Errorf("message %q, want it to end with %q", r.Message, want)
		}
		if checks[0].Outcome != insights.ConsumersFound || !reflect.DeepEqual(checks[0].Consumers["POST /pets"], []string{"acme/web"}) {
			t.Errorf("check %+v", checks[0])
		}
	})
	t.Run("no reported consumers", func(t *testing.T) {
		r, checks := check(t, svc.ts.URL, "other.yaml")
		want := "; the insights service reports no consumer of GET /pets, POST /pets"
		if !strings.HasSuffix(r.Message, want) || checks[0].Outcome != insights.ConsumersNone {
			t.Errorf("message %q, want it to end with %q", r.Message, want)
		}
	})
	t.Run("insights check failed", func(t *testing.T) {
		down := newService(t, "")
		down.before = func(int32, http.ResponseWriter, *http.Request) bool { panic(http.ErrAbortHandler) }
		r, checks := check(t, down.ts.URL, "")
		if !strings.Contains(r.Message, "; the consumers of the affected operations could not be checked: asking for the consumers of testdata/pets-rev.yaml to the insights service at") ||
			checks[0].Outcome != insights.ConsumersFailed {
			t.Errorf("message %q", r.Message)
		}
	})
	t.Run("each operation asked once", func(t *testing.T) {
		var asked []string
		svc.before = func(_ int32, w http.ResponseWriter, r *http.Request) bool {
			asked = append(asked, r.URL.Query()["operation"]...)
			return false
		}
		defer func() { svc.before = nil }()
		check(t, svc.ts.URL, "")
		if !reflect.DeepEqual(asked, []string{"GET /pets", "POST /pets"}) {
			t.Errorf("asked %v", asked)
		}
	})
	t.Run("compatible results are not checked", func(t *testing.T) {
		res := compat.CheckFiles(ctx, compat.Options{Loader: loader()}, "testdata/pets-base.yaml", "testdata/pets-base.yaml")
		rep := &compat.Report{Results: []compat.Result{res}}
		before := res.Message
		checks := insights.CheckConsumers(ctx, client("http://127.0.0.1:1", "", &sleeps{}), rep, &insights.Resolver{})
		if rep.Results[0].Message != before || checks[0].Outcome != "" {
			t.Errorf("message %q, check %+v", rep.Results[0].Message, checks[0])
		}
	})
}
