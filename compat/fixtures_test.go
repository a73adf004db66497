package compat

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/specgate/specgate/spec"
)

// A fixture is a txtar archive: base.yaml and rev.yaml (and any files
// they $ref), with `# want "rule-id"` at the end of each line where a
// change must be located, in the revision or, for removals, in the base.
// Every change at every level must be wanted, and every want found. The
// archive's comment holds the expected verdict ("verdict: incompatible"),
// optionally the reason ("reason: missing-operations") and "strict: true".

var (
	wantRE   = regexp.MustCompile(`#\s*want((?:\s+"[^"]+")+)\s*$`)
	quotedRE = regexp.MustCompile(`"([^"]+)"`)
)

type want struct {
	file string
	line int
	rule string
}

func (w want) String() string { return fmt.Sprintf("%s:%d %s", w.file, w.line, w.rule) }

type fixture struct {
	dir     string
	verdict Verdict
	reason  Reason
	strict  bool
	wants   []want
}

func readFixture(t *testing.T, path string) fixture {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fx := fixture{dir: t.TempDir()}
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
		p := filepath.Join(fx.dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(f.Data))
		for line := 1; sc.Scan(); line++ {
			if m := wantRE.FindStringSubmatch(sc.Text()); m != nil {
				for _, q := range quotedRE.FindAllStringSubmatch(m[1], -1) {
					fx.wants = append(fx.wants, want{f.Name, line, q[1]})
				}
			}
		}
	}
	return fx
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
	got := map[want]int{}
	for _, c := range res.Changes {
		rel, err := filepath.Rel(fx.dir, c.Location.File)
		if err != nil {
			rel = c.Location.File
		}
		got[want{filepath.ToSlash(rel), c.Location.Line, c.RuleID}]++
		if len(c.Operations) == 0 {
			t.Errorf("%s at %s names no operation", c.RuleID, c.Location)
		}
	}
	compareWants(t, "", fx.wants, got)
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
			for _, w := range fx.wants {
				wanted = wanted || w.rule == id
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

// compareWants reports each wanted change that got lacks ("missing") and
// each one got has beyond them ("unexpected"); what qualifies the words.
func compareWants(t *testing.T, what string, wants []want, got map[want]int) {
	t.Helper()
	for _, w := range wants {
		if got[w] > 0 {
			got[w]--
		} else {
			t.Errorf("missing%s: %s", what, w)
		}
	}
	var extra []string
	for w, n := range got {
		for range n {
			extra = append(extra, w.String())
		}
	}
	sort.Strings(extra)
	for _, e := range extra {
		t.Errorf("unexpected%s: %s", what, e)
	}
}
