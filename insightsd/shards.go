package insightsd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/specgate/specgate/insights"
	"github.com/specgate/specgate/reports"
)

// A sharded run (specgate test --shard i/n --ci on n machines) sends one
// submission per shard, each with a part of the tests. The store keeps
// each submission as it came, and answers queries with the shards of one
// build combined: the build is identified by its repository, command,
// kind, build id and shard count; each shard is its latest run attempt
// (then the latest received), so that a failed shard run again replaces
// its first run; tests are summed and coverage is merged from the shards'
// CTRF reports, an operation covered in any shard being covered.

// shardKey identifies a sharded build.
type shardKey struct {
	repo, command, kind, build string
	count                      int
}

func shardKeyOf(rec *record) shardKey {
	return shardKey{rec.CI.RepoID, rec.Command, rec.Kind, rec.CI.BuildID, rec.Shard.Count}
}

// shardGroup is a sharded build: the submission that stands for each
// shard received, by index.
type shardGroup struct {
	count   int
	members map[int]*record

	mu sync.Mutex
	// coverage caches the merged coverage of each spec id; a change of
	// the members resets it.
	coverage map[string]*reports.CoverageMetrics
}

// addShard files a shard's record in its build's group. The caller holds
// s.mu for writing, or has the store to itself (Open).
func (s *Store) addShard(rec *record) {
	k := shardKeyOf(rec)
	g := s.groups[k]
	if g == nil {
		g = &shardGroup{count: k.count, members: map[int]*record{}}
		s.groups[k] = g
	}
	if cur := g.members[rec.Shard.Index]; cur != nil && !supersedes(rec, cur) {
		return
	}
	g.members[rec.Shard.Index] = rec
	g.mu.Lock()
	g.coverage = nil
	g.mu.Unlock()
}

// supersedes tells whether a shard's submission a stands for the shard
// rather than b: a later run attempt, else one received later.
func supersedes(a, b *record) bool {
	if a.CI.RunAttempt != b.CI.RunAttempt {
		return a.CI.RunAttempt > b.CI.RunAttempt
	}
	return !a.ReceivedAt.Before(b.ReceivedAt)
}

// groupOf is the group of a shard's record, or nil for a whole run.
func (s *Store) groupOf(rec *record) *shardGroup {
	if rec.Shard == nil {
		return nil
	}
	return s.groups[shardKeyOf(rec)]
}

// resultOf is r, a result of rec, as queries answer it: for a shard, the
// result of its build's shards combined. The caller holds s.mu.
func (s *Store) resultOf(rec *record, r *insights.SpecResult) insights.Result {
	if g := s.groupOf(rec); g != nil {
		if res, ok := s.combine(g, r.Spec.ID); ok {
			return res
		}
	}
	return result(rec, r)
}

func specResultOf(rec *record, spec string) *insights.SpecResult {
	for i := range rec.Results {
		if rec.Results[i].Spec.ID == spec {
			return &rec.Results[i]
		}
	}
	return nil
}

