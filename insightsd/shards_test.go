package insightsd

import (
	"context"
	"net/http"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/reports"
)

// shardRun is one shard's run of shop.yaml's six operations: its tests
// (GET of each path it tested, a failed one marked) and its coverage.
type shardRun struct {
	shard   string
	attempt int
	passed  []string // paths whose test passed
	failed  []string
	rows    map[string]reports.CoverageStatus // path → status
}

var shopPaths = []string{"/a", "/b", "/c", "/d", "/e", "/f"}

// shardSubmission makes a shard's submission as specgate test --shard
// --ci does: the CTRF report the run wrote, read by AddCTRF.
func shardSubmission(t *testing.T, build string, run shardRun) *insights.Submission {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ctrf-report.json")
	sink, err := reports.NewSink(reports.Output{Format: "ctrf", Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if err := sink.Begin(&reports.Run{Tool: reports.Tool{Name: "specgate"}, Kind: reports.Contract, Shard: run.shard,
		Start: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	add := func(paths []string, status reports.Status) {
		for _, p := range paths {
			test := reports.Test{Name: "GET " + p, Suite: []string{"shop.yaml"}, Type: reports.Contract, Status: status, File: "shop.yaml",
				Operation: reports.OperationKey{Method: "GET", Path: p, Status: "200"}}
			if err := sink.Add(&test); err != nil {
				t.Fatal(err)
			}
		}
	}
	add(run.passed, reports.Passed)
	add(run.failed, reports.Failed)
	cov := reports.Coverage{Spec: "shop.yaml"}
	for _, p := range shopPaths {
		status, ok := run.rows[p]
		if !ok {
			status = reports.NotTested // tested in another shard, or not at all
		}
		cov.Operations = append(cov.Operations, reports.CoverageRow{OperationKey: reports.OperationKey{Method: "GET", Path: p, Status: "200"}, Status: status})
	}
	if _, err := sink.End([]reports.Coverage{cov}); err != nil {
		t.Fatal(err)
	}
	s := insights.NewSubmission("test", "", insights.Tool{Name: "specgate", Version: "test"},
		insights.CI{RepoID: "acme/shop", Branch: "main", BuildID: build, RunAttempt: run.attempt})
	if err := s.AddCTRF(context.Background(), path, &insights.Resolver{Dir: filepath.Dir(path)}); err != nil {
		t.Fatal(err)
	}
	if s.ID, err = s.ContentID(); err != nil {
		t.Fatal(err)
	}
	return s
}

func latestShop(t *testing.T, url string) insights.Result {
	t.Helper()
	rs := results(t, do(t, "GET", url+"/v1/results/latest?repoId=acme/shop", nil, nil))
	if len(rs) != 1 {
		t.Fatalf("latest: %v", summary(rs))
	}
	return rs[0]
}

func shardParts(set *insights.ShardSet) []string {
	if set == nil {
		return nil
	}
	var out []string
	for _, p := range set.Received {
		out = append(out, (&insights.Shard{Index: p.Index, Count: set.Count}).String()+"@"+string(rune('0'+p.RunAttempt)))
	}
	return out
}

// TestShardedBuild: the shards of one build (--shard i/n --ci, on
// several machines) make one result: the latest result and the history
// hold the build's tests summed and its coverage merged, not the last
// shard's part; a shard run again (a later attempt) replaces its earlier
// run; a shard not yet received leaves the result incomplete, and says so.
func TestShardedBuild(t *testing.T) {
	dir := t.TempDir()
	srv, ts := newServer(t, dir, "")
	one := shardSubmission(t, "b1", shardRun{shard: "1/2", attempt: 1, passed: []string{"/a", "/b", "/a", "/b", "/a", "/b", "/b"},
		rows: map[string]reports.CoverageStatus{"/a": reports.Covered, "/b": reports.Covered, "/e": reports.NotCovered}})
	two := shardSubmission(t, "b1", shardRun{shard: "2/2", attempt: 1, passed: []string{"/a", "/c", "/c", "/d"}, failed: []string{"/d"},
		rows: map[string]reports.CoverageStatus{"/a": reports.Covered, "/c": reports.Covered, "/d": reports.Covered, "/e": reports.NotCovered}})
	if one.Shard == nil || *one.Shard != (insights.Shard{Index: 1, Count: 2}) {
		t.Fatalf("shard of the submission: %+v", one.Shard)
	}
	for _, s := range []*insights.Submission{one, two} {
		if a := submit(t, ts, s); a.status != http.StatusCreated {
			t.Fatalf("%d %s", a.status, a.body)
		}
	}
	got := latestShop(t, ts.URL)
	// Shard 1 covers /a and /b, shard 2 /a, /c and /d: four operations, not
	// five; /e is left after the filters but not covered; /f not tested.
	wantCov := reports.CoverageMetrics{Spec: "shop.yaml", Covered: 4, AfterFilters: 5, Total: 6}
	if got.Status != "failed" || *got.Tests != (insights.TestCounts{Tests: 12, Passed: 11, Failed: 1}) || got.Coverage == nil || *got.Coverage != wantCov {
		t.Errorf("combined result: %s %+v coverage %+v", got.Status, got.Tests, got.Coverage)
	}
	if got.SubmissionID != two.ID || got.Shards == nil || !got.Shards.Complete || !reflect.DeepEqual(shardParts(got.Shards), []string{"1/2@1", "2/2@1"}) ||
		got.Shards.Received[0].SubmissionID != one.ID {
		t.Errorf("shards %+v, submission %s", got.Shards, got.SubmissionID)
	}
	history := results(t, do(t, "GET", ts.URL+"/v1/results/history?spec="+got.Spec.ID, nil, nil))
	if len(history) != 1 || *history[0].Tests != *got.Tests {
		t.Errorf("history: %v", summary(history))
	}

	// Shard 2 is run again (attempt 2) and passes: it replaces its first
	// run; the build is one entry of the history still.
	again := shardSubmission(t, "b1", shardRun{shard: "2/2", attempt: 2, passed: []string{"/a", "/c", "/c", "/d", "/d"},
		rows: map[string]reports.CoverageStatus{"/a": reports.Covered, "/c": reports.Covered, "/d": reports.Covered, "/e": reports.NotCovered}})
	if a := submit(t, ts, again); a.status != http.StatusCreated {
		t.Fatalf("%d %s", a.status, a.body)
	}
	got = latestShop(t, ts.URL)
	if got.Status != "passed" || *got.Tests != (insights.TestCounts{Tests: 12, Passed: 12}) || !reflect.DeepEqual(shardParts(got.Shards), []string{"1/2@1", "2/2@2"}) {
		t.Errorf("after attempt 2: %s %+v %v", got.Status, got.Tests, shardParts(got.Shards))
	}
	if history := results(t, do(t, "GET", ts.URL+"/v1/results/history?spec="+got.Spec.ID, nil, nil)); len(history) != 1 || history[0].Status != "passed" {
		t.Errorf("history after attempt 2: %v", summary(history))
	}

	// The next build's first shard alone: incomplete, and so marked.
	next := shardSubmission(t, "b2", shardRun{shard: "1/2", attempt: 1, passed: []string{"/a"}, rows: map[string]reports.CoverageStatus{"/a": reports.Covered}})
	if a := submit(t, ts, next); a.status != http.StatusCreated {
		t.Fatalf("%d %s", a.status, a.body)
	}
	got = latestShop(t, ts.URL)
	if got.CI.BuildID != "b2" || got.Shards == nil || got.Shards.Complete || !reflect.DeepEqual(shardParts(got.Shards), []string{"1/2@1"}) || got.Tests.Tests != 1 {
		t.Errorf("an incomplete build: %+v %+v", got.Shards, got.Tests)
	}
	if history := results(t, do(t, "GET", ts.URL+"/v1/results/history?spec="+got.Spec.ID, nil, nil)); len(history) != 2 || history[0].CI.BuildID != "b2" || history[1].CI.BuildID != "b1" {
		t.Errorf("history of two builds: %v", summary(history))
	}

	// A restarted service combines them alike, from its index and files.
	ts.Close()
	srv.Close()
	_, ts2 := newServer(t, dir, "")
	if rs := results(t, do(t, "GET", ts2.URL+"/v1/results/history?spec="+got.Spec.ID, nil, nil)); len(rs) != 2 || *rs[1].Tests != (insights.TestCounts{Tests: 12, Passed: 12}) ||
		rs[1].Coverage == nil || *rs[1].Coverage != wantCov {
		t.Errorf("after a restart: %v", summary(rs))
	}
}

// TestShardRefused: a shard needs a build to belong to, and its index
// must be within its count.
func TestShardRefused(t *testing.T) {
	_, ts := newServer(t, t.TempDir(), "")
	for _, tc := range []struct {
		name   string
		build  string
		shard  insights.Shard
		detail string
	}{
		{"no build", "", insights.Shard{Index: 1, Count: 2}, "a shard needs ci.buildId: the service combines the shards of one build"},
		{"index beyond count", "b1", insights.Shard{Index: 3, Count: 2}, "shard 3/2 is not i/n with 1 ≤ i ≤ n and 2 ≤ n ≤ 1000"},
		{"one shard", "b1", insights.Shard{Index: 1, Count: 1}, "shard 1/1 is not i/n with 1 ≤ i ≤ n and 2 ≤ n ≤ 1000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := submission("shard-"+tc.build+"-x", "acme/shop", "main", "contract", specResult("shop.yaml", "passed"))
			s.CI.BuildID = tc.build
			s.Shard = &tc.shard
			a := submit(t, ts, s)
			if kind, detail := a.problem(t); a.status != http.StatusBadRequest || kind != "bad-request" || detail != tc.detail {
				t.Errorf("%d %s: %s", a.status, kind, detail)
			}
		})
	}
}
