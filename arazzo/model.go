package arazzo

import (
	"strconv"
	"strings"

	"github.com/specgate/specgate/spec"
)

// Description is an Arazzo document read into its objects. Every object
// keeps its node and its path from the document's root, so that a problem
// found in it is located where it is written. Reading is lenient: a value of
// the wrong kind is left out (the schema validation reports it), so a
// broken document still reads as far as it can.
type Description struct {
	Doc        *spec.Document
	Minor      int // 0 for 1.0.x, 1 for 1.1.x
	Sources    []*Source
	Workflows  []*Workflow
	Components Components
}

// Source is a source description: an OpenAPI, AsyncAPI or Arazzo document
// the workflows call.
type Source struct {
	Name, URL, Type string
	Node            *spec.Node
	Path            spec.Path
}

// Workflow is one workflow.
type Workflow struct {
	ID          string
	Summary     string
	Description string
	// Inputs is the JSON Schema of the inputs (a $ref is resolved); nil
	// when there is none.
	Inputs     *spec.Node
	InputsPath spec.Path
	DependsOn  []Named
	Steps      []*Step
	// SuccessActions and FailureActions apply to every step that does not
	// replace them with an action of the same name.
	SuccessActions []*Action
	FailureActions []*Action
	Parameters     []*Parameter
	Outputs        []*Output
	Node           *spec.Node
	Path           spec.Path
}

