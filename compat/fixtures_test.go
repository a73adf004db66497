package compat

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/specgate/specgate/internal/filetest"
	"github.com/specgate/specgate/internal/wanttest"
	"github.com/specgate/specgate/spec"
)

// A fixture is a txtar archive: base.yaml and rev.yaml (and any files
// they $ref), with `# want "rule-id"` at the end of each line where a
// change must be located, in the revision or, for removals, in the base.
// Every change at every level must be wanted, and every want found; a want
// is met by its rule id whole (wanttest.Exact), as one id may hold another.
// The archive's comment holds the expected verdict ("verdict:
// incompatible"), optionally the reason ("reason: missing-operations") and
// "strict: true".
type fixture struct {
	dir     string
	files   []txtar.File
	verdict Verdict
	reason  Reason
	strict  bool
	wants   wanttest.Wants
}

func readFixture(t *testing.T, path string) fixture {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fx := fixture{dir: t.TempDir(), files: ar.Files, wants: wanttest.Wants{}}
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		k, v, ok := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		switch {
		case !ok:
		case k == "verdict":
			fx.verdict = Verdict(v)
		case k == "reason":
			fx.reason = Reason(v)
		case k == "strict":
			fx.strict = v == "true"
		}
	}
	if fx.verdict == "" {
		t.Fatalf("%s: the comment names no verdict", path)
	}
	for _, f := range ar.Files {
		filetest.File(t, fx.dir, f.Name, string(f.Data))
		if err := wanttest.Parse(f.Name, f.Data, wanttest.Hash, fx.wants); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	return fx
}

// rel names a file of the fixture by its name in the archive.
func (fx fixture) rel(file string) string {
	rel, err := filepath.Rel(fx.dir, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}

// check runs the fixture and reports every difference from what it wants.
func (fx fixture) check(t *testing.T) Result {
	t.Helper()
	loader := spec.NewLoader(spec.Options{})
	res := CheckFiles(context.Background(), Options{Loader: loader, Strict: fx.strict},
		filepath.Join(fx.dir, "base.yaml"), filepath.Join(fx.dir, "rev.yaml"))
	if res.Err != nil {
		t.Fatalf("check failed: %v", res.Err)
	}
	if res.Verdict != fx.verdict {
		t.Errorf("verdict %s (%s), want %s", res.Verdict, res.Message, fx.verdict)
	}
	if fx.reason != "" && res.Reason != fx.reason {
		t.Errorf("reason %s, want %s", res.Reason, fx.reason)
	}
	var found []wanttest.Found
	for _, c := range res.Changes {
		found = append(found, wanttest.Found{File: fx.rel(c.Location.File), Line: c.Location.Line, Col: c.Location.Column, Message: c.RuleID})
		if len(c.Operations) == 0 {
			t.Errorf("%s at %s names no operation", c.RuleID, c.Location)
		}
	}
	// Match consumes the wants it is given: a copy leaves the fixture's
	// for another check.
	wants := wanttest.Wants{}
	for k, ws := range fx.wants {
		wants[k] = slices.Clone(ws)
	}
	wanttest.Check(t, wants, found, wanttest.Exact())
	if t.Failed() {
		for _, c := range res.Changes {
			t.Logf("found: %s %s %s %v: %s", c.Location, c.Level, c.RuleID, c.Operations, c.Message)
		}
	}
	return res
}

// TestRuleFixtures runs one fixture pair per rule, and checks that every
// rule has one and wants it.
func TestRuleFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/rules/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".txtar")
		have[id] = true
		t.Run(id, func(t *testing.T) {
			rule := RuleByID(id)
			if rule == nil {
				t.Fatalf("%s: no rule %q", f, id)
			}
			fx := readFixture(t, f)
			wanted := false
			for _, ws := range fx.wants {
				wanted = wanted || slices.Contains(ws, wanttest.Want{Text: id})
			}
			if !wanted {
				t.Fatalf("%s wants no %s change", f, id)
			}
			fx.check(t)
		})
	}
	for _, r := range Rules {
		if !have[r.ID] {
			t.Errorf("rule %s has no fixture testdata/rules/%s.txtar", r.ID, r.ID)
		}
	}
}

// TestCaseFixtures runs the scenarios of testdata/cases: multi-file
// $refs, cycles, examples-only edits, default responses, nullable, mixed
// versions, webhooks, callbacks, AsyncAPI.
func TestCaseFixtures(t *testing.T) {
	files, err := filepath.Glob("testdata/cases/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no case fixtures")
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			readFixture(t, f).check(t)
		})
	}
}

// TestRuleCatalogue checks what every rule declares.
func TestRuleCatalogue(t *testing.T) {
	idRE := regexp.MustCompile(`^[a-z]+(-[a-z]+)*$`)
	seen := map[string]bool{}
	for _, r := range Rules {
		if !idRE.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("rule id %q is malformed or repeated", r.ID)
		}
		seen[r.ID] = true
		if r.Summary == "" || r.Why == "" {
			t.Errorf("%s: summary and why are required", r.ID)
		}
		hooks := 0
		for _, h := range []bool{r.Path != nil, r.Operation != nil, r.Parameter != nil, r.Body != nil, r.MediaType != nil,
			r.Response != nil, r.Header != nil, r.Schema != nil, r.False != nil, r.Alternatives != nil, r.Channel != nil, r.AsyncOperation != nil, r.Message != nil} {
			if h {
				hooks++
			}
		}
		if hooks == 0 {
			t.Errorf("%s has no hook", r.ID)
		}
	}
}
