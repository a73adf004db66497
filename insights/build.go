package insights

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/specgate/specgate/compat"
	"github.com/specgate/specgate/reports"
)

// MaxReportSize bounds a report file read into a submission.
const MaxReportSize = 256 << 20

// NewSubmission is an empty submission of a command's run, without an id:
// Client.Submit makes it from the content (see ContentID).
func NewSubmission(command, kind string, tool Tool, ci CI) *Submission {
	return &Submission{SchemaVersion: SchemaVersion, Command: command, Kind: kind, Tool: tool, CI: ci, Results: []SpecResult{}}
}

// ContentID is the id a submission's content gives it: the first 128
// bits, in hex, of the SHA-256 of its JSON without the id. The same
// reports of the same build sent twice (a retry, send-report run again on
// one folder) are thus one submission to the service, and other content
// never takes the id of a stored one.
func (s *Submission) ContentID() (string, error) {
	c := *s
	c.ID = ""
	h := sha256.New()
	enc := json.NewEncoder(h)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&c); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// AddCTRF puts a CTRF report file (of a test, mock, run-suite or
// compatibility run) in the submission, with a result per specification
// counted from its tests, and sets the submission's kind from the
// report's when it has none. The report is read a test at a time; a file
// that is not CTRF is an error naming its line and column.
func (s *Submission) AddCTRF(ctx context.Context, path string, res *Resolver) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxReportSize+1))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(data) > MaxReportSize {
		return fmt.Errorf("%s is larger than %d MiB", path, MaxReportSize>>20)
	}
	type specTally struct {
		counts TestCounts
		used   []string
		seen   map[string]bool
	}
	var order []string
	var firstType reports.Kind
	tallies := map[string]*specTally{}
	tallyOf := func(file string) *specTally {
		t := tallies[file]
		if t == nil {
			t = &specTally{seen: map[string]bool{}}
			tallies[file] = t
			order = append(order, file)
		}
		return t
	}
	run, err := reports.DecodeCTRF(bytes.NewReader(data), func(t *reports.Test) error {
		file := t.File
		if t.Type == reports.Compat && len(t.Suite) > 1 {
			file = t.Suite[1] // the compared specification; File is where the change is
		}
		if file == "" && len(t.Suite) > 0 {
			file = t.Suite[0]
		}
		if firstType == "" {
			firstType = t.Type
		}
		st := tallyOf(file)
		st.counts.Tests++
		switch t.Status {
		case reports.Passed:
			st.counts.Passed++
		case reports.Failed:
			st.counts.Failed++
		case reports.Skipped, reports.Pending:
			st.counts.Skipped++
		default:
			st.counts.Other++
		}
		if t.Type == reports.StubUsage && t.Status == reports.Passed && t.Operation.Method != "" {
			op := strings.ToUpper(t.Operation.Method) + " " + t.Operation.Path
			if !st.seen[op] {
				st.seen[op] = true
				st.used = append(st.used, op)
			}
		}
		return nil
	})
	if err != nil {
		var ce *reports.CTRFError
		if errors.As(err, &ce) {
			ce.File = path
			return err
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	if s.Kind == "" {
		s.Kind = string(run.Kind)
	}
	if s.Kind == "" {
		s.Kind = string(firstType) // a report whose run names no kind
	}
	if !run.Summary.Start.IsZero() && s.Start.IsZero() {
		s.Start, s.Stop = run.Summary.Start, run.Summary.Stop
	}
	if run.Shard != "" {
		if s.Shard, err = ParseShard(run.Shard); err != nil {
			return fmt.Errorf("%s: results.environment.shardId: %w", path, err)
		}
	}
	coverage := map[string]reports.CoverageMetrics{}
	for i := range run.Coverage {
		m := run.Coverage[i].Metrics()
		coverage[m.Spec] = m
		tallyOf(m.Spec)
	}
	for _, file := range order {
		st := tallies[file]
		r := SpecResult{Spec: res.Ref(ctx, file), Status: testStatus(st.counts)}
		if st.counts.Tests > 0 {
			c := st.counts
			r.Tests = &c
		}
		if m, ok := coverage[file]; ok {
			r.Coverage = &m
		}
		sort.Strings(st.used)
		r.UsedOperations = st.used
		s.Results = append(s.Results, r)
	}
	s.Reports.CTRF = json.RawMessage(data)
	return nil
}

func testStatus(c TestCounts) string {
	switch {
	case c.Failed > 0:
		return StatusFailed
	case c.Passed > 0:
		return StatusPassed
	}
	return StatusSkipped
}

// AddCompat puts a compatibility check in the submission: its JSON report
// and a result per specification with its verdict and the operations its
// failing changes affect, each once. checks, when not nil, holds the
// consumer check of each result (see CheckConsumers), in rep.Results'
// order.
func (s *Submission) AddCompat(ctx context.Context, rep *compat.Report, checks []ConsumerCheck, res *Resolver) error {
	run := rep.Run()
	raw, err := json.Marshal(reports.NewCompatJSONReport(run))
	if err != nil {
		return err
	}
	s.Reports.Compat = raw
	if s.Start.IsZero() {
		s.Start, s.Stop = rep.Start, rep.Stop
	}
	for i := range rep.Results {
		r := &rep.Results[i]
		cr := &CompatResult{Verdict: string(r.Verdict), Reason: string(r.Reason), Message: r.Message, Base: r.Base,
			Breaking: r.Count(compat.Breaking), Warnings: r.Count(compat.Warning)}
		var check *ConsumerCheck
		if i < len(checks) {
			check = &checks[i]
			cr.ConsumerCheck = check.Outcome
		}
		for _, op := range AffectedOperations(r, rep.Strict) {
			if check != nil {
				op.Consumers = check.Consumers[op.Operation]
			}
			cr.AffectedOperations = append(cr.AffectedOperations, op)
		}
		s.Results = append(s.Results, SpecResult{Spec: res.Ref(ctx, r.Spec), Status: string(r.Verdict), Compat: cr})
	}
	return nil
}

// AffectedOperations are the operations that r's failing changes affect,
// each once, in the order first met, with the rules of those changes.
func AffectedOperations(r *compat.Result, strict bool) []AffectedOperation {
	var ops []AffectedOperation
	index := map[string]int{}
	for _, c := range r.Changes {
		if !compat.Fails(c, strict) {
			continue
		}
		for _, op := range c.Operations {
			i, ok := index[op]
			if !ok {
				i = len(ops)
				index[op] = i
				ops = append(ops, AffectedOperation{Operation: op})
			}
			if !slices.Contains(ops[i].Rules, c.RuleID) {
				ops[i].Rules = append(ops[i].Rules, c.RuleID)
			}
		}
	}
	return ops
}

// AddSpecMetadata puts a spec metadata report in the submission, with a
// result per specification that loaded: published, or invalid when it has
// problems.
func (s *Submission) AddSpecMetadata(rep *SpecMetadataReport) {
	s.Reports.SpecMetadata = rep
	for i := range rep.Specs {
		m := &rep.Specs[i]
		if m.Error != "" {
			continue
		}
		status := StatusPublished
		if len(m.Problems) > 0 {
			status = StatusInvalid
		}
		s.Results = append(s.Results, SpecResult{
			Spec:   SpecRef{ID: m.ID, Repository: m.Repository, Path: m.Path, File: m.File},
			Status: status, Operations: m.OperationCount(),
		})
	}
}