// Step returns the step with this id, or nil.
func (w *Workflow) Step(id string) *Step {
	for _, s := range w.Steps {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Named is a string written in a list, with its place.
type Named struct {
	Value string
	Path  spec.Path
}

// Step is one step: a call of an operation (by operationId or
// operationPath), of an AsyncAPI channel (1.1: channelPath and action), or
// of another workflow.
type Step struct {
	ID            string
	Description   string
	OperationID   string
	OperationPath string
	WorkflowID    string
	ChannelPath   string
	Action        string // 1.1 AsyncAPI steps: send or receive
	// Timeout is the step's own time limit in milliseconds (1.1); zero
	// when unset.
	Timeout         int
	DependsOn       []Named
	Parameters      []*Parameter
	RequestBody     *RequestBody
	SuccessCriteria []*Criterion
	OnSuccess       []*Action
	OnFailure       []*Action
	Outputs         []*Output
	Node            *spec.Node
	Path            spec.Path
}

// Kind names what the step calls.
func (s *Step) Kind() string {
	switch {
	case s.WorkflowID != "":
		return "workflow"
	case s.ChannelPath != "" || s.Action != "":
		return "asyncapi"
	}
	return "operation"
}

// Parameter is a parameter of a step or workflow, or a reusable object
// naming one of components.parameters (Reference set, Value its override).
type Parameter struct {
	Name  string
	In    string
	Value *spec.Node
	// Reference is the runtime expression of a reusable object
	// ($components.parameters.page); "" for a parameter written in place.
	Reference string
	Node      *spec.Node
	Path      spec.Path
}

// RequestBody is the body a step sends.
type RequestBody struct {
	ContentType  string
	Payload      *spec.Node // nil when absent
	Replacements []*Replacement
	Node         *spec.Node
	Path         spec.Path
}

// Replacement sets one place of a payload.
type Replacement struct {
	Target     string
	TargetType string // jsonpointer (default), jsonpath or xpath
	Value      *spec.Node
	Path       spec.Path
}

// Criterion is one condition of successCriteria or of an action's
// criteria.
type Criterion struct {
	Context   string
	Condition string
	// Type is simple (the default), regex, jsonpath or xpath; Version the
	// version an Expression Type Object names.
	Type    string
	Version string
	Node    *spec.Node
	Path    spec.Path
}

// Action is a success or failure action, or a reusable object naming one of
// components (Reference set).
type Action struct {
	Name       string
	Type       string // end, goto, retry
	WorkflowID string
	StepID     string
	// RetryAfter is in seconds; RetryLimit is the number of retries (1
	// when unset, as the specification says).
	RetryAfter    float64
	HasRetryAfter bool
	RetryLimit    int
	Criteria      []*Criterion
	Parameters    []*Parameter
	Reference     string
	Node          *spec.Node
	Path          spec.Path
}

// Output is one output: a runtime expression, or (1.1) a selector object.
type Output struct {
	Name  string
	Value *spec.Node
	Path  spec.Path
}

// Components are the reusable objects of the document.
type Components struct {
	Inputs         map[string]*spec.Node
	Parameters     map[string]*Parameter
	SuccessActions map[string]*Action
	FailureActions map[string]*Action
}

// Read reads an Arazzo document into its objects. It never fails: what
// cannot be read is left out.
func Read(doc *spec.Document) *Description {
	d := &Description{Doc: doc, Minor: doc.Minor}
	r := reader{doc: doc}
	root := doc.Root.Root
	for i, n := range r.items(root.Get("sourceDescriptions")) {
		p := spec.Path{"sourceDescriptions", i}
		d.Sources = append(d.Sources, &Source{Name: n.GetStr("name"), URL: n.GetStr("url"), Type: n.GetStr("type"), Node: n, Path: p})
	}
	for i, n := range r.items(root.Get("workflows")) {
		d.Workflows = append(d.Workflows, r.workflow(n, spec.Path{"workflows", i}))
	}
	c := r.obj(root.Get("components"))
	d.Components = Components{Inputs: map[string]*spec.Node{}, Parameters: map[string]*Parameter{},
		SuccessActions: map[string]*Action{}, FailureActions: map[string]*Action{}}
	base := spec.Path{"components"}
	for _, f := range c.Get("inputs").ObjectFields() {
		d.Components.Inputs[f.Key] = r.doc.Deref(f.Value)
	}
	for _, f := range c.Get("parameters").ObjectFields() {
		d.Components.Parameters[f.Key] = r.parameter(f.Value, base.With("parameters", f.Key))
	}
	for _, f := range c.Get("successActions").ObjectFields() {
		d.Components.SuccessActions[f.Key] = r.action(f.Value, base.With("successActions", f.Key))
	}
	for _, f := range c.Get("failureActions").ObjectFields() {
		d.Components.FailureActions[f.Key] = r.action(f.Value, base.With("failureActions", f.Key))
	}
	return d
}

// Workflow returns the workflow with this id, or nil.
func (d *Description) Workflow(id string) *Workflow {
	for _, w := range d.Workflows {
		if w.ID == id {
			return w
		}
	}
	return nil
}

// Source returns the source description with this name, or nil.
func (d *Description) Source(name string) *Source {
	for _, s := range d.Sources {
		if s.Name == name {
			return s
		}
	}
	return nil
}

type reader struct{ doc *spec.Document }

func (r reader) obj(n *spec.Node) *spec.Node {
	if n == nil || n.Kind != spec.Object {
		return nil
	}
	return n
}

func (r reader) items(n *spec.Node) []*spec.Node {
	if n == nil || n.Kind != spec.Array {
		return nil
	}
	out := make([]*spec.Node, len(n.Items))
	for i, it := range n.Items {
		out[i] = r.doc.Deref(it)
	}
	return out
}

func (r reader) workflow(n *spec.Node, p spec.Path) *Workflow {
	w := &Workflow{ID: n.GetStr("workflowId"), Summary: n.GetStr("summary"), Description: n.GetStr("description"), Node: n, Path: p}
	if in := n.Get("inputs"); in != nil {
		w.Inputs, w.InputsPath = r.doc.Deref(in), p.With("inputs")
	}
	w.DependsOn = r.names(n.Get("dependsOn"), p.With("dependsOn"))
	for i, s := range r.items(n.Get("steps")) {
		w.Steps = append(w.Steps, r.step(s, p.With("steps", i)))
	}
	w.SuccessActions = r.actions(n.Get("successActions"), p.With("successActions"))
	w.FailureActions = r.actions(n.Get("failureActions"), p.With("failureActions"))
	w.Parameters = r.parameters(n.Get("parameters"), p.With("parameters"))
	w.Outputs = r.outputs(n.Get("outputs"), p.With("outputs"))
	return w
}

func (r reader) step(n *spec.Node, p spec.Path) *Step {
	s := &Step{ID: n.GetStr("stepId"), Description: n.GetStr("description"), OperationID: n.GetStr("operationId"),
		OperationPath: n.GetStr("operationPath"), WorkflowID: n.GetStr("workflowId"), ChannelPath: n.GetStr("channelPath"),
		Action: n.GetStr("action"), Node: n, Path: p}
	if t := n.Get("timeout"); t != nil && t.Kind == spec.Number {
		s.Timeout, _ = strconv.Atoi(t.Value)
	}
	s.DependsOn = r.names(n.Get("dependsOn"), p.With("dependsOn"))
	s.Parameters = r.parameters(n.Get("parameters"), p.With("parameters"))
	if b := r.obj(n.Get("requestBody")); b != nil {
		bp := p.With("requestBody")
		rb := &RequestBody{ContentType: b.GetStr("contentType"), Payload: b.Get("payload"), Node: b, Path: bp}
		for i, it := range r.items(b.Get("replacements")) {
			rep := &Replacement{Target: it.GetStr("target"), Value: it.Get("value"), Path: bp.With("replacements", i)}
			switch t := it.Get("targetSelectorType"); {
			case t == nil:
			case t.Kind == spec.String:
				rep.TargetType = t.Value
			case t.Kind == spec.Object:
				rep.TargetType = t.GetStr("type")
			}
			rb.Replacements = append(rb.Replacements, rep)
		}
		s.RequestBody = rb
	}
	s.SuccessCriteria = r.criteria(n.Get("successCriteria"), p.With("successCriteria"))
	s.OnSuccess = r.actions(n.Get("onSuccess"), p.With("onSuccess"))
	s.OnFailure = r.actions(n.Get("onFailure"), p.With("onFailure"))
	s.Outputs = r.outputs(n.Get("outputs"), p.With("outputs"))
	return s
}

func (r reader) names(n *spec.Node, p spec.Path) []Named {
	var out []Named
	for i, it := range r.items(n) {
		if it.Kind == spec.String {
			out = append(out, Named{Value: it.Value, Path: p.With(i)})
		}
	}
	return out
}

func (r reader) parameters(n *spec.Node, p spec.Path) []*Parameter {
	return objects(r, n, p, r.parameter)
}

// objects reads each object of the list n with read, skipping other items.
func objects[T any](r reader, n *spec.Node, p spec.Path, read func(*spec.Node, spec.Path) T) []T {
	var out []T
	for i, it := range r.items(n) {
		if it.Kind == spec.Object {
			out = append(out, read(it, p.With(i)))
		}
	}
	return out
}

func (r reader) parameter(n *spec.Node, p spec.Path) *Parameter {
	return &Parameter{Name: n.GetStr("name"), In: n.GetStr("in"), Value: n.Get("value"), Reference: n.GetStr("reference"), Node: n, Path: p}
}

func (r reader) criteria(n *spec.Node, p spec.Path) []*Criterion {
	var out []*Criterion
	for i, it := range r.items(n) {
		if it.Kind != spec.Object {
			continue
		}
		c := &Criterion{Context: it.GetStr("context"), Condition: it.GetStr("condition"), Type: "simple", Node: it, Path: p.With(i)}
		switch t := it.Get("type"); {
		case t == nil:
		case t.Kind == spec.String:
			c.Type = t.Value
		case t.Kind == spec.Object:
			c.Type, c.Version = t.GetStr("type"), t.GetStr("version")
		}
		out = append(out, c)
	}
	return out
}

func (r reader) actions(n *spec.Node, p spec.Path) []*Action {
	return objects(r, n, p, r.action)
}

func (r reader) action(n *spec.Node, p spec.Path) *Action {
	a := &Action{Name: n.GetStr("name"), Type: n.GetStr("type"), WorkflowID: n.GetStr("workflowId"), StepID: n.GetStr("stepId"),
		Reference: n.GetStr("reference"), RetryLimit: 1, Node: n, Path: p}
	if v := n.Get("retryAfter"); v != nil && v.Kind == spec.Number {
		a.RetryAfter, _ = strconv.ParseFloat(v.Value, 64)
		a.HasRetryAfter = true
	}
	if v := n.Get("retryLimit"); v != nil && v.Kind == spec.Number {
		if l, err := strconv.Atoi(strings.TrimSuffix(v.Value, ".0")); err == nil {
			a.RetryLimit = l
		}
	}
	a.Criteria = r.criteria(n.Get("criteria"), p.With("criteria"))
	a.Parameters = r.parameters(n.Get("parameters"), p.With("parameters"))
	return a
}

func (r reader) outputs(n *spec.Node, p spec.Path) []*Output {
	var out []*Output
	for _, f := range n.ObjectFields() {
		out = append(out, &Output{Name: f.Key, Value: f.Value, Path: p.With(f.Key)})
	}
	return out
}
