package reports

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
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
		head, err := readCTRF(name, func(*Test) error { return nil })
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
		if _, err := readCTRF(name, sink.Add); err != nil {
			sink.Close()
			return TestSummary{}, err
		}
	}
	return sink.End(MergeCoverage(coverage...))
}

// readCTRF reads a CTRF file; its errors name the file, line and column.
func readCTRF(name string, each func(*Test) error) (*CTRFRun, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	head, err := DecodeCTRF(bufio.NewReaderSize(f, 64<<10), each)
	var ce *CTRFError
	if errors.As(err, &ce) {
		line, col := position(name, ce.Offset)
		return nil, fmt.Errorf("%s:%d:%d: %v", name, line, col, ce.Err)
	}
	return head, err
}

// position is the 1-based line and column (in bytes) of offset in a file.
func position(name string, offset int64) (line, col int) {
	line, col = 1, 1
	f, err := os.Open(name)
	if err != nil {
		return line, col
	}
	defer f.Close()
	r := bufio.NewReader(io.LimitReader(f, offset))
	for {
		b, err := r.ReadByte()
		if err != nil {
			return line, col
		}
		if b == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
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