// combine is the result of a spec in a sharded build: the newest shard's
// result (its submission, build and spec), with the tests of every shard
// summed, their status recounted, the operations their mocks saw joined,
// and their coverage merged; ok is false when no shard that stands has
// the spec (only a superseded run attempt had it).
func (s *Store) combine(g *shardGroup, spec string) (res insights.Result, ok bool) {
	indexes := make([]int, 0, len(g.members))
	for i := range g.members {
		indexes = append(indexes, i)
	}
	sort.Ints(indexes)
	set := &insights.ShardSet{Count: g.count, Complete: len(indexes) == g.count}
	var newest *record
	var base insights.SpecResult
	var sum insights.TestCounts
	counted := false
	status := ""
	used := map[string]bool{}
	var parts []*record
	for _, i := range indexes {
		rec := g.members[i]
		set.Received = append(set.Received, insights.ShardPart{Index: i, SubmissionID: rec.ID, RunAttempt: rec.CI.RunAttempt, ReceivedAt: rec.ReceivedAt})
		r := specResultOf(rec, spec)
		if r == nil {
			continue
		}
		parts = append(parts, rec)
		if newest == nil || rec.ReceivedAt.After(newest.ReceivedAt) {
			newest, base = rec, *r
		}
		if r.Tests != nil {
			counted = true
			sum.Tests += r.Tests.Tests
			sum.Passed += r.Tests.Passed
			sum.Failed += r.Tests.Failed
			sum.Skipped += r.Tests.Skipped
			sum.Other += r.Tests.Other
		}
		status = worseStatus(status, r.Status)
		for _, op := range r.UsedOperations {
			used[op] = true
		}
		base.Operations = max(base.Operations, r.Operations)
	}
	if newest == nil {
		return insights.Result{}, false
	}
	if counted {
		base.Tests = &sum
		switch {
		case sum.Failed > 0:
			status = insights.StatusFailed
		case sum.Passed > 0:
			status = insights.StatusPassed
		default:
			status = insights.StatusSkipped
		}
	}
	base.Status = status
	base.UsedOperations = nil
	for op := range used {
		base.UsedOperations = append(base.UsedOperations, op)
	}
	sort.Strings(base.UsedOperations)
	base.Coverage = s.mergedCoverage(g, spec, parts)
	res = result(newest, &base)
	res.Shards = set
	return res, true
}

// worseStatus is the status of two shards' results: failed over passed
// over anything else; a ties the first.
func worseStatus(a, b string) string {
	rank := func(s string) int {
		switch s {
		case insights.StatusFailed:
			return 3
		case insights.StatusPassed:
			return 2
		case "":
			return 0
		}
		return 1
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// mergedCoverage is the coverage of a spec over the shards of a build that
// have it: merged from their CTRF reports' rows (reports.MergeCoverage),
// or, where a report cannot be read, the largest of each count (an
// estimate: the operations of different shards may overlap).
func (s *Store) mergedCoverage(g *shardGroup, spec string, parts []*record) *reports.CoverageMetrics {
	g.mu.Lock()
	defer g.mu.Unlock()
	if m, ok := g.coverage[spec]; ok {
		return m
	}
	var metrics []reports.CoverageMetrics
	var runs [][]reports.Coverage
	exact := true
	for _, rec := range parts {
		r := specResultOf(rec, spec)
		if r.Coverage == nil {
			continue
		}
		metrics = append(metrics, *r.Coverage)
		cov := s.coverageRows(rec, r.Coverage.Spec)
		if cov == nil {
			exact = false
			continue
		}
		cov.Spec = spec // one name, whatever each shard's working directory
		runs = append(runs, []reports.Coverage{*cov})
	}
	var out *reports.CoverageMetrics
	switch {
	case len(metrics) == 0:
	case len(metrics) == 1:
		out = &metrics[0]
	case exact:
		m := reports.MergeCoverage(runs...)[0].Metrics()
		m.Spec = metrics[0].Spec
		out = &m
	default:
		m := metrics[0]
		for _, o := range metrics[1:] {
			m.Covered, m.AfterFilters = max(m.Covered, o.Covered), max(m.AfterFilters, o.AfterFilters)
			m.Total, m.MissingInSpec = max(m.Total, o.Total), max(m.MissingInSpec, o.MissingInSpec)
		}
		out = &m
	}
	if g.coverage == nil {
		g.coverage = map[string]*reports.CoverageMetrics{}
	}
	g.coverage[spec] = out
	return out
}

// coverageRows reads the coverage of a spec (as the report names it) from
// the CTRF report of a stored submission; nil when it has none.
func (s *Store) coverageRows(rec *record, specFile string) *reports.Coverage {
	data, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(rec.File)))
	if err != nil {
		return nil
	}
	var sub struct {
		Reports struct {
			CTRF json.RawMessage `json:"ctrf"`
		} `json:"reports"`
	}
	if json.Unmarshal(data, &sub) != nil || len(sub.Reports.CTRF) == 0 {
		return nil
	}
	run, err := reports.DecodeCTRF(bytes.NewReader(sub.Reports.CTRF), func(*reports.Test) error { return nil })
	if err != nil {
		return nil
	}
	for i := range run.Coverage {
		if run.Coverage[i].Spec == specFile {
			return &run.Coverage[i]
		}
	}
	return nil
}
