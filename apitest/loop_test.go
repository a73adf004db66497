package apitest

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/corpusspecs"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/mock"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// runLoop serves a spec with specgate's mock and tests it with its own
// tests: the two directions of one contract must agree.
func runLoop(t *testing.T, path string, negative bool) *collect {
	t.Helper()
	return runLoopWith(t, path, negative, spec.Options{})
}

// runLoopWith is runLoop with the loader options both sides read the spec
// with (a ref root for a spec whose $refs leave its folder).
func runLoopWith(t *testing.T, path string, negative bool, load spec.Options) *collect {
	t.Helper()
	opts := mock.Defaults()
	opts.Load = load
	opts.Specs = []mock.SpecSource{{Path: path}}
	opts.WatchInterval = -1
	opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	m, err := mock.New(context.Background(), opts)
	if err != nil {
		t.Fatalf("mock: %v", err)
	}
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	p, err := NewPlan(context.Background(), Options{
		Specs:    []SpecSource{{Path: path}},
		Loader:   spec.NewLoader(load),
		BaseURL:  srv.URL,
		Negative: negative,
		Parallel: 4,
		Retry:    httpx.RetryPolicy{MaxRetries: 1, MaxWait: time.Second},
		Getenv:   func(string) string { return "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	c := &collect{}
	p.Run(context.Background(), c)
	return c
}

// mockGaps are the tests of the loop on this package's specs that fail
// because of the mock, each with why: expected failures, as pytest's
// strict xfail. A gap that passes fails the test, so that it leaves this
// list once the mock is fixed.
var mockGaps = map[string]string{}

// checkLoop requires every test to pass and every combination a test aims
// at to be covered, and nothing missing in spec of a status the spec
// declares (a refusal's undeclared 415 makes no row at all).
func checkLoop(t *testing.T, c *collect, allowSkips bool, gaps map[string]string) {
	t.Helper()
	for _, r := range c.results {
		gap := gaps[r.Test.Title()]
		switch {
		case gap != "" && r.Outcome == Passed:
			t.Errorf("%s passes: the mock gap %q is fixed; take it off the list", r.Test.Title(), gap)
		case gap != "":
			t.Logf("expected failure (%s): %s", gap, r.Test.Title())
		case r.Outcome == Failed:
			t.Errorf("%s failed: %s", r.Test.Title(), r.Message())
		case r.Outcome == Skipped && !allowSkips:
			t.Errorf("%s skipped: %s", r.Test.Title(), r.Message())
		}
	}
	if c.summary.Tests == 0 {
		t.Fatal("no test ran")
	}
	// A row that only skipped tests aimed at stays not covered, rightly;
	// where skips are allowed, that is no failure of the loop.
	ranFor := map[covKey]bool{}
	for _, r := range c.results {
		if r.Outcome != Skipped {
			for _, k := range aims(r.Test) {
				ranFor[k] = true
			}
		}
	}
	for _, cov := range c.summary.Coverage {
		for _, row := range cov.Rows {
			bad := row.Coverage == reports.NotCovered && (!allowSkips || ranFor[row.key()]) || row.Coverage == reports.MissingInSpec && declaresStatus(c, row)
			if !bad {
				continue
			}
			t.Errorf("%s: %s %s [%s] %s %s: %s", cov.Spec, row.Method, row.Path, row.RequestType, row.Status, row.ResponseType, row.Coverage)
		}
	}
}

// declaresStatus reports whether the spec declares the row's status for
// its operation (a missing-in-spec row of a declared status has an
// undeclared content type).
func declaresStatus(c *collect, row CoverageRow) bool {
	for _, r := range c.results {
		if o := r.Test.op; o != nil && o.op.Path == row.Path && strings.EqualFold(o.op.Method, row.Method) {
			for _, d := range o.op.Responses {
				if d.Status == row.Status {
					return true
				}
			}
			return false
		}
	}
	return false
}

// TestLoopOwnSpecs runs the loop on this package's specs, which cover
// every parameter style, the body media types and the schema features:
// every test passes, negative ones included, none is skipped.
func TestLoopOwnSpecs(t *testing.T) {
	specs, err := filepath.Glob(filepath.Join("testdata", "loop", "*.yaml"))
	if err != nil || len(specs) == 0 {
		t.Fatal("no spec in testdata/loop", err)
	}
	specs = append(specs, filepath.Join("testdata", "pets.yaml"))
	for _, path := range specs {
		for _, negative := range []bool{false, true} {
			name := filepath.Base(path)
			if negative {
				name += "/negative"
			}
			t.Run(name, func(t *testing.T) {
				c := runLoop(t, path, negative)
				checkLoop(t, c, false, mockGaps)
			})
		}
	}
}

// TestLoopCorpus runs the loop on every spec of ../shared/corpus that has
// operations. It takes minutes on the large specs; SPECGATE_LOOP=1 runs
// it.
func TestLoopCorpus(t *testing.T) {
	if os.Getenv("SPECGATE_LOOP") == "" {
		t.Skip("SPECGATE_LOOP=1 runs the loop on every corpus spec")
	}
	corpus := filepath.Join("..", "..", "shared", "corpus")
	specs, err := corpusspecs.List(corpus)
	if err != nil {
		t.Skip("no corpus beside the repository:", err)
	}
	for _, s := range specs {
		path := s.Path
		// A folder entry is a spec in spec/ with $refs to its siblings
		// (petstore-separate-v2's ../common): the folder is its ref root.
		var load spec.Options
		if s.Folder {
			load.RefRoot = filepath.Join(corpus, s.Name)
		}
		doc, err := spec.NewLoader(load).Load(context.Background(), path)
		if err != nil || (doc.Format != spec.OpenAPI && doc.Format != spec.Swagger) || len(doc.Views().Operations) == 0 {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			c := runLoopWith(t, path, false, load)
			checkLoop(t, c, true, nil)
		})
	}
}

// TestLoopBundledExamples runs the loop on the bundled example, the first
// thing a new user tries: examples/petstore.yaml with its worked examples,
// served by specgate mock and tested by specgate test. Every example is a
// test of its own and passes, the negative tests too, and nothing is
// missing in the spec.
func TestLoopBundledExamples(t *testing.T) {
	path := filepath.Join("..", "examples", "petstore.yaml")
	c := runLoop(t, path, true)
	checkLoop(t, c, false, nil)
	ran := map[string]bool{}
	for _, r := range c.results {
		if r.Test.Kind == FromExample {
			ran[r.Test.Name] = true
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "examples", "petstore_examples", "*", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	top, _ := filepath.Glob(filepath.Join("..", "examples", "petstore_examples", "*.*"))
	for _, f := range append(files, top...) {
		if ext := filepath.Ext(f); ext != ".json" && ext != ".yaml" && ext != ".yml" {
			continue // a README
		}
		rel, _ := filepath.Rel(filepath.Join("..", "examples", "petstore_examples"), f)
		name := strings.TrimSuffix(filepath.ToSlash(rel), filepath.Ext(rel))
		if !ran[name] && !ran[exampleNameKey(t, f)] {
			t.Errorf("example %s ran as no test of its own", name)
		}
	}
	for _, cov := range c.summary.Coverage {
		for _, row := range cov.Rows {
			if row.Coverage == reports.MissingInSpec {
				t.Errorf("%s %s %s %s: missing in spec", row.Method, row.Path, row.Status, row.ResponseType)
			}
		}
	}
}

// exampleNameKey is the name key of an example file, "" when it has none.
func exampleNameKey(t *testing.T, file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	root, err := spec.Parse(file, data, spec.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return root.GetStr("name")
}
