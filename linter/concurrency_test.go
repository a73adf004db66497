package linter_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/internal/level"
	"github.com/specgate/specgate/internal/ruletest"
	"github.com/specgate/specgate/linter"
	"github.com/specgate/specgate/policy"
	"github.com/specgate/specgate/rulesets"
	"github.com/specgate/specgate/spec"
)

// concurrentInputs are a hundred and more specifications of every format:
// the built-in rules' fixtures, the adversarial corpus (some of which do
// not load) and the smaller specs of the shared corpus. Without
// SPECGATE_CORPUS=1 (which .ci/run sets) one fixture in three is taken,
// in order of name: the tests that lint every input several times took
// minutes on two cores.
func concurrentInputs(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, pattern := range []string{"../rules/*/testdata/*.yaml", "../rules/*/testdata/*.json"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if os.Getenv("SPECGATE_CORPUS") != "1" {
		sampled := names[:0]
		for i, n := range names {
			if i%3 == 0 {
				sampled = append(sampled, n)
			}
		}
		names = sampled
	}
	for _, pattern := range []string{"../testdata/adversarial/*.yaml", "../testdata/adversarial/*.json"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	for _, f := range []string{"petstore-expanded.yaml", "uspto.yaml", "uber-v2.json", "webhook-example-3.1.yaml",
		"asyncapi-slack-rtm.yml", "asyncapi-streetlights-kafka-2.6.yml", "petstore-separate-v2/spec/swagger.yaml"} {
		p := filepath.Join("..", "..", "shared", "corpus", f)
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("corpus file %s: %v", f, err)
		}
		names = append(names, p)
	}
	if len(names) < 100 {
		t.Fatalf("only %d inputs", len(names))
	}
	return names
}

// referenceResults are, for each of concurrentInputs, the result of the
// strict linter on one core, computed once per test binary for the tests
// that compare another way of linting with it (concurrently, from cached
// rules, on several cores).
func referenceResults(t *testing.T) ([]string, map[string]linter.Result) {
	t.Helper()
	referenceOnce.Do(func() {
		referenceNames = concurrentInputs(t)
		l := strictLinter(t, 5*time.Minute, nil)
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		referenceByName = map[string]linter.Result{}
		for _, name := range referenceNames {
			referenceByName[name] = l.LintFile(context.Background(), name)
		}
	})
	if referenceByName == nil {
		t.Fatal("the reference results could not be computed")
	}
	return referenceNames, referenceByName
}

var (
	referenceOnce   sync.Once
	referenceNames  []string
	referenceByName map[string]linter.Result
)

func strictLinter(t *testing.T, timeout time.Duration, setup *rulesets.Setup) *linter.Linter {
	t.Helper()
	if setup == nil {
		var err error
		if setup, err = rulesets.Load(rulesets.Options{Ruleset: "strict", NoSearch: true}); err != nil {
			t.Fatal(err)
		}
	}
	l, err := linter.New(context.Background(), linter.Options{Registry: setup.Registry, Severities: setup.Severities,
		Overrides: setup.Overrides, Loader: spec.NewLoader(spec.Options{}), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLintFilesConcurrently lints well over a hundred files in parallel
// with one Linter, from several goroutines at once, and checks that every
// result is the one a lone sequential LintFile gives: the engine, the
// loader and the input conversion share nothing mutable between
// documents. Run with -race.
func TestLintFilesConcurrently(t *testing.T) {
	names, want := referenceResults(t)
	l := strictLinter(t, time.Minute, nil)
	ctx := context.Background()
	loaded, failed := 0, 0
	for _, name := range names {
		if want[name].Err != nil {
			failed++
		} else {
			loaded++
		}
	}
	if loaded < 100 || failed < 5 {
		t.Fatalf("%d inputs loaded and %d failed; the test wants both kinds", loaded, failed)
	}

	const callers = 2
	got := make([][]linter.Result, callers)
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[c] = l.LintFiles(ctx, names)
		}()
	}
	wg.Wait()
	for c := range callers {
		if len(got[c]) != len(names) {
			t.Fatalf("caller %d: %d results for %d inputs", c, len(got[c]), len(names))
		}
		for i, name := range names {
			if !sameResult(got[c][i], want[name]) {
				t.Errorf("caller %d, %s: concurrent result differs from the sequential one:\n got %+v\nwant %+v", c, name, got[c][i], want[name])
			}
		}
	}
}

func sameResult(a, b linter.Result) bool {
	return a.File == b.File && a.Format == b.Format && reflect.DeepEqual(a.Findings, b.Findings) &&
		(a.Err == nil) == (b.Err == nil) && (a.Err == nil || a.Err.Error() == b.Err.Error())
}

// TestEvalTimeoutPerFile: a user rule that explodes is stopped on every
// file by the time limit and reported on each as an eval-timeout error;
// the files still load, and the other files' results are not lost.
func TestEvalTimeoutPerFile(t *testing.T) {
	explode := ruletest.Meta{Title: "Explode", Description: "Explodes on documents with a /slow path.",
		Category: "General", Severity: "error", Family: "custom"}.Module("explode", `violations contains {"path": [], "message": "never"} if {
	input.document.paths["/slow"]
	count({[x, y] | some x in numbers.range(1, 100000); some y in numbers.range(1, 100000)}) < 0
}
`)
	api := func(path string) string {
		return "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  " + path + ":\n    get:\n      responses: {'200': {description: ok}}\n"
	}
	dir := t.TempDir()
	filetest.Write(t, dir, map[string]string{"policies/explode.rego": explode, "specgate-lint.yaml": "rego: policies\n",
		"fast.yaml": api("/fast"), "slow.yaml": api("/slow")})
	config := filepath.Join(dir, "specgate-lint.yaml")
	fast := filepath.Join(dir, "fast.yaml")
	slow := filepath.Join(dir, "slow.yaml")
	setup, err := rulesets.Load(rulesets.Options{Config: config, Ruleset: "recommended"})
	if err != nil {
		t.Fatal(err)
	}
	// The limit leaves the fast file ample time even under -race on a busy
	// machine; the slow one never finishes.
	l := strictLinter(t, 5*time.Second, setup)
	results := l.LintFiles(context.Background(), []string{slow, fast, slow, fast})
	for i, r := range results {
		isSlow := i%2 == 0
		timedOut := len(r.Findings) == 1 && r.Findings[0].Rule == linter.TimeoutRule
		if isSlow != timedOut {
			t.Errorf("%s: timed out %v, want %v: %+v", r.File, timedOut, isSlow, r.Findings)
			continue
		}
		if !isSlow {
			if r.Err != nil || len(r.Findings) == 0 {
				t.Errorf("%s: %v, %+v; want the recommended findings", r.File, r.Err, r.Findings)
			}
			continue
		}
		d := r.Findings[0]
		if !errors.Is(r.Err, policy.ErrTimeout) || d.Severity != level.Error || d.File != slow || d.Range.Start != (spec.Pos{Line: 1, Col: 1}) ||
			!timeoutMessage.MatchString(d.Message) {
			t.Errorf("%s: err %v, diagnostic %+v", r.File, r.Err, d)
		}
		if r.Format != "OpenAPI 3.0.3" {
			t.Errorf("%s: format %q; the file loaded", r.File, r.Format)
		}
	}
}

// timeoutMessage is the eval-timeout message of the slow file: it names
// the exploding rule, and any other still running when the time ran out.
var timeoutMessage = regexp.MustCompile(`^rule evaluation exceeded its time limit \(5s\) while running ([a-z0-9-]+, )*explode(, [a-z0-9-]+)*: no results are reported for this file, raise --timeout to lint it fully$`)
