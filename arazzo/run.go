package arazzo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/theory/jsonpath"

	"github.com/specgate/specgate/contract"
	"github.com/specgate/specgate/internal/httpx"
	"github.com/specgate/specgate/schema"
	"github.com/specgate/specgate/spec"
)

// Options configure a Runner.
type Options struct {
	// BaseURL is where every source description's service answers, unless
	// BaseURLs names one for a source; without either, a source's first
	// server URL is used. A base URL without a path gets each operation's
	// server prefix, as specgate test does.
	BaseURL  string
	BaseURLs map[string]string // by source description name
	// Inputs are the inputs of each workflow, by workflowId.
	Inputs map[string]map[string]any
	// Credentials are raw credentials by source description name and
	// security scheme name: a step whose parameters set no Authorization
	// (or other credential) gets them as the operation's security demands.
	Credentials map[string]map[string]string
	// Client sends the requests; nil makes one from the environment.
	Client *http.Client
	// Retry says how 429 answers are retried (independently of retry
	// actions, which follow the workflow).
	Retry httpx.RetryPolicy
	// MaxSteps bounds the steps one workflow run executes (goto loops);
	// zero means 1,000.
	MaxSteps int
	// Sleep waits before a retry action; nil waits on a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Runner executes the workflows of a checked description.
type Runner struct {
	c         *Checked
	opts      Options
	contracts map[string]*contract.Contract // by source name
	schemas   *schema.Set                   // of the Arazzo document, for inputs
	sender    *httpx.Sender
	secrets   []string

	mu      sync.Mutex
	results map[string]*WorkflowResult // the latest run of each workflow
}

// NewRunner prepares the contracts of the description's OpenAPI sources.
// The description must be free of problems (Check).
func NewRunner(c *Checked, opts Options) (*Runner, error) {
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 1000
	}
	if opts.Sleep == nil {
		opts.Sleep = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	r := &Runner{c: c, opts: opts, contracts: map[string]*contract.Contract{}, schemas: schema.NewSet(c.Doc)}
	for name, ls := range c.Loaded {
		if ls.Doc == nil || (ls.Doc.Format != spec.OpenAPI && ls.Doc.Format != spec.Swagger) {
			continue
		}
		ct, err := contract.New(ls.Doc, schema.NewSet(ls.Doc), contract.Options{})
		if err != nil {
			return nil, fmt.Errorf("source description %q: %w", name, err)
		}
		r.contracts[name] = ct
	}
	client := opts.Client
	if client == nil {
		var err error
		if client, err = httpx.NewClient(httpx.ClientOptions{}); err != nil {
			return nil, err
		}
	}
	r.sender = &httpx.Sender{Client: client, Retry: opts.Retry}
	for _, creds := range opts.Credentials {
		for _, v := range creds {
			if len(v) >= 4 {
				r.secrets = append(r.secrets, v)
			}
		}
	}
	return r, nil
}

// Outcome is a step's or workflow's verdict, in CTRF's words.
type Outcome string

const (
	Passed  Outcome = "passed"
	Failed  Outcome = "failed"
	Skipped Outcome = "skipped"
)

// StepResult is what one step did.
type StepResult struct {
	Workflow string
	Step     *Step
	// Caller names the workflow step that called this step's workflow
	// ("checkout.pay"); "" for a workflow run directly.
	Caller  string
	Outcome Outcome
	// CriteriaMet says whether the success criteria held (false also when
	// no response came).
	CriteriaMet bool
	// Message says why the step failed or was skipped, or what action
	// followed.
	Message string
	// Target is the operation called ("GET /pets (listPets)"), or the
	// workflow.
	Target    string
	Operation *spec.Operation
	Source    string // the source description's name
	// Exchanges are the attempts of the step's request, retries included
	// (a retry action's attempts and a 429's).
	Exchanges []Exchange
	Status    int
	// Matched is the declared response the status matched.
	Matched      string
	ResponseType string
	RequestType  string
	// Problems are where the request or the response breaks the
	// operation's contract.
	Problems []contract.Problem
	Outputs  map[string]any
	Start    time.Time
	Duration time.Duration
	// Retries counts the attempts a retry action made after the first.
	Retries int
}

// Exchange is one request and its response as reports keep them.
type Exchange struct {
	Start    time.Time
	Duration time.Duration
	Method   string
	URL      string
	Header   http.Header
	Body     []byte
	Status   int // 0 without a response
	RespHead http.Header
	RespBody []byte
	Error    string
}

// WorkflowResult is what one workflow run did.
type WorkflowResult struct {
	ID      string
	Outcome Outcome
	Message string
	Inputs  map[string]any
	Outputs map[string]any
	Steps   []*StepResult
}

// Sink receives the results of steps as they finish, in the order they
// ran.
type Sink func(*StepResult)

// Run runs the workflows named (all of the description's when ids is
// empty), each after the workflows it dependsOn, each at most once, and
// hands every step's result to sink. It returns the workflows' results in
// the order they ran.
func (r *Runner) Run(ctx context.Context, ids []string, sink Sink) []*WorkflowResult {
	if len(ids) == 0 {
		for _, w := range r.c.Workflows {
			ids = append(ids, w.ID)
		}
	}
	order := r.order(ids)
	done := map[string]*WorkflowResult{}
	var out []*WorkflowResult
	for _, w := range order {
		var failedDep string
		for _, d := range w.DependsOn {
			if res := done[d.Value]; res != nil && res.Outcome != Passed {
				failedDep = d.Value
				break
			}
		}
		var res *WorkflowResult
		if failedDep != "" || ctx.Err() != nil {
			reason := fmt.Sprintf("workflow %q, which it depends on, did not pass", failedDep)
			if ctx.Err() != nil {
				reason = "the run was interrupted"
			}
			res = &WorkflowResult{ID: w.ID, Outcome: Skipped, Message: reason}
			for _, s := range w.Steps {
				sr := &StepResult{Workflow: w.ID, Step: s, Outcome: Skipped, Message: reason, Target: r.targetName(s)}
				res.Steps = append(res.Steps, sr)
				sink(sr)
			}
		} else {
			st := &runState{r: r, done: done, sink: sink}
			res = st.runWorkflow(ctx, w, r.opts.Inputs[w.ID], "")
		}
		done[w.ID] = res
		out = append(out, res)
	}
	return out
}

// order lists the workflows to run: each after those it depends on, in
// document order otherwise. The description has no dependsOn cycle.
func (r *Runner) order(ids []string) []*Workflow {
	var out []*Workflow
	seen := map[string]bool{}
	var visit func(w *Workflow, depth int)
	visit = func(w *Workflow, depth int) {
		if seen[w.ID] || depth > len(r.c.Workflows) {
			return
		}
		seen[w.ID] = true
		for _, d := range w.DependsOn {
			if dw := r.c.Workflow(d.Value); dw != nil {
				visit(dw, depth+1)
			}
		}
		out = append(out, w)
	}
	for _, w := range r.c.Workflows {
		if slices.Contains(ids, w.ID) {
			visit(w, 0)
		}
	}
	return out
}

func (r *Runner) targetName(s *Step) string {
	if s.WorkflowID != "" {
		return "workflow " + s.WorkflowID
	}
	if t, err := resolveTarget(r.c.Description, r.c.Loaded, s); err == nil {
		return t.String()
	}
	return s.OperationID + s.OperationPath + s.ChannelPath
}

// runState is one run of Runner.Run: the results of the workflows done.
type runState struct {
	r     *Runner
	done  map[string]*WorkflowResult
	sink  Sink
	depth int
	// lastCalled is the result of the workflow the last workflow step
	// called: its step's outputs read it as $outputs.
	lastCalled *WorkflowResult
}

// frame is one workflow being run: its inputs and its steps' outputs.
type frame struct {
	w       *Workflow
	inputs  map[string]any
	steps   map[string]map[string]any
	caller  string
	outputs map[string]any
}

// runWorkflow runs one workflow with its inputs.
func (st *runState) runWorkflow(ctx context.Context, w *Workflow, inputs map[string]any, caller string) *WorkflowResult {
	res := &WorkflowResult{ID: w.ID, Inputs: inputs, Outcome: Passed}
	if inputs == nil {
		inputs = map[string]any{}
	}
	f := &frame{w: w, inputs: inputs, steps: map[string]map[string]any{}, caller: caller}
	if msg := st.r.checkInputs(w, inputs); msg != "" {
		res.Outcome, res.Message = Failed, msg
		for _, s := range w.Steps {
			sr := &StepResult{Workflow: w.ID, Step: s, Caller: caller, Outcome: Failed, Message: msg, Target: st.r.targetName(s)}
			res.Steps = append(res.Steps, sr)
			st.sink(sr)
		}
		return res
	}
	executed := 0
	ran := map[*Step]bool{}
	for i := 0; i < len(w.Steps); {
		if ctx.Err() != nil {
			res.Outcome, res.Message = Failed, "the run was interrupted"
			break
		}
		s := w.Steps[i]
		executed++
		if executed > st.r.opts.MaxSteps {
			res.Outcome, res.Message = Failed, fmt.Sprintf("workflow %q ran %d steps without ending: a goto loop?", w.ID, st.r.opts.MaxSteps)
			break
		}
		sr, next := st.runStep(ctx, f, s)
		ran[s] = true
		res.Steps = append(res.Steps, sr)
		st.sink(sr)
		switch next.kind {
		case nextStep:
			i++
		case gotoStep:
			i = slices.IndexFunc(w.Steps, func(x *Step) bool { return x.ID == next.target })
			if i < 0 {
				res.Outcome, res.Message = Failed, fmt.Sprintf("goto step %q, which does not exist", next.target)
				i = len(w.Steps)
			}
		case gotoWorkflow:
			sub := st.callWorkflow(ctx, next.target, next.params, f, w.ID+"."+s.ID)
			if sub.Outcome != Passed {
				res.Outcome, res.Message = Failed, fmt.Sprintf("workflow %q, which step %q went to, did not pass", next.target, s.ID)
			}
			i = len(w.Steps)
		case endWorkflow:
			i = len(w.Steps)
		case failWorkflow:
			res.Outcome, res.Message = Failed, fmt.Sprintf("step %q failed", s.ID)
			i = len(w.Steps)
		}
		if next.kind == endWorkflow && next.failed {
			res.Outcome, res.Message = Failed, fmt.Sprintf("step %q failed and its failure action ended the workflow", s.ID)
		}
	}
	// Every step is in the report: those the run did not reach are skipped.
	for _, s := range w.Steps {
		if ran[s] {
			continue
		}
		reason := "not reached: the workflow's actions went past it"
		if res.Outcome != Passed {
			reason = "not reached: " + res.Message
		}
		sr := &StepResult{Workflow: w.ID, Step: s, Caller: caller, Outcome: Skipped, Message: reason, Target: st.r.targetName(s)}
		res.Steps = append(res.Steps, sr)
		st.sink(sr)
	}
	f.outputs = map[string]any{}
	for _, o := range w.Outputs {
		v, ok, err := st.r.evalOutput(o.Value, f, nil)
		if err == nil && ok {
			f.outputs[o.Name] = v
		}
	}
	res.Outputs = f.outputs
	st.r.mu.Lock()
	if st.r.results == nil {
		st.r.results = map[string]*WorkflowResult{}
	}
	st.r.results[w.ID] = res
	st.r.mu.Unlock()
	return res
}

// callWorkflow runs a workflow a step calls (or goes to), with the step's
// parameters as its inputs.
func (st *runState) callWorkflow(ctx context.Context, id string, params map[string]any, _ *frame, caller string) *WorkflowResult {
	w := st.r.c.Workflow(id)
	if w == nil || st.depth > 16 {
		return &WorkflowResult{ID: id, Outcome: Failed, Message: fmt.Sprintf("workflow %q cannot be called here", id)}
	}
	inputs := map[string]any{}
	for k, v := range st.r.opts.Inputs[id] {
		inputs[k] = v
	}
	for k, v := range params {
		inputs[k] = v
	}
	st.depth++
	defer func() { st.depth-- }()
	return st.runWorkflow(ctx, w, inputs, caller)
}

// CheckInputs checks the inputs that Run gives each workflow
// (Options.Inputs) against its inputs schema, before anything runs: an
// error per workflow whose inputs do not fit, in document order, or nil.
func (r *Runner) CheckInputs() []error {
	var errs []error
	for _, w := range r.c.Workflows {
		inputs := r.opts.Inputs[w.ID]
		if inputs == nil {
			inputs = map[string]any{}
		}
		if msg := r.inputProblems(w, inputs); msg != "" {
			errs = append(errs, fmt.Errorf("workflow %q cannot run: %s", w.ID, msg))
		}
	}
	return errs
}

// AddressFrom says where a source description's address comes from.
type AddressFrom string

const (
	// FromSource is Options.BaseURLs: the address given for the source.
	FromSource AddressFrom = "source"
	// FromBase is Options.BaseURL: the address of every source.
	FromBase AddressFrom = "base"
	// FromServers is the source's first server URL with a host.
	FromServers AddressFrom = "servers"
	// FromNowhere: there is no address; the steps that call the source
	// fail, saying so.
	FromNowhere AddressFrom = ""
)

// Address is where the requests of a source description go.
type Address struct {
	Source string // the source description's name
	URL    string
	From   AddressFrom
}

// Addresses are where the requests of each source description that a step
// calls go, in the order of the sources.
func (r *Runner) Addresses() []Address {
	called := map[string]bool{}
	for _, w := range r.c.Workflows {
		for _, s := range w.Steps {
			if t, err := resolveTarget(r.c.Description, r.c.Loaded, s); err == nil && t.Operation != nil {
				called[t.Source.Name] = true
			}
		}
	}
	var out []Address
	for _, src := range r.c.Sources {
		ls := r.c.Loaded[src.Name]
		if !called[src.Name] || ls == nil || ls.Doc == nil {
			continue
		}
		a := Address{Source: src.Name}
		switch {
		case r.opts.BaseURLs[src.Name] != "":
			a.URL, a.From = r.opts.BaseURLs[src.Name], FromSource
		case r.opts.BaseURL != "":
			a.URL, a.From = r.opts.BaseURL, FromBase
		default:
			if u := serverURL(ls.Doc); u != "" {
				a.URL, a.From = u, FromServers
			}
		}
		out = append(out, a)
	}
	return out
}

// serverURL is a description's first server URL with a host, without its
// trailing slash; "" when it has none.
func serverURL(doc *spec.Document) string {
	for _, s := range doc.Views().Servers {
		if u, err := url.Parse(s.URL); err == nil && u.Host != "" {
			return strings.TrimRight(s.URL, "/")
		}
	}
	return ""
}

// checkInputs validates a workflow's inputs against its inputs schema.
func (r *Runner) checkInputs(w *Workflow, inputs map[string]any) string {
	if msg := r.inputProblems(w, inputs); msg != "" {
		return fmt.Sprintf("workflow %q: %s", w.ID, msg)
	}
	return ""
}

// inputProblems says how inputs do not fit a workflow's inputs schema: ""
// when they do.
func (r *Runner) inputProblems(w *Workflow, inputs map[string]any) string {
	if w.Inputs == nil {
		return ""
	}
	sch, err := r.schemas.Compile(w.Inputs, w.InputsPath)
	if err != nil {
		return fmt.Sprintf("its inputs schema does not compile: %v", err)
	}
	var missing []string
	if req := w.Inputs.Get("required"); req != nil && req.Kind == spec.Array {
		for _, it := range req.Items {
			if _, ok := inputs[it.Value]; it.Kind == spec.String && !ok {
				missing = append(missing, strconv.Quote(it.Value))
			}
		}
	}
	var parts, msgs []string
	switch len(missing) {
	case 0:
	case 1:
		parts = append(parts, "input "+missing[0]+" is missing")
	default:
		parts = append(parts, "inputs "+strings.Join(missing, ", ")+" are missing")
	}
	for _, p := range sch.Validate(any(inputs), schema.Request) {
		// The missing inputs are named above.
		if len(p.Path) == 0 && p.Keyword == "required" && len(missing) > 0 {
			continue
		}
		msgs = append(msgs, p.String())
	}
	if len(msgs) > 0 {
		parts = append(parts, "its inputs do not fit its inputs schema: "+strings.Join(msgs, "; "))
	}
	return strings.Join(parts, "; ")
}

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
				sr.Message += fmt.Sprintf(" (after %d %s of failure action %q)", retries[a], plural(retries[a], "retry", "retries"), a.Name)
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

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
		switch p.in {
		case "path":
			vals.Path[p.name] = p.value
		case "query":
			vals.Query[p.name] = p.value
		case "header":
			vals.Header[p.name] = p.value
		case "cookie":
			vals.Cookie[p.name] = p.value
		}
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

type base struct{ url, path string }

// baseURL is where a step's request goes: the source's base URL (see
// Options.BaseURL), with the operation's server prefix when it has no
// path.
func (r *Runner) baseURL(t *Target, ct *contract.Contract) (base, error) {
	b := r.opts.BaseURLs[t.Source.Name]
	if b == "" {
		b = r.opts.BaseURL
	}
	if b == "" {
		if s := serverURL(t.Source.Doc); s != "" {
			u, _ := url.Parse(s)
			return base{url: s, path: u.Path}, nil
		}
		return base{}, fmt.Errorf("no base URL for source description %q: give --testBaseURL, or its address in specgate.yaml", t.Source.Name)
	}
	u, err := url.Parse(b)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return base{}, fmt.Errorf("base URL %q of source description %q is not an http(s) URL with a host", b, t.Source.Name)
	}
	b = strings.TrimRight(b, "/")
	if u.Path == "" || u.Path == "/" {
		prefix := strings.TrimRight(ct.Prefix(t.Operation), "/")
		return base{url: b + prefix, path: prefix}, nil
	}
	return base{url: b, path: u.Path}, nil
}

