package apitest

import (
	"maps"
	"mime"
	"sort"
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/reports"
	"github.com/specgate/specgate/spec"
)

// Coverage is what a run covered of one spec: one row per combination of
// the five identifiers the spec declares (path, method, request content
// type, response status, response content type), in source order, then one
// per answer it does not declare.
type Coverage struct {
	Spec string
	Rows []CoverageRow
}

// CoverageRow is one combination of the five identifiers.
type CoverageRow struct {
	Path, Method, RequestType, Status, ResponseType string
	Coverage                                        reports.CoverageStatus
	// Tests counts the tests whose answer matched the row.
	Tests int
}

// key is a row's five identifiers.
type covKey struct {
	path, method, reqType, status, respType string
}

func (r CoverageRow) key() covKey {
	return covKey{r.Path, r.Method, r.RequestType, r.Status, r.ResponseType}
}

// Counts are the coverage metrics of the CTRF report: covered rows, rows
// a test aimed at after the filters, rows the spec declares, and answers
// it does not declare.
func (c *Coverage) Counts() (covered, afterFilters, total, missing int) {
	for _, r := range c.Rows {
		switch r.Coverage {
		case reports.MissingInSpec:
			missing++
			continue
		case reports.Covered:
			covered++
		}
		total++
		if r.Coverage != reports.NotTested {
			afterFilters++
		}
	}
	return
}

// coverageTracker counts, as results come, which rows the answers
// matched.
type coverageTracker struct {
	plan    *Plan
	hits    map[covKey]int
	missing map[*operation]map[covKey]bool
}

func newCoverageTracker(p *Plan) *coverageTracker {
	return &coverageTracker{plan: p, hits: map[covKey]int{}, missing: map[*operation]map[covKey]bool{}}
}

// add counts the response a test's answer matched. A test that proves the
// service refuses what the spec does not declare (a negative test, a 405
// or 415 example) counts only where its answer matches a declared
// response: an undeclared method has no operation and no row, and an
// undeclared status or content type in its answer is no gap of the spec.
func (c *coverageTracker) add(r *Result) {
	t, o := r.Test, r.Test.op
	if o == nil || r.Status == 0 || t.refuses == refusesMethod {
		return // no answer, or one for a method no operation declares
	}
	base := covKey{path: o.op.Path, method: strings.ToUpper(o.op.Method), reqType: rowRequestType(t)}
	d := o.spec.contract.Response(o.op, r.Status)
	if d == nil {
		if !t.refusal() {
			k := base
			k.status, k.respType = strconv.Itoa(r.Status), r.ResponseType
			c.noteMissing(o, k)
		}
		return
	}
	k := base
	k.status = d.Status
	if r.ResponseType != "" && len(d.Content) > 0 {
		name, ok := declaredType(r.contentType, d.Content)
		if !ok {
			if !t.refusal() {
				k.respType = r.ResponseType
				c.noteMissing(o, k)
			}
			return
		}
		k.respType = name
	} else if r.ResponseType == "" && len(d.Content) > 0 && (len(d.Content) == 1 || strings.EqualFold(o.op.Method, "head")) {
		// An answer without a body or a content type (always so for HEAD)
		// covers the type the test asked for, else the one declared.
		k.respType = d.Content[0].Name
		if t.ResponseType != "" {
			k.respType = t.ResponseType
		}
	}
	c.hits[k]++
}

// rowRequestType is the request content type of the rows a test counts
// under: its own, but for a 415 test, whose content type no row has: the
// operation's first, where a 415 the operation declares is listed.
func rowRequestType(t *Test) string {
	if t.refuses == refusesMediaType {
		return requestTypes(t.op.op)[0]
	}
	return t.RequestType
}

// declaredType is the media type of a response's content that a received
// Content-Type is: the one written exactly so (parameters and all, as
// kubernetes.json declares both application/json and
// application/json;stream=watch), else the one contract.MatchMediaType
// finds.
func declaredType(contentType string, content []*spec.MediaType) (string, bool) {
	got, params, err := mime.ParseMediaType(contentType)
	names := make([]string, len(content))
	for i, m := range content {
		names[i] = m.Name
		want, wantParams, werr := mime.ParseMediaType(m.Name)
		if err == nil && werr == nil && strings.EqualFold(got, want) && maps.Equal(params, wantParams) {
			return m.Name, true
		}
	}
	return contract.MatchMediaType(contentType, names)
}

