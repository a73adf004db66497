package arazzo

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"
	"time"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/english"
	"github.com/specgate/specgate/internal/httpx"
)

type nextKind uint8

const (
	nextStep nextKind = iota
	gotoStep
	gotoWorkflow
	endWorkflow
	failWorkflow
)

type next struct {
	kind   nextKind
	target string
	params map[string]any
	failed bool // an end reached through a failure action
}

// runStep runs one step with its retry actions and decides what follows.
func (st *runState) runStep(ctx context.Context, f *frame, s *Step) (*StepResult, next) {
	sr := &StepResult{Workflow: f.w.ID, Step: s, Caller: f.caller, Start: time.Now(), Target: st.r.targetName(s)}
	defer func() { sr.Duration = time.Since(sr.Start) }()
	retries := map[*Action]int{}
	for {
		msg := st.attempt(ctx, f, s, sr)
		if sr.Outcome == Skipped {
			sr.Message = msg
			return sr, next{kind: nextStep}
		}
		if sr.CriteriaMet && msg == "" {
			sr.Outcome = Passed
			if len(sr.Problems) > 0 {
				sr.Outcome = Failed
				sr.Message = "the success criteria held, but the exchange breaks the operation's contract"
			}
			st.recordOutputs(f, s, sr)
			return sr, st.successAction(ctx, f, s, sr)
		}
		if msg == "" {
			msg = "the success criteria did not hold"
		}
		sr.Outcome, sr.Message = Failed, msg
		st.recordOutputs(f, s, sr)
		a := st.failureAction(f, s, sr)
		if a == nil {
			return sr, next{kind: failWorkflow}
		}
		switch a.Type {
		case "retry":
			if retries[a] >= a.RetryLimit {
				sr.Message += fmt.Sprintf(" (after %d %s of failure action %q)", retries[a], english.Noun(retries[a], "retry", "retries"), a.Name)
				return sr, next{kind: failWorkflow}
			}
			retries[a]++
			sr.Retries++
			if a.StepID != "" {
				if other := f.w.Step(a.StepID); other != nil && other != s {
					inner, _ := st.runStep(ctx, f, other)
					st.sink(inner)
				}
			}
			if a.WorkflowID != "" {
				st.callWorkflow(ctx, a.WorkflowID, st.r.actionParams(a, f, sr), f, f.w.ID+"."+s.ID)
			}
			wait := time.Duration(a.RetryAfter * float64(time.Second))
			if n := len(sr.Exchanges); n > 0 && sr.Exchanges[n-1].RespHead != nil {
				if d, err := httpx.ParseRetryAfter(sr.Exchanges[n-1].RespHead.Get("Retry-After"), time.Now()); err == nil && d > 0 {
					wait = d
				}
			}
			if err := st.r.opts.Sleep(ctx, wait); err != nil {
				sr.Message = "the run was interrupted"
				return sr, next{kind: failWorkflow}
			}
			continue
		case "goto":
			sr.Message += fmt.Sprintf("; failure action %q goes to %s", a.Name, gotoTarget(a))
			if a.StepID != "" {
				return sr, next{kind: gotoStep, target: a.StepID}
			}
			return sr, next{kind: gotoWorkflow, target: a.WorkflowID, params: st.r.actionParams(a, f, sr)}
		default:
			sr.Message += fmt.Sprintf("; failure action %q ends the workflow", a.Name)
			return sr, next{kind: endWorkflow, failed: true}
		}
	}
}

func gotoTarget(a *Action) string {
	if a.StepID != "" {
		return "step " + a.StepID
	}
	return "workflow " + a.WorkflowID
}

func (st *runState) recordOutputs(f *frame, s *Step, sr *StepResult) {
	outs := map[string]any{}
	var called *WorkflowResult
	if s.WorkflowID != "" {
		called = st.lastCalled
	}
	for _, o := range s.Outputs {
		v, ok, err := st.r.evalOutput(o.Value, f, &evalCtx{sr: sr, called: called})
		if err == nil && ok {
			outs[o.Name] = v
		}
	}
	sr.Outputs = outs
	f.steps[s.ID] = outs
}