// exchange keeps an attempt for reports, credentials masked.
func (r *Runner) exchange(a httpx.Attempt) Exchange {
	x := Exchange{Start: a.Start, Duration: a.Duration}
	if a.Request != nil {
		x.Method, x.URL, x.Header, x.Body = a.Request.Method, r.mask(a.Request.URL.String()), maskHeader(a.Request.Header, r.mask), []byte(r.mask(string(a.RequestBody)))
	}
	if a.Err != nil {
		x.Error = r.mask(a.Err.Error())
	}
	if a.Response != nil {
		x.Status, x.RespHead, x.RespBody = a.Response.StatusCode, maskHeader(a.Response.Header, r.mask), a.Body
	}
	return x
}

func (r *Runner) mask(s string) string {
	for _, v := range r.secrets {
		s = strings.ReplaceAll(s, v, "****")
	}
	return s
}

// sensitive are the headers whose values reports never show in full.
var sensitive = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"}

func maskHeader(h http.Header, mask func(string) string) http.Header {
	out := http.Header{}
	for k, vs := range h {
		for _, v := range vs {
			if slices.ContainsFunc(sensitive, func(s string) bool { return strings.EqualFold(s, k) }) {
				if scheme, _, ok := strings.Cut(v, " "); ok && (strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "Basic")) {
					v = scheme + " ****"
				} else {
					v = "****"
				}
			}
			out.Add(k, mask(v))
		}
	}
	return out
}

