package mock

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/specgate/specgate/reports"
)

// usage counts the hits of each operation and example across reloads:
// the counters are keyed by spec, method, path template and example name,
// and each generation's operations point at theirs, so that the hot path
// is one atomic add.
type usage struct {
	mu       sync.Mutex
	started  time.Time
	ops      map[string]*opCounter // by opKey
	order    []string              // opKeys in the order first seen
	specs    map[string]bool
	unrouted atomic.Int64 // requests that matched no operation
}

type opCounter struct {
	spec, method, path, operationID string
	file                            string
	line                            int
	hits                            atomic.Int64
	generated                       atomic.Int64 // answers generated from a schema
	problems                        atomic.Int64 // answers to requests that broke the contract
	examples                        map[string]*exCounter
	exOrder                         []string
}

type exCounter struct {
	name, source string
	hits         atomic.Int64
}

func newUsage() *usage {
	return &usage{started: time.Now(), ops: map[string]*opCounter{}, specs: map[string]bool{}}
}

func opKey(specName, method, path string) string { return specName + "\x00" + method + "\x00" + path }

// track gives the operations and examples of gen their counters, making
// those of new ones. Operations and examples that a reload removed keep
// their counts in the report.
func (u *usage) track(gen *generation) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, a := range gen.apis {
		u.specs[a.name] = true
		for _, op := range a.ops {
			k := opKey(a.name, op.method, op.path)
			c := u.ops[k]
			if c == nil {
				c = &opCounter{spec: a.name, method: op.method, path: op.path, examples: map[string]*exCounter{}}
				u.ops[k] = c
				u.order = append(u.order, k)
			}
			c.operationID, c.file, c.line = op.operationID, op.file, op.line
			op.usage = c
			for _, ex := range op.examples {
				ex.usage = c.example(ex.name, ex.source)
			}
		}
	}
}

func (c *opCounter) example(name, source string) *exCounter {
	e := c.examples[name]
	if e == nil {
		e = &exCounter{name: name}
		c.examples[name] = e
		c.exOrder = append(c.exOrder, name)
	}
	e.source = source
	return e
}

// UsageReport is the stub-usage report: which operations and examples
// were hit, how many times, and which never were.
type UsageReport struct {
	Tool       string           `json:"tool"`
	Version    string           `json:"version,omitempty"`
	Start      time.Time        `json:"start"`
	Stop       time.Time        `json:"stop"`
	Specs      []string         `json:"specs"`
	Summary    UsageSummary     `json:"summary"`
	Operations []OperationUsage `json:"operations"`
	// Unrouted counts the requests that matched no operation of any spec.
	Unrouted int64 `json:"unrouted"`
}

// UsageSummary counts the operations and examples hit and not hit.
type UsageSummary struct {
	Operations       int   `json:"operations"`
	OperationsHit    int   `json:"operationsHit"`
	Examples         int   `json:"examples"`
	ExamplesHit      int   `json:"examplesHit"`
	Requests         int64 `json:"requests"`
	GeneratedAnswers int64 `json:"generatedAnswers"`
	ProblemAnswers   int64 `json:"problemAnswers"`
}

// OperationUsage is one operation's use.
type OperationUsage struct {
	Spec        string `json:"spec"`
	Method      string `json:"method"` // upper case
	Path        string `json:"path"`
	OperationID string `json:"operationId,omitempty"`
	File        string `json:"file,omitempty"`
	Line        int    `json:"line,omitempty"`
	Hits        int64  `json:"hits"`
	// Generated counts the answers generated from a schema; Problems the
	// answers to requests that broke the contract.
	Generated int64          `json:"generated"`
	Problems  int64          `json:"problems"`
	Examples  []ExampleUsage `json:"examples"`
}

// ExampleUsage is one example's use.
type ExampleUsage struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"` // file:line:col where it is written
	Hits   int64  `json:"hits"`
}

// Usage returns the stub-usage report so far, operations in the order
// of their specs.
func (s *Server) Usage() *UsageReport {
	u := s.usage
	u.mu.Lock()
	defer u.mu.Unlock()
	rep := &UsageReport{Tool: "specgate mock", Start: u.started, Stop: time.Now(), Unrouted: u.unrouted.Load(), Operations: []OperationUsage{}}
	for name := range u.specs {
		rep.Specs = append(rep.Specs, name)
	}
	sort.Strings(rep.Specs)
	for _, k := range u.order {
		c := u.ops[k]
		ou := OperationUsage{Spec: c.spec, Method: upper(c.method), Path: c.path, OperationID: c.operationID, File: c.file, Line: c.line,
			Hits: c.hits.Load(), Generated: c.generated.Load(), Problems: c.problems.Load(), Examples: []ExampleUsage{}}
		for _, name := range c.exOrder {
			e := c.examples[name]
			eu := ExampleUsage{Name: e.name, Source: e.source, Hits: e.hits.Load()}
			ou.Examples = append(ou.Examples, eu)
			rep.Summary.Examples++
			if eu.Hits > 0 {
				rep.Summary.ExamplesHit++
			}
		}
		rep.Operations = append(rep.Operations, ou)
		rep.Summary.Operations++
		if ou.Hits > 0 {
			rep.Summary.OperationsHit++
		}
		rep.Summary.Requests += ou.Hits
		rep.Summary.GeneratedAnswers += ou.Generated
		rep.Summary.ProblemAnswers += ou.Problems
	}
	return rep
}