// successAction picks the first success action whose criteria hold: the
// step's, then the workflow's that the step does not replace by name.
func (st *runState) successAction(ctx context.Context, f *frame, s *Step, sr *StepResult) next {
	for _, a := range st.r.actions(s.OnSuccess, f.w.SuccessActions, "success") {
		if !st.r.criteriaHold(a.Criteria, f, sr) {
			continue
		}
		switch a.Type {
		case "end":
			sr.Message = fmt.Sprintf("success action %q ends the workflow", a.Name)
			return next{kind: endWorkflow}
		case "goto":
			sr.Message = fmt.Sprintf("success action %q goes to %s", a.Name, gotoTarget(a))
			if a.StepID != "" {
				return next{kind: gotoStep, target: a.StepID}
			}
			return next{kind: gotoWorkflow, target: a.WorkflowID, params: st.r.actionParams(a, f, sr)}
		}
	}
	_ = ctx
	return next{kind: nextStep}
}

func (st *runState) failureAction(f *frame, s *Step, sr *StepResult) *Action {
	for _, a := range st.r.actions(s.OnFailure, f.w.FailureActions, "failure") {
		if st.r.criteriaHold(a.Criteria, f, sr) {
			return a
		}
	}
	return nil
}

// actions merges a step's actions with its workflow's, resolving reusable
// objects: a step's action replaces a workflow's of the same name.
func (r *Runner) actions(own, inherited []*Action, which string) []*Action {
	comps := r.c.Components.SuccessActions
	if which == "failure" {
		comps = r.c.Components.FailureActions
	}
	resolve := func(a *Action) *Action {
		if a.Reference == "" {
			return a
		}
		if e, err := ParseExpr(a.Reference); err == nil {
			if c := comps[e.Name]; c != nil {
				return c
			}
		}
		return nil
	}
	var out []*Action
	names := map[string]bool{}
	for _, a := range own {
		if a = resolve(a); a != nil {
			out = append(out, a)
			names[a.Name] = true
		}
	}
	for _, a := range inherited {
		if a = resolve(a); a != nil && !names[a.Name] {
			out = append(out, a)
		}
	}
	return out
}

func (r *Runner) criteriaHold(cs []*Criterion, f *frame, sr *StepResult) bool {
	for _, c := range cs {
		cc, err := compileCriterion(c)
		if err != nil {
			return false
		}
		ok, err := cc.eval(r.resolver(f, &evalCtx{sr: sr}))
		if err != nil || !ok {
			return false
		}
	}
	return true
}

func (r *Runner) actionParams(a *Action, f *frame, sr *StepResult) map[string]any {
	out := map[string]any{}
	for _, p := range a.Parameters {
		if v, ok, err := r.evalValue(p.Value, f, &evalCtx{sr: sr}); err == nil && ok {
			out[p.Name] = v
		}
	}
	return out
}

// attempt sends the step's request once (or runs its workflow) and
// evaluates its success criteria; the message says why it could not.
func (st *runState) attempt(ctx context.Context, f *frame, s *Step, sr *StepResult) string {
	r := st.r
	sr.CriteriaMet, sr.Problems, sr.Status, sr.Matched, sr.ResponseType = false, nil, 0, "", ""
	if s.WorkflowID != "" {
		params, msg := r.stepParams(f, s, sr)
		if msg != "" {
			return msg
		}
		inputs := map[string]any{}
		for _, p := range params {
			inputs[p.Name] = p.value
		}
		sub := st.callWorkflow(ctx, s.WorkflowID, inputs, f, f.w.ID+"."+s.ID)
		st.lastCalled = sub
		sr.Target = "workflow " + s.WorkflowID
		if sub.Outcome != Passed {
			return fmt.Sprintf("workflow %q did not pass: %s", s.WorkflowID, sub.Message)
		}
		return st.criteria(f, s, sr, sub)
	}
	t, err := resolveTarget(r.c.Description, r.c.Loaded, s)
	if err != nil {
		return err.Error()
	}
	if t.Operation == nil {
		sr.Outcome = Skipped
		return "AsyncAPI steps are validated but not run: specgate sends HTTP requests, and has no client for message brokers"
	}
	sr.Source, sr.Operation = t.Source.Name, t.Operation
	ct := r.contracts[t.Source.Name]
	if ct == nil {
		return fmt.Sprintf("source description %q has no contract", t.Source.Name)
	}
	params, msg := r.stepParams(f, s, sr)
	if msg != "" {
		return msg
	}
	vals := contract.Values{Path: map[string]any{}, Query: map[string]any{}, Header: map[string]any{}, Cookie: map[string]any{}}
	for _, p := range params {
		vals.Set(p.in, p.name, p.value)
	}
	if s.RequestBody != nil {
		body, mediaType, err := r.buildBody(s.RequestBody, f, sr)
		if err != nil {
			return err.Error()
		}
		vals.Body, vals.MediaType = body, mediaType
	}
	if creds := r.opts.Credentials[t.Source.Name]; len(creds) > 0 && !hasCredentialParam(params) {
		vals.Credentials = creds
	}
	built, err := ct.BuildRequest(t.Operation, vals)
	if err != nil {
		return fmt.Sprintf("the request of %s cannot be built: %v", t, err)
	}
	sr.RequestType = built.MediaType
	base, err := r.baseURL(t, ct)
	if err != nil {
		return err.Error()
	}
	if rr := ct.CheckRequest(built.Request(strings.TrimRight(base.path, "/"))); rr != nil {
		for _, p := range rr.Problems {
			if p.In != contract.InSecurity {
				sr.Problems = append(sr.Problems, p)
			}
		}
	}
	if s.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(s.Timeout)*time.Millisecond)
		defer cancel()
	}
	req, err := built.HTTPRequest(ctx, base.url)
	if err != nil {
		return fmt.Sprintf("the request cannot be sent: %v", err)
	}
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "specgate")
	}
	attempts := r.sender.Do(ctx, req, built.Body)
	for _, a := range attempts {
		sr.Exchanges = append(sr.Exchanges, r.exchange(a))
	}
	last := attempts[len(attempts)-1]
	if last.Err != nil {
		if httpx.IsTimeout(last.Err) {
			return fmt.Sprintf("%s %s: no response in time", req.Method, req.URL.Redacted())
		}
		var ue *url.Error
		e := last.Err
		if errors.As(e, &ue) {
			e = ue.Err
		}
		return fmt.Sprintf("%s %s: the service could not be reached: %v", req.Method, req.URL.Redacted(), e)
	}
	resp := last.Response
	sr.Status = resp.StatusCode
	if mt, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type")); err == nil && len(last.Body) > 0 {
		sr.ResponseType = mt
	}
	if d := ct.Response(t.Operation, resp.StatusCode); d != nil {
		sr.Matched = d.Status
	}
	sr.Problems = append(sr.Problems, ct.CheckResponse(t.Operation, &contract.Response{Status: resp.StatusCode, Header: resp.Header, Body: last.Body, Method: req.Method})...)
	return st.criteria(f, s, sr, nil)
}