// paramValue is a parameter with its value evaluated.
type paramValue struct {
	name, in string
	value    any
	Name     string
}

// stepParams evaluates the parameters of a step over those of its
// workflow (a step's replaces the workflow's of the same name and
// location).
func (r *Runner) stepParams(f *frame, s *Step, sr *StepResult) ([]paramValue, string) {
	var out []paramValue
	index := map[string]int{}
	add := func(p *Parameter) string {
		name, in, value := p.Name, p.In, p.Value
		if p.Reference != "" {
			e, err := ParseExpr(p.Reference)
			if err != nil {
				return err.Error()
			}
			c := r.c.Components.Parameters[e.Name]
			if c == nil {
				return fmt.Sprintf("components.parameters has no %q", e.Name)
			}
			name, in = c.Name, c.In
			if value == nil {
				value = c.Value
			}
		}
		v, ok, err := r.evalValue(value, f, &evalCtx{sr: sr})
		if err != nil {
			return fmt.Sprintf("parameter %q: %v", name, err)
		}
		if !ok {
			return fmt.Sprintf("parameter %q: %s is not set%s", name, nodeText(value), inputHint(value))
		}
		key := in + "\x00" + name
		pv := paramValue{name: name, in: in, value: v, Name: name}
		if i, seen := index[key]; seen {
			out[i] = pv
			return ""
		}
		index[key] = len(out)
		out = append(out, pv)
		return ""
	}
	for _, p := range f.w.Parameters {
		if s.WorkflowID != "" && p.In != "" {
			continue
		}
		if msg := add(p); msg != "" {
			return nil, msg
		}
	}
	for _, p := range s.Parameters {
		if msg := add(p); msg != "" {
			return nil, msg
		}
	}
	return out, ""
}

