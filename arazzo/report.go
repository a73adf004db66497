package arazzo

import (
	"strconv"
	"strings"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/reports"
)

// Test converts a step's result for the reports: a test named after the
// step, in the suite of its document and workflow, with every attempt's
// request and response as its outputs, the retries before the last as its
// attempts, the contract's problems, and the step's outputs and ids in its
// extra.
func (sr *StepResult) Test(docName string) reports.Test {
	s := sr.Step
	wf := sr.Workflow
	if sr.Caller != "" {
		wf += " (called by " + sr.Caller + ")"
	}
	t := reports.Test{
		Name:      s.ID + ": " + sr.Target,
		Suite:     []string{docName, wf},
		Type:      reports.Workflow,
		Status:    reports.Status(sr.Outcome),
		Errored:   sr.Outcome == Failed && sr.Status == 0 && s.WorkflowID == "",
		Start:     sr.Start,
		Duration:  sr.Duration,
		Message:   sr.Message,
		File:      docName,
		Line:      int(s.Node.Range.Start.Line),
		Tags:      []string{"arazzo", s.Kind()},
		RawStatus: string(sr.Outcome),
		Extra:     map[string]any{"workflowId": sr.Workflow, "stepId": s.ID},
	}
	if sr.Status != 0 {
		t.RawStatus = strconv.Itoa(sr.Status)
	}
	if sr.Caller != "" {
		t.Extra["calledBy"] = sr.Caller
	}
	if sr.Source != "" {
		t.Extra["sourceDescription"] = sr.Source
	}
	if len(sr.Outputs) > 0 {
		outs := make(map[string]any, len(sr.Outputs))
		for k, v := range sr.Outputs {
			outs[k] = v
		}
		t.Extra["stepOutputs"] = outs
	}
	if op := sr.Operation; op != nil {
		t.Operation = reports.OperationKey{Path: op.Path, Method: strings.ToUpper(op.Method), RequestType: sr.RequestType, Status: sr.Matched, ResponseType: sr.ResponseType}
	}
	for i, x := range sr.Exchanges {
		ex := reports.Exchange{Attempt: i + 1, Start: x.Start, Duration: x.Duration, Error: x.Error,
			Request: reports.Request{Method: x.Method, URL: x.URL, Headers: x.Header, Body: reports.BodyOf(x.Body)}}
		if x.Status != 0 {
			ex.Response = &reports.Response{Status: x.Status, Headers: x.RespHead, Body: reports.BodyOf(x.RespBody)}
		}
		t.Outputs = append(t.Outputs, ex)
		if i < len(sr.Exchanges)-1 {
			msg := x.Error
			if x.Status != 0 {
				msg = strconv.Itoa(x.Status)
			}
			t.Attempts = append(t.Attempts, reports.Attempt{Attempt: i + 1, Status: reports.Failed, Start: x.Start, Duration: x.Duration, Message: msg})
		}
	}
	for _, p := range sr.Problems {
		t.Problems = append(t.Problems, problem(p))
	}
	return t
}

func problem(p contract.Problem) reports.Problem {
	rp := reports.Problem{In: string(p.In), Path: p.JSONPath(), Keyword: p.Keyword, Message: p.Message}
	if p.Key != "" {
		rp.In += " " + p.Key
	}
	if f := p.Schema.File; f != nil {
		rp.Schema = f.Name + ":" + strconv.Itoa(int(p.Schema.Range.Start.Line)) + ":" + strconv.Itoa(int(p.Schema.Range.Start.Col))
	}
	return rp
}
