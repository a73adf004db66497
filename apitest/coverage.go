package apitest

import (
	"sort"
	"strconv"
	"strings"
)

// CoverageStatus says how far a run exercised an operation.
type CoverageStatus string

const (
	// Covered: a test got a response the operation declares.
	Covered CoverageStatus = "covered"
	// NotCovered: tests were selected, but none got a declared response
	// (none could be sent, all got undeclared statuses, were skipped, or
	// ran in another shard or beyond --max-tests).
	NotCovered CoverageStatus = "not covered"
	// NotTested: no test of the operation was selected: the filters left
	// none out, or it has nothing to test (no example, no success response,
	// no --negative).
	NotTested CoverageStatus = "not tested"
	// MissingInSpec: the service answered the operation with a status the
	// spec does not declare for it.
	MissingInSpec CoverageStatus = "missing in spec"
)

// Coverage is what a run exercised of one spec.
type Coverage struct {
	Spec string
	// Total counts the spec's operations, Selected those with a test
	// after the filters, Covered those a test got a declared response of.
	Total, Selected, Covered int
	// Operations has one row per operation in source order, then one per
	// status the service answered that its operation does not declare.
	Operations []OperationCoverage
}

// Percent is the covered share of the spec's operations.
func (c *Coverage) Percent() float64 {
	if c.Total == 0 {
		return 0
	}
	return 100 * float64(c.Covered) / float64(c.Total)
}

// OperationCoverage is one row of a coverage report.
type OperationCoverage struct {
	Path   string
	Method string
	Status CoverageStatus
	// Responses are the declared responses the service's answers matched
	// ("200", "4XX", "default"), in order.
	Responses []string
	// Statuses are the statuses received, in order; a missing-in-spec row
	// holds the one status it is about.
	Statuses []int
	Tests    int
	Passed   int
}

// coverageTracker counts, as results come, what each operation got.
type coverageTracker struct {
	plan *Plan
	ops  map[*operation]*opCoverage
}

type opCoverage struct {
	tests, passed int
	responses     map[string]bool
	statuses      map[int]bool
	undeclared    map[int]bool
}

func newCoverageTracker(p *Plan) *coverageTracker {
	return &coverageTracker{plan: p, ops: map[*operation]*opCoverage{}}
}

func (c *coverageTracker) add(r *Result) {
	o := r.Test.op
	if o == nil {
		return
	}
	oc := c.ops[o]
	if oc == nil {
		oc = &opCoverage{responses: map[string]bool{}, statuses: map[int]bool{}, undeclared: map[int]bool{}}
		c.ops[o] = oc
	}
	oc.tests++
	if r.Outcome == Passed {
		oc.passed++
	}
	if r.Status == 0 {
		return
	}
	// A negative test of a method the path does not declare answers for
	// no operation.
	if r.Test.neg != nil && r.Test.neg.check == "unsupported_method" {
		return
	}
	oc.statuses[r.Status] = true
	if r.Matched != "" {
		oc.responses[r.Matched] = true
	} else {
		oc.undeclared[r.Status] = true
	}
}

// finish builds the coverage of every spec. Which operations the filters
// select is read from the plan again (identities only, no values).
func (c *coverageTracker) finish() []*Coverage {
	var out []*Coverage
	for _, sp := range c.plan.specs {
		cov := &Coverage{Spec: sp.name, Total: len(sp.ops)}
		var missing []OperationCoverage
		for _, o := range sp.ops {
			row := OperationCoverage{Path: o.op.Path, Method: strings.ToUpper(o.op.Method), Status: NotTested}
			for _, t := range c.plan.opTests(o) {
				if c.plan.selects(sp, t) {
					row.Status = NotCovered
					break
				}
			}
			if row.Status == NotCovered {
				cov.Selected++
			}
			if oc := c.ops[o]; oc != nil {
				row.Tests, row.Passed = oc.tests, oc.passed
				row.Responses = sortedKeys(oc.responses)
				row.Statuses = sortedInts(oc.statuses)
				if len(oc.responses) > 0 {
					row.Status = Covered
					cov.Covered++
				}
				for _, s := range sortedInts(oc.undeclared) {
					missing = append(missing, OperationCoverage{Path: row.Path, Method: row.Method, Status: MissingInSpec, Statuses: []int{s}})
				}
			}
			cov.Operations = append(cov.Operations, row)
		}
		cov.Operations = append(cov.Operations, missing...)
		out = append(out, cov)
	}
	return out
}

func sortedInts(m map[int]bool) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// String is the row's response statuses, for terminal output.
func (o OperationCoverage) String() string {
	s := make([]string, len(o.Statuses))
	for i, st := range o.Statuses {
		s[i] = strconv.Itoa(st)
	}
	return o.Method + " " + o.Path + " " + string(o.Status) + " " + strings.Join(s, ",")
}