func nodeText(n *spec.Node) string {
	if n == nil {
		return "the value"
	}
	if n.Kind == spec.String {
		return n.Value
	}
	return "the value"
}

func inputHint(n *spec.Node) string {
	if n != nil && n.Kind == spec.String && strings.Contains(n.Value, "$inputs.") {
		return " (give the workflow's inputs with --inputs FILE)"
	}
	return ""
}

// buildBody evaluates a request body's payload and replacements. A JSON
// payload written as text with embedded expressions ("{$inputs.x}") is
// read as JSON after substitution, a quoted "{$…}" standing for the
// value's JSON.
func (r *Runner) buildBody(b *RequestBody, f *frame, sr *StepResult) (any, string, error) {
	ec := &evalCtx{sr: sr}
	var v any
	if b.Payload != nil {
		if b.Payload.Kind == spec.String && !IsExpression(b.Payload.Value) && isJSONType(b.ContentType) {
			text, err := r.substituteJSON(b.Payload.Value, f, ec)
			if err != nil {
				return nil, "", err
			}
			d := json.NewDecoder(strings.NewReader(text))
			d.UseNumber()
			if err := d.Decode(&v); err != nil {
				return nil, "", fmt.Errorf("the payload is not JSON after its expressions were replaced: %v", err)
			}
		} else {
			val, ok, err := r.evalValue(b.Payload, f, ec)
			if err != nil {
				return nil, "", fmt.Errorf("payload: %v", err)
			}
			if !ok {
				return nil, "", fmt.Errorf("payload: %s is not set%s", nodeText(b.Payload), inputHint(b.Payload))
			}
			v = val
		}
	}
	for _, rep := range b.Replacements {
		val, ok, err := r.evalValue(rep.Value, f, ec)
		if err != nil || !ok {
			return nil, "", fmt.Errorf("replacement of %s: %s is not set", rep.Target, nodeText(rep.Value))
		}
		if v, err = replace(v, rep, b.ContentType, val); err != nil {
			return nil, "", fmt.Errorf("replacement of %s: %v", rep.Target, err)
		}
	}
	if s, ok := v.(string); ok && !isJSONType(b.ContentType) {
		return []byte(s), b.ContentType, nil
	}
	return v, b.ContentType, nil
}

