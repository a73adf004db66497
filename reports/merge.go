package reports

import (
	"errors"
	"time"
)

// Merge joins the CTRF reports of the shards of a run (specgate test
// --shard i/n on several machines) into one report set, written by sink:
// every test of every file in order, the summary counted again, and the
// coverage of each specification merged (an operation covered in any
// shard is covered; see MergeCoverage). The run starts with the earliest
// shard and ends with the latest. Files are read twice, a test at a time,
// so that memory does not grow with their size.
func Merge(sink *Sink, files []string) (TestSummary, error) {
	if len(files) == 0 {
		return TestSummary{}, errors.New("no CTRF report to merge")
	}
	run := &Run{}
	var coverage [][]Coverage
	var start, stop time.Time
	for i, name := range files {
		head, err := ReadCTRF(name, func(*Test) error { return nil })
		if err != nil {
			return TestSummary{}, err
		}
		if i == 0 {
			run.Tool, run.Kind = head.Tool, head.Kind
		}
		if s := head.Summary; !s.Start.IsZero() {
			if start.IsZero() || s.Start.Before(start) {
				start = s.Start
			}
			if s.Stop.After(stop) {
				stop = s.Stop
			}
		}
		coverage = append(coverage, head.Coverage)
	}
	if !start.IsZero() {
		run.Start, run.Elapsed = start, stop.Sub(start)
	}
	if err := sink.Begin(run); err != nil {
		sink.Close()
		return TestSummary{}, err
	}
	for _, name := range files {
		if _, err := ReadCTRF(name, sink.Add); err != nil {
			sink.Close()
			return TestSummary{}, err
		}
	}
	return sink.End(MergeCoverage(coverage...))
}

// MergeCoverage joins the coverage of several runs (the shards of one):
// per specification, in the order first met, each row (by its five
// identifiers) with the best status any run gave it (covered, then not
// covered, then not tested) and the tests of all runs; rows missing in the
// specification are joined likewise.
func MergeCoverage(runs ...[]Coverage) []Coverage {
	var out []Coverage
	specs := map[string]int{}
	type rowKey struct {
		OperationKey
		missing bool
	}
	rows := map[string]map[rowKey]int{}
	for _, cov := range runs {
		for _, c := range cov {
			i, ok := specs[c.Spec]
			if !ok {
				i = len(out)
				specs[c.Spec] = i
				out = append(out, Coverage{Spec: c.Spec})
				rows[c.Spec] = map[rowKey]int{}
			}
			for _, r := range c.Operations {
				k := rowKey{r.OperationKey, r.Status == MissingInSpec}
				j, ok := rows[c.Spec][k]
				if !ok {
					rows[c.Spec][k] = len(out[i].Operations)
					out[i].Operations = append(out[i].Operations, r)
					continue
				}
				merged := &out[i].Operations[j]
				merged.Tests += r.Tests
				if coverageRank(r.Status) > coverageRank(merged.Status) {
					merged.Status = r.Status
				}
			}
		}
	}
	return out
}
