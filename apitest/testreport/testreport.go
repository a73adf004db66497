// Package testreport writes the results of contract tests (package
// apitest) through the report writers every specgate command shares
// (package reports): CTRF with outputs, retryAttempts and coverageMetrics,
// JUnit, the HTML page grouped by the five identifiers, the terminal
// summary. apitest shares only the coverage statuses of the report model;
// this package converts the rest.
package testreport

import (
	"strconv"
	"strings"
	"sync"

	"github.com/specgate/specgate/apitest"
	"github.com/specgate/specgate/reports"
)

// Sink is an apitest.Sink that writes a run's reports as the results
// come.
type Sink struct {
	sink *reports.Sink
	run  *reports.Run

	mu  sync.Mutex
	err error
}

// NewSink writes the results of a run to s; run gives the tool and is
// completed with the run's kind, start, shard and end.
func NewSink(s *reports.Sink, run *reports.Run) *Sink {
	run.Kind = reports.Contract
	return &Sink{sink: s, run: run}
}

// Err is the first error writing the reports.
func (r *Sink) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

func (r *Sink) keep(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil && r.err == nil {
		r.err = err
	}
}

func (r *Sink) Begin(info *apitest.RunInfo) {
	r.run.Start = info.Start
	r.run.Shard = info.Shard.String()
	r.keep(r.sink.Begin(r.run))
}

func (r *Sink) Result(res *apitest.Result) {
	if r.Err() != nil {
		return
	}
	t := Test(res)
	r.keep(r.sink.Add(&t))
}

func (r *Sink) End(s *apitest.Summary) {
	r.run.Elapsed = s.Elapsed
	if r.Err() != nil {
		r.sink.Close()
		return
	}
	_, err := r.sink.End(Coverage(s.Coverage))
	r.keep(err)
}

// Coverage converts the coverage of a run, row by row.
func Coverage(cov []*apitest.Coverage) []reports.Coverage {
	out := make([]reports.Coverage, len(cov))
	for i, c := range cov {
		out[i].Spec = c.Spec
		out[i].Operations = make([]reports.CoverageRow, len(c.Rows))
		for j, row := range c.Rows {
			out[i].Operations[j] = reports.CoverageRow{
				OperationKey: reports.OperationKey{Path: row.Path, Method: row.Method, RequestType: row.RequestType, Status: row.Status, ResponseType: row.ResponseType},
				Status:       row.Coverage,
				Tests:        row.Tests,
			}
		}
	}
	return out
}

// Test converts one result: the test's five identifiers, every attempt's
// exchange and the checks' probes (outputs), the attempts before the last
// (CTRF's retryAttempts), the fixtures, the checks' problems.
func Test(r *apitest.Result) reports.Test {
	t := r.Test
	out := reports.Test{
		Name:      t.Title(),
		Suite:     []string{t.Spec, t.Method + " " + t.Path},
		Type:      reports.Contract,
		Status:    reports.Status(r.Outcome),
		Errored:   r.Error != "" && r.Status == 0,
		Start:     r.Start,
		Duration:  r.Duration,
		Message:   r.Message(),
		File:      t.Spec,
		Line:      sourceLine(t.Source, t.Spec),
		Tags:      []string{t.Kind.String()},
		Operation: reports.OperationKey{Path: t.Path, Method: t.Method, RequestType: t.RequestType, Status: t.Status, ResponseType: t.ResponseType},
		Extra:     map[string]any{"kind": t.Kind.String(), "source": t.Source},
	}
	switch {
	case r.Status != 0:
		out.RawStatus = strconv.Itoa(r.Status)
	case r.Error != "":
		out.RawStatus = "error"
	default:
		out.RawStatus = string(r.Outcome)
	}
	if t.Kind == apitest.FromExample {
		out.Extra["example"] = t.Name
	}
	if r.Matched != "" {
		out.Extra["matchedResponse"] = r.Matched
	}
	if r.SkipReason != "" {
		out.Extra["skipReason"] = r.SkipReason
	}
	for i, a := range r.Attempts {
		out.Outputs = append(out.Outputs, exchange(i+1, a))
		if i < len(r.Attempts)-1 {
			msg := a.Retry
			if a.Response != nil {
				msg = strconv.Itoa(a.Response.Status) + ": " + msg
			}
			out.Attempts = append(out.Attempts, reports.Attempt{Attempt: i + 1, Status: reports.Failed, Start: a.Start, Duration: a.Duration, Message: msg})
		}
	}
	// A check's probe is no attempt of the test's request: it has no
	// attempt number, and says which check sent it and why.
	for _, a := range r.Probes {
		x := exchange(0, a)
		x.Probe = a.Probe
		out.Outputs = append(out.Outputs, x)
	}
	if len(r.Probes) > 0 {
		out.Extra["probes"] = len(r.Probes)
	}
	for _, f := range r.Fixtures {
		rf := reports.Fixture{Name: f.Phase + " " + strconv.Itoa(f.Index+1), Phase: f.Phase, Status: reports.Status(f.Outcome),
			Start: f.Exchange.Start, Duration: f.Exchange.Duration, Message: f.Message}
		if f.Exchange.Request.Method != "" {
			rf.Outputs = []reports.Exchange{exchange(1, f.Exchange)}
		}
		if len(f.Captures) > 0 {
			rf.Message = strings.TrimSpace(rf.Message + " captured " + strings.Join(f.Captures, ", "))
		}
		out.Fixtures = append(out.Fixtures, rf)
	}
	for _, f := range r.Failures {
		if len(f.Problems) == 0 {
			out.Problems = append(out.Problems, reports.Problem{In: f.Check, Message: f.Message})
			continue
		}
		for _, p := range f.Problems {
			in := p.In
			if p.Key != "" {
				in += " " + p.Key
			}
			msg := f.Check + ": " + p.Message
			if p.Example != "" {
				// The reports' place is the spec's (schema); an example's
				// is said in words.
				msg += " (example at " + p.Example + ")"
			}
			out.Problems = append(out.Problems, reports.Problem{Path: p.Path, In: in, Keyword: p.Keyword, Message: msg, Schema: p.Schema})
		}
	}
	return out
}

// sourceLine is the line of a test's source when it is in the spec file.
func sourceLine(source, specFile string) int {
	rest, ok := strings.CutPrefix(source, specFile+":")
	if !ok {
		return 0
	}
	line, _, _ := strings.Cut(rest, ":")
	n, _ := strconv.Atoi(line)
	return n
}

func exchange(attempt int, x apitest.Exchange) reports.Exchange {
	out := reports.Exchange{Attempt: attempt, Start: x.Start, Duration: x.Duration, Error: x.Error,
		Request: reports.Request{Method: x.Request.Method, URL: x.Request.URL, Headers: headerMap(x.Request.Headers), Body: body(x.Request.Body)}}
	if x.Response != nil {
		out.Response = &reports.Response{Status: x.Response.Status, Headers: headerMap(x.Response.Headers), Body: body(x.Response.Body)}
	}
	return out
}

func headerMap(hs []apitest.Header) map[string][]string {
	if len(hs) == 0 {
		return nil
	}
	m := make(map[string][]string, len(hs))
	for _, h := range hs {
		m[h.Name] = append(m[h.Name], h.Value)
	}
	return m
}

func body(b *apitest.Body) *reports.Body {
	if b == nil {
		return nil
	}
	return &reports.Body{Text: b.Text, Base64: b.Base64, Size: b.Size, Truncated: b.Truncated}
}