func isJSONType(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return ct == "" || mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// substituteJSON replaces the embedded expressions of JSON text.
func (r *Runner) substituteJSON(text string, f *frame, ec *evalCtx) (string, error) {
	var b strings.Builder
	for i := 0; i < len(text); {
		quoted := strings.HasPrefix(text[i:], `"{$`)
		if !quoted && !strings.HasPrefix(text[i:], "{$") {
			b.WriteByte(text[i])
			i++
			continue
		}
		start := i
		if quoted {
			start++
		}
		end := strings.IndexByte(text[start:], '}')
		if end < 0 {
			return "", errors.New("an embedded expression {$… has no closing }")
		}
		e, err := ParseExpr(text[start+1 : start+end])
		if err != nil {
			return "", err
		}
		v, ok, err := r.resolver(f, ec)(e)
		if err != nil {
			return "", err
		}
		after := start + end + 1
		if quoted && strings.HasPrefix(text[after:], `"`) {
			if !ok {
				v = nil
			}
			j, _ := json.Marshal(v)
			b.Write(j)
			i = after + 1
			continue
		}
		if quoted {
			b.WriteByte('"')
		}
		if ok {
			s := textOf(v)
			j, _ := json.Marshal(s)
			b.WriteString(string(j[1 : len(j)-1]))
		}
		i = after
	}
	return b.String(), nil
}

// replace applies one replacement to a payload: a JSON pointer target
// (the default) is set, creating objects on the way; a JSONPath target
// sets every node it selects, and must select one. XPath targets (named,
// or in Arazzo 1.0 implied by an XML payload, where the target is a JSON
// pointer or an XPath expression) are not applied: the payload's text can
// embed the value instead ({$inputs.name}).
func replace(payload any, rep *Replacement, contentType string, val any) (any, error) {
	typ := rep.TargetType
	if typ == "" && isXMLType(contentType) {
		typ = "xpath"
	}
	switch typ {
	case "", "jsonpointer":
		return pointerSet(payload, rep.Target, val)
	case "jsonpath":
		p, err := jsonpath.Parse(rep.Target)
		if err != nil {
			return nil, fmt.Errorf("JSONPath %q does not parse: %v", rep.Target, err)
		}
		located := p.SelectLocated(payload)
		if len(located) == 0 {
			return nil, fmt.Errorf("JSONPath %q selects nothing in the payload", rep.Target)
		}
		for np := range located.Deduplicate().Paths() {
			if payload, err = pointerSet(payload, np.Pointer(), val); err != nil {
				return nil, err
			}
		}
		return payload, nil
	case "xpath":
		return nil, errors.New("XPath targets are not applied (specgate replaces JSON pointer and JSONPath targets in JSON payloads); embed the value in the payload's text instead, as {$inputs.name}")
	}
	return nil, fmt.Errorf("target selector type %q is not one of jsonpointer, jsonpath, xpath", typ)
}

func isXMLType(ct string) bool {
	mt, _, _ := mime.ParseMediaType(ct)
	return mt == "application/xml" || mt == "text/xml" || strings.HasSuffix(mt, "+xml")
}

// pointerSet sets the value at a JSON pointer, creating objects on the way.
func pointerSet(doc any, ptr string, val any) (any, error) {
	if ptr == "" {
		return val, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("JSON pointer %q must start with /", ptr)
	}
	segs := strings.Split(ptr[1:], "/")
	var set func(cur any, i int) (any, error)
	set = func(cur any, i int) (any, error) {
		if i == len(segs) {
			return val, nil
		}
		seg := strings.ReplaceAll(strings.ReplaceAll(segs[i], "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case nil:
			m := map[string]any{}
			v, err := set(nil, i+1)
			m[seg] = v
			return m, err
		case map[string]any:
			v, err := set(c[seg], i+1)
			c[seg] = v
			return c, err
		case []any:
			if seg == "-" {
				v, err := set(nil, i+1)
				return append(c, v), err
			}
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(c) {
				return nil, fmt.Errorf("%q is not an index of the array", seg)
			}
			v, err := set(c[n], i+1)
			c[n] = v
			return c, err
		}
		return nil, fmt.Errorf("%s reaches %s, which has no members", ptr, describeValue(cur))
	}
	return set(copyJSON(doc), 0)
}

func copyJSON(v any) any {
	switch c := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(c))
		for k, x := range c {
			m[k] = copyJSON(x)
		}
		return m
	case []any:
		s := make([]any, len(c))
		for i, x := range c {
			s[i] = copyJSON(x)
		}
		return s
	}
	return v
}

