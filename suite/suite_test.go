package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/specgate/specgate/config"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// sut is the system under test: orders and health, correct unless broken.
func sut(t *testing.T, broken bool) string {
	var mu sync.Mutex
	orders := map[string]string{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"status": "up"}`)
	})
	mux.HandleFunc("POST /orders", func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Pet string }
		json.NewDecoder(r.Body).Decode(&in)
		mu.Lock()
		orders["1"] = in.Pet
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(201)
		fmt.Fprintf(w, `{"id": 1, "pet": %q}`, in.Pet)
	})
	mux.HandleFunc("GET /orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		pet, ok := orders[r.PathValue("id")]
		mu.Unlock()
		if !ok {
			w.WriteHeader(404)
			return
		}
		if broken {
			pet = "someone else"
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id": 1, "pet": %q}`, pet)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// loadSuite loads testdata/specgate.yaml with SUT_URL set to url.
func loadSuite(t *testing.T, url string) *config.Config {
	t.Helper()
	cfg, err := config.Load("testdata/specgate.yaml", config.Options{Getenv: func(k string) string {
		if k == "SUT_URL" {
			return url
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestSuiteEndToEnd runs specgate.yaml's suite: two specs of the system
// under test contract-tested, a dependency mocked on a free port, and a
// workflow calling both; one CTRF report covers them all and validates
// against the CTRF schema.
func TestSuiteEndToEnd(t *testing.T) {
	for _, broken := range []bool{false, true} {
		t.Run(fmt.Sprintf("broken=%v", broken), func(t *testing.T) {
			url := sut(t, broken)
			cfg := loadSuite(t, url)
			dir := t.TempDir()
			ctrf := filepath.Join(dir, "ctrf-report.json")
			sink, err := reports.NewSink(reports.Output{Format: "ctrf", Path: ctrf}, reports.Output{Format: "junit", Path: filepath.Join(dir, "junit.xml")})
			if err != nil {
				t.Fatal(err)
			}
			sum, err := Run(context.Background(), Options{Config: cfg, Parallel: 1}, sink, &reports.Run{Tool: reports.Tool{Name: "specgate", Version: "test"}})
			if err != nil {
				t.Fatal(err)
			}
			if sum.Specs != 2 || sum.Workflows != 1 || sum.Mocks != 1 {
				t.Errorf("ran %d specs, %d workflows, %d mocks; want 2, 1, 1", sum.Specs, sum.Workflows, sum.Mocks)
			}
			data, err := os.ReadFile(ctrf)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				Results struct {
					Tests []struct {
						Name, Status, Message string
						Suite                 []string
						Type                  string
						Extra                 map[string]any
					}
				}
			}
			if err := json.Unmarshal(data, &rep); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tc := range rep.Results.Tests {
				got = append(got, tc.Type+" "+strings.Join(tc.Suite, " › ")+" › "+strings.SplitN(tc.Name, " ", 2)[0]+" "+tc.Status)
			}
			readStatus := "passed"
			if broken {
				readStatus = "failed"
			}
			want := []string{
				"contract orders.openapi.yaml › POST /orders › POST passed",
				"contract orders.openapi.yaml › GET /orders/{id} › GET passed",
				"contract health.openapi.yaml › GET /health › GET passed",
				"workflow adopt.arazzo.yaml › adopt › find-pet: passed",
				"workflow adopt.arazzo.yaml › adopt › order: passed",
				"workflow adopt.arazzo.yaml › adopt › read: " + readStatus,
			}
			if !slices.Equal(got, want) {
				t.Errorf("tests:\n got %q\nwant %q", got, want)
			}
			if (sum.Failed > 0) != broken {
				t.Errorf("failed %d with broken=%v", sum.Failed, broken)
			}
			for _, tc := range rep.Results.Tests {
				if tc.Type == "workflow" && tc.Extra["outputs"] == nil {
					t.Errorf("step %s has no exchanges in extra.outputs", tc.Name)
				}
			}
			validateCTRF(t, data)
		})
	}
}

func validateCTRF(t *testing.T, data []byte) {
	schemaFile := filepath.Join("..", "..", "shared", "ctrf", "ctrf.schema.json")
	raw, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Log("no CTRF schema beside the repository; not validated")
		return
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("ctrf.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("ctrf.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("the CTRF report does not validate: %v", err)
	}
}

// TestRunKind checks the kind a suite's report names: contract for contract
// tests alone, workflow for workflows alone, and none for a suite of both,
// whose tests each keep their own type (what the insights service files
// them under).
func TestRunKind(t *testing.T) {
	url := sut(t, false)
	for _, tc := range []struct {
		name  string
		extra []string
		kind  reports.Kind
		types []reports.Kind
	}{
		{"contract", []string{"testdata/health.openapi.yaml"}, reports.Contract, []reports.Kind{reports.Contract}},
		{"workflow", []string{"testdata/adopt.arazzo.yaml"}, reports.Workflow, []reports.Kind{reports.Workflow}},
		{"both", []string{"testdata/health.openapi.yaml", "testdata/adopt.arazzo.yaml"}, "", []reports.Kind{reports.Contract, reports.Workflow}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctrf := filepath.Join(t.TempDir(), "ctrf-report.json")
			sink, err := reports.NewSink(reports.Output{Format: "ctrf", Path: ctrf})
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Extra: tc.extra, BaseURL: url}
			if tc.kind != reports.Contract {
				opts.Inputs = map[string]map[string]any{"adopt": {"petId": 1}}
			}
			if _, err := Run(context.Background(), opts, sink, &reports.Run{Tool: reports.Tool{Name: "specgate"}}); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(ctrf)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var types []reports.Kind
			run, err := reports.DecodeCTRF(f, func(test *reports.Test) error {
				if !slices.Contains(types, test.Type) {
					types = append(types, test.Type)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if run.Kind != tc.kind || !slices.Equal(types, tc.types) {
				t.Errorf("the report's kind is %q and its tests' types %q; want %q and %q", run.Kind, types, tc.kind, tc.types)
			}
		})
	}
}

// TestInputsChecked checks the inputs before anything runs: a workflowId
// that no document of the run has is an error naming it, where the inputs
// file writes it, with the id meant; a workflow whose required inputs are
// missing or do not fit its schema is one error for the workflow, not a
// failure of each of its steps.
func TestInputsChecked(t *testing.T) {
	const inputsAdvice = " (give them with --inputs)"
	doc := filepath.Join("testdata", "inputs", "find.arazzo.yaml")
	for _, tc := range []struct {
		name   string
		inputs map[string]map[string]any
		at     map[string]spec.Pos
		want   []string
	}{
		{"unknown workflow", map[string]map[string]any{"find": {"petId": 1}, "fnd": {"petId": 1}}, map[string]spec.Pos{"fnd": {Line: 3, Col: 1}},
			[]string{`inputs.yaml:3:1: inputs of workflow "fnd", which no Arazzo document of the run has; did you mean "find"?`}},
		{"missing", nil, nil,
			[]string{doc + `: workflow "find" cannot run: input "petId" is missing` + inputsAdvice}},
		{"wrong type", map[string]map[string]any{"find": {"petId": "one"}}, nil,
			[]string{doc + `: workflow "find" cannot run: its inputs do not fit its inputs schema: $.petId: expected integer, found string "one"` + inputsAdvice}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctrf := filepath.Join(t.TempDir(), "ctrf-report.json")
			sink, err := reports.NewSink(reports.Output{Format: "ctrf", Path: ctrf})
			if err != nil {
				t.Fatal(err)
			}
			opts := Options{Extra: []string{doc}, Inputs: tc.inputs, InputsFrom: "inputs.yaml", InputsAt: tc.at, InputsHelp: inputsAdvice}
			_, err = Run(context.Background(), opts, sink, &reports.Run{Tool: reports.Tool{Name: "specgate"}})
			if err == nil {
				t.Fatal("no error")
			}
			if got := strings.Split(err.Error(), "\n"); !slices.Equal(got, tc.want) {
				t.Errorf("error:\n%s\nwant:\n%s", err, strings.Join(tc.want, "\n"))
			}
			if _, err := os.Stat(ctrf); err == nil {
				t.Error("a report was written: something ran")
			}
		})
	}
}

// TestAddressNotice checks that a run says where a source description's
// requests go when neither the command line nor the configuration gives
// its address: to the first absolute server URL of the source.
func TestAddressNotice(t *testing.T) {
	sink, err := reports.NewSink(reports.Output{Format: "summary", W: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	var notes []string
	opts := Options{Extra: []string{filepath.Join("testdata", "inputs", "find.arazzo.yaml")},
		Inputs: map[string]map[string]any{"find": {"petId": 1}}, Notice: func(s string) { notes = append(notes, s) }}
	if _, err := Run(context.Background(), opts, sink, &reports.Run{Tool: reports.Tool{Name: "specgate"}}); err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join("testdata", "inputs", "find.arazzo.yaml") + `: source description "pets": no base URL given: calling http://127.0.0.1:1/v1, its first absolute server (--testBaseURL, or an address for ./pets.openapi.yaml in specgate.yaml, calls elsewhere)`}
	if !slices.Equal(notes, want) {
		t.Errorf("notices:\n%q\nwant:\n%q", notes, want)
	}
}

// TestProgress checks that the progress of a suite counts every test of
// its report, contract tests and workflow steps, against a total that
// ends equal to the summary's.
func TestProgress(t *testing.T) {
	url := sut(t, false)
	cfg := loadSuite(t, url)
	sink, err := reports.NewSink(reports.Output{Format: "summary", W: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	var calls [][2]int
	var types []reports.Kind
	opts := Options{Config: cfg, Parallel: 1, Progress: func(done, total int, test *reports.Test) {
		calls = append(calls, [2]int{done, total})
		types = append(types, test.Type)
	}}
	sum, err := Run(context.Background(), opts, sink, &reports.Run{Tool: reports.Tool{Name: "specgate"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != sum.Tests || sum.Tests != 6 {
		t.Fatalf("%d progress calls for %d tests: %v", len(calls), sum.Tests, calls)
	}
	for i, c := range calls {
		if c != [2]int{i + 1, 6} {
			t.Errorf("call %d: done %d of %d, want %d of 6", i, c[0], c[1], i+1)
		}
	}
	if want := []reports.Kind{reports.Contract, reports.Contract, reports.Contract, reports.Workflow, reports.Workflow, reports.Workflow}; !slices.Equal(types, want) {
		t.Errorf("types %q, want %q", types, want)
	}
}