// WriteJSON writes the report as indented JSON, as specgate writes its
// other JSON outputs.
func (r *UsageReport) WriteJSON(w io.Writer) error {
	return reports.WriteIndentedJSON(w, r)
}

// Run is the stub-usage report in the reports package's model, which its
// CTRF, JSON and HTML writers read: one test per operation, passed when
// it was requested and skipped when it never was, with its hits, its
// generated and problem answers and each example's hits in the test's
// extra; and the coverage of each spec (an operation requested is
// covered).
func (r *UsageReport) Run() *reports.Run {
	run := &reports.Run{Tool: reports.Tool{Name: r.Tool, Version: r.Version}, Kind: reports.StubUsage,
		Start: r.Start, Elapsed: r.Stop.Sub(r.Start), Tests: []reports.Test{}}
	bySpec := map[string]*reports.Coverage{}
	for _, op := range r.Operations {
		used := 0
		examples := make([]any, len(op.Examples))
		for i, e := range op.Examples {
			if e.Hits > 0 {
				used++
			}
			examples[i] = map[string]any{"name": e.Name, "source": e.Source, "hits": json.Number(strconv.FormatInt(e.Hits, 10))}
		}
		t := reports.Test{Name: op.Method + " " + op.Path, Suite: []string{op.Spec}, Type: reports.StubUsage, Status: reports.Passed,
			File: op.File, Line: op.Line, Operation: reports.OperationKey{Path: op.Path, Method: op.Method},
			Message: fmt.Sprintf("%d requests; %d of %d examples used; %d generated answers; %d problem answers", op.Hits, used, len(op.Examples), op.Generated, op.Problems),
			Extra: map[string]any{
				"operationId": op.OperationID,
				"hits":        json.Number(strconv.FormatInt(op.Hits, 10)),
				"generated":   json.Number(strconv.FormatInt(op.Generated, 10)),
				"problems":    json.Number(strconv.FormatInt(op.Problems, 10)),
				"examples":    examples,
			}}
		status := reports.Covered
		if op.Hits == 0 {
			t.Status, t.Message, status = reports.Skipped, "never requested", reports.NotCovered
		}
		run.Tests = append(run.Tests, t)
		c := bySpec[op.Spec]
		if c == nil {
			c = &reports.Coverage{Spec: op.Spec}
			bySpec[op.Spec] = c
		}
		c.Operations = append(c.Operations, reports.CoverageRow{OperationKey: t.Operation, Status: status, Tests: int(min(op.Hits, 1<<31-1))})
	}
	for _, name := range r.Specs {
		if c := bySpec[name]; c != nil {
			run.Coverage = append(run.Coverage, *c)
		}
	}
	return run
}

// WriteCTRF writes the report in the Common Test Report Format, through
// the reports package's one CTRF writer.
func (r *UsageReport) WriteCTRF(w io.Writer) error {
	return reports.WriteCTRF(w, r.Run())
}

// Usage report file names in --report-dir.
const (
	UsageJSONFile = "stub-usage.json"
	UsageCTRFFile = "stub-usage-ctrf.json"
)

// WriteUsage writes the stub-usage report to dir, as JSON and CTRF, and
// returns the files written.
func (s *Server) WriteUsage(dir, version string) ([]string, error) {
	rep := s.Usage()
	rep.Version = version
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("stub-usage report: %w", err)
	}
	var written []string
	for _, f := range []struct {
		name  string
		write func(io.Writer) error
	}{{UsageJSONFile, rep.WriteJSON}, {UsageCTRFFile, rep.WriteCTRF}} {
		p := filepath.Join(dir, f.name)
		fh, err := os.Create(p)
		if err != nil {
			return written, fmt.Errorf("stub-usage report: %w", err)
		}
		err = f.write(fh)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return written, fmt.Errorf("stub-usage report %s: %w", p, err)
		}
		written = append(written, p)
	}
	return written, nil
}