// evalCtx is what an expression evaluated in a step can read besides the
// frame: the step's exchange, the workflow it called.
type evalCtx struct {
	sr     *StepResult
	called *WorkflowResult
}

// evalValue evaluates a value of the document: a whole runtime expression
// keeps its value's type, a template gives a string, objects and arrays
// are evaluated member by member (1.1 selector objects select).
func (r *Runner) evalValue(n *spec.Node, f *frame, ec *evalCtx) (any, bool, error) {
	if n == nil {
		return nil, false, nil
	}
	switch n.Kind {
	case spec.String:
		whole, tmpl, err := valueExprs(n.Value)
		if err != nil {
			return nil, false, err
		}
		if whole != nil {
			return r.resolver(f, ec)(whole)
		}
		if tmpl != nil {
			var b strings.Builder
			for i, e := range tmpl.Exprs {
				b.WriteString(tmpl.Text[i])
				v, ok, err := r.resolver(f, ec)(e)
				if err != nil {
					return nil, false, err
				}
				if !ok {
					return nil, false, nil
				}
				b.WriteString(textOf(v))
			}
			b.WriteString(tmpl.Text[len(tmpl.Text)-1])
			return b.String(), true, nil
		}
		return n.Value, true, nil
	case spec.Object:
		if isSelector(n) {
			return r.evalSelector(n, f, ec)
		}
		m := make(map[string]any, len(n.Fields))
		for _, fl := range n.Fields {
			v, ok, err := r.evalValue(fl.Value, f, ec)
			if err != nil {
				return nil, false, fmt.Errorf("%s: %v", fl.Key, err)
			}
			if ok {
				m[fl.Key] = v
			}
		}
		return m, true, nil
	case spec.Array:
		s := make([]any, 0, len(n.Items))
		for i, it := range n.Items {
			v, ok, err := r.evalValue(it, f, ec)
			if err != nil {
				return nil, false, fmt.Errorf("[%d]: %v", i, err)
			}
			if ok {
				s = append(s, v)
			}
		}
		return s, true, nil
	}
	return NodeValue(n), true, nil
}