// criteria evaluates the success criteria; without any, a response below
// 400 (or a called workflow that passed) is success.
func (st *runState) criteria(f *frame, s *Step, sr *StepResult, called *WorkflowResult) string {
	ec := &evalCtx{sr: sr, called: called}
	if len(s.SuccessCriteria) == 0 {
		sr.CriteriaMet = s.WorkflowID != "" || sr.Status > 0 && sr.Status < 400
		if !sr.CriteriaMet {
			return fmt.Sprintf("status %d (the step has no successCriteria: a status below 400 passes)", sr.Status)
		}
		return ""
	}
	for _, c := range s.SuccessCriteria {
		cc, err := compileCriterion(c)
		if err != nil {
			return err.Error()
		}
		ok, err := cc.eval(st.r.resolver(f, ec))
		if err != nil {
			return fmt.Sprintf("success criterion %q: %v", c.Condition, err)
		}
		if !ok {
			return fmt.Sprintf("success criterion %q did not hold%s", c.Condition, st.r.criterionDetail(c, f, ec))
		}
	}
	sr.CriteriaMet = true
	return ""
}

// criterionDetail shows the values a failed simple condition read, or
// the context a failed regex, JSONPath or XPath criterion was tested on.
func (r *Runner) criterionDetail(c *Criterion, f *frame, ec *evalCtx) string {
	if c.Type != "simple" && c.Type != "" {
		cc, err := compileCriterion(c)
		if err != nil {
			return ""
		}
		_, v, err := cc.test(r.resolver(f, ec))
		if err != nil || v == nil {
			return ""
		}
		return fmt.Sprintf(" (%s is %s)", c.Context, describeValue(v))
	}
	cond, err := ParseCondition(c.Condition)
	if err != nil {
		return ""
	}
	var parts []string
	seen := map[string]bool{}
	for _, e := range cond.Exprs() {
		if seen[e.Raw] {
			continue
		}
		seen[e.Raw] = true
		v, ok, err := r.resolver(f, ec)(e)
		switch {
		case err != nil:
			parts = append(parts, fmt.Sprintf("%s: %v", e.Raw, err))
		case !ok:
			parts = append(parts, e.Raw+" is not set")
		default:
			parts = append(parts, e.Raw+" is "+describeValue(v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func hasCredentialParam(params []paramValue) bool {
	for _, p := range params {
		if p.in == "header" && (strings.EqualFold(p.name, "Authorization") || strings.EqualFold(p.name, "Cookie")) {
			return true
		}
	}
	return false
}
