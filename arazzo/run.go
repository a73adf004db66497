package arazzo

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

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
		opts.Sleep = httpx.Sleep
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
// hands every step's result to sink (nil: no progress report). It returns
// the workflows' results in the order they ran.
func (r *Runner) Run(ctx context.Context, ids []string, sink Sink) []*WorkflowResult {
	if sink == nil {
		sink = func(*StepResult) {}
	}
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
