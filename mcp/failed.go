package mcp

import (
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/reports"
)

// The failed tests of run_contract_test and run_suite are shown alike,
// from the reports' model of a test (the suite's read back from its CTRF
// report, the contract tests' converted as they come), and grouped: the
// tests that failed the same way (the same error, or the same problems)
// are one entry, with their count and titles, showing the first one's
// exchange. An unreachable service is then one entry, not one per test.

// shownHeaders are the headers an answer shows: those a failure's
// diagnosis reads; the reports keep all.
var shownHeaders = []string{"Content-Type", "Accept", "Authorization", "Location", "Allow", "Retry-After", "Www-Authenticate"}

// failedGroups gathers the failed tests of a run into entries.
type failedGroups struct {
	s *Server
	// dir is the folder the run's relative names are relative to: the
	// specgate.yaml's, whose spec ids name the specs in the reports.
	dir     string
	entries []*FailedTest
	index   map[string]*FailedTest // by the way the tests failed
	omitted int                    // failed tests of entries beyond MaxFailures
}

func newFailedGroups(s *Server, dir string) *failedGroups {
	return &failedGroups{s: s, dir: dir, index: map[string]*FailedTest{}}
}

// add takes a test; those that did not fail are left out.
func (g *failedGroups) add(t *reports.Test) {
	if t.Status != reports.Failed {
		return
	}
	ft := g.s.failedTest(t, g.dir)
	key := failureKey(ft)
	if e := g.index[key]; e != nil {
		e.Count++
		if len(e.Others) < MaxOthers {
			e.Others = append(e.Others, ft.Test)
		}
		return
	}
	if len(g.entries) == MaxFailures {
		g.omitted++
		return
	}
	ft.Count = 1
	g.entries = append(g.entries, ft)
	g.index[key] = ft
}

// result is the entries, the first MaxDetailed with their exchange and
// problems, and the failed tests beyond them.
func (g *failedGroups) result() ([]FailedTest, int) {
	out := make([]FailedTest, len(g.entries))
	for i, e := range g.entries {
		out[i] = *e
		if i >= MaxDetailed {
			out[i].Request, out[i].Response, out[i].Problems, out[i].MoreProblems = nil, nil, nil, 0
		} else if n := len(e.Problems); n > MaxProblems {
			out[i].Problems, out[i].MoreProblems = e.Problems[:MaxProblems], n-MaxProblems
		}
	}
	return out, g.omitted
}

// requestPrefix is how errors of a request start: its method and URL,
// which differ between tests that failed the same way.
var requestPrefix = regexp.MustCompile(`^[A-Z]+ \S+: `)

// failureKey is the way a test failed: its error without the request it
// names, or its problems.
func failureKey(ft *FailedTest) string {
	var b strings.Builder
	b.WriteString(requestPrefix.ReplaceAllString(ft.Reason, ""))
	for _, p := range ft.Problems {
		fmt.Fprintf(&b, "\x00%s\x01%s\x01%s\x01%s\x01%s\x01%s", p.Check, p.In, p.Path, p.Keyword, p.Schema, p.Message)
	}
	return b.String()
}

// checkNames are the contract tests' checks: a problem the reports model
// without details carries its check's name as its place.
var checkNames = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range apitest.Checks() {
		m[c.Name] = true
	}
	return m
}()

// failedTest shows a failed test: a contract test by its title, a
// workflow step by its workflow and its title (the reports' suite of a
// contract test repeats its operation, which its title starts with); the
// example file or the place in the spec or Arazzo document it comes from;
// the last exchange of the test itself (the checks' probes come after it
// in the reports).
func (s *Server) failedTest(t *reports.Test, dir string) *FailedTest {
	ft := &FailedTest{Test: t.Name}
	switch {
	case t.Type == reports.Workflow && len(t.Suite) > 1:
		ft.Test = strings.Join(append(t.Suite[1:len(t.Suite):len(t.Suite)], t.Name), " › ")
		ft.Source = s.rooted(dir, t.File)
		if t.Line > 0 {
			ft.Source += fmt.Sprintf(":%d", t.Line)
		}
	default:
		if src, ok := t.Extra["source"].(string); ok {
			ft.Source = s.rooted(dir, src)
		}
	}
	// A step's message says why it failed (a criterion that did not hold
	// and the values it read); a contract test's first problem is more
	// precise than its message, unless no response came.
	if t.Type == reports.Workflow || t.Errored || len(t.Problems) == 0 {
		ft.Reason = s.showText(firstLine(t.Message))
	}
	if x := lastExchange(t); x != nil {
		ft.Request = &ShownRequest{Method: x.Request.Method, URL: x.Request.URL, Headers: shown(x.Request.Headers), Body: reportBody(x.Request.Body)}
		if x.Response != nil {
			ft.Response = &ShownResponse{Status: x.Response.Status, Headers: shown(x.Response.Headers), Body: reportBody(x.Response.Body)}
		}
	}
	for _, p := range t.Problems {
		tp := TestProblem{In: p.In, Path: p.Path, Keyword: p.Keyword, Schema: s.showText(p.Schema), Message: s.showText(p.Message)}
		switch check, msg, ok := strings.Cut(p.Message, ": "); {
		case checkNames[p.In] && p.Path == "" && p.Keyword == "":
			tp.Check, tp.In = p.In, ""
		case ok && checkNames[check]:
			tp.Check, tp.Message = check, s.showText(msg)
		}
		ft.Problems = append(ft.Problems, tp)
	}
	if ft.Reason == "" && len(ft.Problems) > 0 {
		p := ft.Problems[0]
		ft.Reason = p.Message
		if p.Check != "" {
			ft.Reason = p.Check + ": " + p.Message
		}
		if n := len(ft.Problems) - 1; n > 0 {
			ft.Reason += fmt.Sprintf(" (and %d more %s)", n, map[bool]string{true: "problem", false: "problems"}[n == 1])
		}
	}
	return ft
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// rooted names a file (or file:line:col) of the reports relative to the
// root: the reports name a spec by its path as given, relative to dir.
func (s *Server) rooted(dir, name string) string {
	if name == "" || filepath.IsAbs(name) {
		return s.showText(name)
	}
	return s.root.Show(filepath.Join(dir, name))
}

// lastExchange is the test's own last attempt: its outputs end with the
// checks' probes (extra.probes counts them).
func lastExchange(t *reports.Test) *reports.Exchange {
	n := len(t.Outputs) - intOf(t.Extra["probes"])
	if n <= 0 || n > len(t.Outputs) {
		return nil
	}
	return &t.Outputs[n-1]
}

func intOf(v any) int {
	switch v := v.(type) {
	case int:
		return v
	case float64:
		return int(v)
	case interface{ Int64() (int64, error) }:
		n, _ := v.Int64()
		return int(n)
	}
	return 0
}

// shown are the headers an answer shows (shownHeaders), joined.
func shown(h map[string][]string) map[string]string {
	var out map[string]string
	for _, name := range shownHeaders {
		for k, v := range h {
			if http.CanonicalHeaderKey(k) == name {
				if out == nil {
					out = map[string]string{}
				}
				out[k] = strings.Join(v, ", ")
			}
		}
	}
	return out
}