func (c *coverageTracker) noteMissing(o *operation, k covKey) {
	if c.missing[o] == nil {
		c.missing[o] = map[covKey]bool{}
	}
	c.missing[o][k] = true
}

// declaredRows lists the combinations an operation declares.
func declaredRows(o *operation) []CoverageRow {
	var out []CoverageRow
	method := strings.ToUpper(o.op.Method)
	for _, rt := range requestTypes(o.op) {
		for _, resp := range o.op.Responses {
			for _, mt := range responseTypes(resp) {
				out = append(out, CoverageRow{Path: o.op.Path, Method: method, RequestType: rt, Status: resp.Status, ResponseType: mt})
			}
		}
	}
	return out
}

// aims lists the rows a test aims at: the response its status names,
// with the content type it asks for (or each the response declares).
func aims(t *Test) []covKey {
	o := t.op
	base := covKey{path: o.op.Path, method: strings.ToUpper(o.op.Method), reqType: rowRequestType(t)}
	var statuses []*spec.Response
	switch {
	case t.refuses == refusesMethod:
		return nil
	case t.neg != nil:
		seen := map[*spec.Response]bool{}
		for _, code := range t.neg.expect {
			if d := contract.ResponseFor(o.op, code); d != nil && !seen[d] {
				seen[d] = true
				statuses = append(statuses, d)
			}
		}
	default:
		if code, err := strconv.Atoi(t.Status); err == nil {
			if d := contract.ResponseFor(o.op, code); d != nil {
				statuses = append(statuses, d)
			}
		} else {
			for _, d := range o.op.Responses {
				if d.Status == t.Status {
					statuses = append(statuses, d)
				}
			}
		}
	}
	var out []covKey
	for _, d := range statuses {
		k := base
		k.status = d.Status
		types := responseTypes(d)
		if t.ResponseType != "" && t.neg == nil {
			types = []string{t.ResponseType}
		}
		for _, mt := range types {
			k.respType = mt
			out = append(out, k)
		}
	}
	return out
}

// finish builds the coverage of every spec. Which rows the selected tests
// aim at is read from the plan again (identities only, no values).
func (c *coverageTracker) finish() []*Coverage {
	var out []*Coverage
	for _, sp := range c.plan.specs {
		cov := &Coverage{Spec: sp.name}
		var missing []CoverageRow
		for _, o := range sp.ops {
			aimed := map[covKey]bool{}
			for _, t := range c.plan.opTests(o) {
				if c.plan.selects(sp, t) {
					for _, k := range aims(t) {
						aimed[k] = true
					}
				}
			}
			rows := declaredRows(o)
			declared := map[covKey]bool{}
			for i := range rows {
				k := rows[i].key()
				declared[k] = true
				switch {
				case c.hits[k] > 0:
					rows[i].Coverage, rows[i].Tests = reports.Covered, c.hits[k]
				case aimed[k]:
					rows[i].Coverage = reports.NotCovered
				default:
					rows[i].Coverage = reports.NotTested
				}
			}
			// Answers to example requests of a type the operation does not
			// declare (a badRequest example's) count where the spec declares
			// their status.
			var extra []covKey
			for k := range c.hits {
				if k.path == o.op.Path && k.method == strings.ToUpper(o.op.Method) && !declared[k] {
					extra = append(extra, k)
				}
			}
			sort.Slice(extra, func(i, j int) bool { return lessKey(extra[i], extra[j]) })
			for _, k := range extra {
				rows = append(rows, CoverageRow{Path: k.path, Method: k.method, RequestType: k.reqType, Status: k.status, ResponseType: k.respType, Coverage: reports.Covered, Tests: c.hits[k]})
			}
			cov.Rows = append(cov.Rows, rows...)
			var ms []covKey
			for k := range c.missing[o] {
				ms = append(ms, k)
			}
			sort.Slice(ms, func(i, j int) bool { return lessKey(ms[i], ms[j]) })
			for _, k := range ms {
				missing = append(missing, CoverageRow{Path: k.path, Method: k.method, RequestType: k.reqType, Status: k.status, ResponseType: k.respType, Coverage: reports.MissingInSpec})
			}
		}
		cov.Rows = append(cov.Rows, missing...)
		out = append(out, cov)
	}
	return out
}

func lessKey(a, b covKey) bool {
	switch {
	case a.reqType != b.reqType:
		return a.reqType < b.reqType
	case a.status != b.status:
		return a.status < b.status
	}
	return a.respType < b.respType
}