func (r *Runner) evalSelector(n *spec.Node, f *frame, ec *evalCtx) (any, bool, error) {
	e, err := ParseExpr(n.GetStr("context"))
	if err != nil {
		return nil, false, err
	}
	ctx, ok, err := r.resolver(f, ec)(e)
	if err != nil || !ok {
		return nil, ok, err
	}
	return selectValue(n, ctx)
}

// evalOutput evaluates an output: a runtime expression or a selector.
func (r *Runner) evalOutput(n *spec.Node, f *frame, ec *evalCtx) (any, bool, error) {
	if n != nil && n.Kind == spec.Object {
		return r.evalSelector(n, f, ec)
	}
	return r.evalValue(n, f, ec)
}

// resolver resolves runtime expressions in a frame and a step's exchange.
func (r *Runner) resolver(f *frame, ec *evalCtx) Resolver {
	return func(e *Expr) (any, bool, error) {
		var sr *StepResult
		if ec != nil {
			sr = ec.sr
		}
		var last *Exchange
		if sr != nil && len(sr.Exchanges) > 0 {
			last = &sr.Exchanges[len(sr.Exchanges)-1]
		}
		withPointer := func(v any, ok bool) (any, bool, error) {
			if !ok || !e.HasPointer {
				return v, ok, nil
			}
			if s, isText := v.(string); isText {
				if parsed, err := decodeJSON([]byte(s)); err == nil {
					v = parsed
				}
			}
			return pointerGet(v, e.Pointer)
		}
		switch e.Kind {
		case ExprStatusCode:
			if sr == nil || sr.Status == 0 {
				return nil, false, nil
			}
			return json.Number(strconv.Itoa(sr.Status)), true, nil
		case ExprURL:
			if last == nil {
				return nil, false, nil
			}
			return last.URL, true, nil
		case ExprMethod:
			if last == nil {
				return nil, false, nil
			}
			return last.Method, true, nil
		case ExprRequest, ExprResponse:
			if last == nil {
				return nil, false, nil
			}
			header, body, ctype := last.Header, last.Body, last.Header.Get("Content-Type")
			if e.Kind == ExprResponse {
				header, body, ctype = last.RespHead, last.RespBody, last.RespHead.Get("Content-Type")
			}
			switch e.Source {
			case "header":
				vs := header.Values(e.Name)
				if len(vs) == 0 {
					return nil, false, nil
				}
				return vs[0], true, nil
			case "query":
				u, err := url.Parse(last.URL)
				if err != nil {
					return nil, false, nil
				}
				q := u.Query()
				if !q.Has(e.Name) {
					return nil, false, nil
				}
				return q.Get(e.Name), true, nil
			case "path":
				if sr.Operation == nil {
					return nil, false, nil
				}
				return pathParam(sr.Operation.Path, last.URL, e.Name)
			case "body":
				if len(body) == 0 {
					return nil, false, nil
				}
				v := bodyValue(body, ctype)
				if e.HasPointer {
					if _, isText := v.(string); isText {
						return nil, false, fmt.Errorf("%s: the body (%s) is not JSON", e.Raw, orUnknown(ctype))
					}
				}
				return withPointer(v, true)
			}
		case ExprInputs:
			v, ok := lookupDotted(f.inputs, e.Name)
			return withPointer(v, ok)
		case ExprOutputs:
			var outs map[string]any
			switch {
			case ec != nil && ec.called != nil:
				outs = ec.called.Outputs
			case f.outputs != nil:
				outs = f.outputs
			}
			v, ok := lookupDotted(outs, e.Name)
			return withPointer(v, ok)
		case ExprSteps:
			v, ok := lookupDotted(f.steps[e.ID], e.Name)
			return withPointer(v, ok)
		case ExprWorkflows:
			st := r.c.Workflow(e.ID)
			if st == nil {
				return nil, false, nil
			}
			res := r.lastResult(e.ID)
			if res == nil {
				return nil, false, nil
			}
			src := res.Outputs
			if e.Field == "inputs" {
				src = res.Inputs
			}
			v, ok := lookupDotted(src, e.Name)
			return withPointer(v, ok)
		case ExprSourceDescriptions:
			ls := r.c.Loaded[e.ID]
			if ls == nil {
				return nil, false, nil
			}
			if e.Name == "url" {
				return ls.URL, true, nil
			}
			return nil, false, nil
		case ExprComponents:
			if e.ID == "parameters" {
				if p := r.c.Components.Parameters[e.Name]; p != nil {
					return r.evalValue(p.Value, f, ec)
				}
			}
			if e.ID == "inputs" {
				if n := r.c.Components.Inputs[e.Name]; n != nil {
					return NodeValue(n), true, nil
				}
			}
			return nil, false, nil
		}
		return nil, false, nil
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "no Content-Type"
	}
	return s
}

// lastResult is the latest result of a workflow ($workflows.<id>.…).
func (r *Runner) lastResult(id string) *WorkflowResult {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.results[id]
}

// lookupDotted reads name from m; a name with dots that m does not hold
// whole reads its first part and then members ("order.id").
func lookupDotted(m map[string]any, name string) (any, bool) {
	if m == nil {
		return nil, false
	}
	if v, ok := m[name]; ok {
		return v, true
	}
	parts := strings.Split(name, ".")
	for i := len(parts) - 1; i > 0; i-- {
		head := strings.Join(parts[:i], ".")
		v, ok := m[head]
		if !ok {
			continue
		}
		for _, p := range parts[i:] {
			obj, isObj := v.(map[string]any)
			if !isObj {
				return nil, false
			}
			if v, ok = obj[p]; !ok {
				return nil, false
			}
		}
		return v, true
	}
	return nil, false
}

// pathParam reads a path parameter from a URL by the operation's template.
func pathParam(template, rawURL, name string) (any, bool, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, false, nil
	}
	tsegs := strings.Split(strings.Trim(template, "/"), "/")
	usegs := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	if len(usegs) < len(tsegs) {
		return nil, false, nil
	}
	usegs = usegs[len(usegs)-len(tsegs):] // a server prefix comes first
	for i, t := range tsegs {
		if t == "{"+name+"}" {
			v, err := url.PathUnescape(usegs[i])
			if err != nil {
				return nil, false, nil
			}
			return v, true, nil
		}
	}
	return nil, false, nil
}

// bodyValue decodes a body: JSON (by its media type, or by its look when
// none is given) with json.Number, else the text.
func bodyValue(body []byte, contentType string) any {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "" {
		if v, err := decodeJSON(body); err == nil {
			return v
		}
	}
	return string(body)
}

func decodeJSON(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}
