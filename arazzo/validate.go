package arazzo

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/antchfx/xpath"
	"github.com/theory/jsonpath"

	"github.com/specgate/specgate/internal/suggest"
	"github.com/specgate/specgate/spec"
)

// Problem is one way an Arazzo document breaks its specification, located
// where it is written.
type Problem struct {
	File    string
	Range   spec.Range
	Pointer string
	Message string
	// Unreadable marks a container where a scalar must stand or the
	// reverse: the document cannot be read as written there.
	Unreadable bool
	// Broken marks a reference that does not resolve (a source
	// description, an operation, a workflow, a step, a component, an input
	// or output an expression names) or an expression that does not
	// parse: the document cannot be run as written. Lint reports these as
	// errors under every ruleset (arazzo-references-resolve).
	Broken bool
	// Path is where the problem is written, in the document's tree.
	Path spec.Path
}

func (p Problem) Error() string {
	if p.Range.Start.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Range.Start.Line, p.Range.Start.Col, p.Message)
	}
	return p.File + ": " + p.Message
}

func locate(doc *spec.Document, path spec.Path, msg string) Problem {
	loc := doc.Locate(path, nil)
	p := Problem{File: doc.Root.Name, Pointer: loc.Pointer, Message: msg, Range: loc.Range, Path: path}
	if loc.File != nil {
		p.File = loc.File.Name
	}
	return p
}

// LoadedSource is a source description and the document it names.
type LoadedSource struct {
	*Source
	Doc *spec.Document // nil when it did not load
	Err error
	// Arazzo is the description of an arazzo source.
	Arazzo *Description
}

// Checked is an Arazzo description with its sources loaded.
type Checked struct {
	*Description
	Loaded map[string]*LoadedSource // by source name
	// Uses are the runtime expressions that parse, where each is written,
	// in the order Check met them: what each workflow reads.
	Uses []Use
}

// Use is a runtime expression written in the document.
type Use struct {
	*Expr
	// Workflow and Step are where it is written: "" outside a workflow
	// (components), resp. outside a step.
	Workflow, Step string
	Path           spec.Path
}

// Check validates an Arazzo document against the official schema of its
// version, then checks what a schema cannot say: that the source
// descriptions load and are of their type, that the operations
// (operationId, operationPath; 1.1 channelPath and action), workflows and
// steps named exist, that ids are unique, that dependsOn has no cycle,
// that every runtime expression and condition parses and names something
// that exists. Sources are loaded with doc.LoadRelated, under the rules of
// $refs. Problems come sorted by file and position.
func Check(ctx context.Context, doc *spec.Document) (*Checked, []Problem) {
	if doc.Format != spec.Arazzo {
		return nil, []Problem{locate(doc, nil, fmt.Sprintf("%s is %s, not an Arazzo document", doc.Root.Name, doc))}
	}
	ch := &checker{doc: doc, desc: Read(doc)}
	ch.problems = schemaProblems(doc)
	ch.loadSources(ctx)
	ch.checkIDs()
	for _, w := range ch.desc.Workflows {
		ch.checkWorkflow(w)
	}
	ch.checkDependsOn()
	ch.checkComponents()
	slices.SortFunc(ch.problems, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Col, b.Range.Start.Col), cmp.Compare(a.Message, b.Message))
	})
	ch.problems = slices.CompactFunc(ch.problems, func(a, b Problem) bool {
		return a.File == b.File && a.Range.Start == b.Range.Start && a.Message == b.Message
	})
	return &Checked{Description: ch.desc, Loaded: ch.loaded, Uses: ch.uses}, ch.problems
}

type checker struct {
	doc      *spec.Document
	desc     *Description
	loaded   map[string]*LoadedSource
	problems []Problem
	uses     []Use
}

func (ch *checker) report(path spec.Path, format string, args ...any) {
	ch.problems = append(ch.problems, locate(ch.doc, path, fmt.Sprintf(format, args...)))
}

// broken reports a reference that does not resolve or an expression that
// does not parse (Problem.Broken).
func (ch *checker) broken(path spec.Path, format string, args ...any) {
	p := locate(ch.doc, path, fmt.Sprintf(format, args...))
	p.Broken = true
	ch.problems = append(ch.problems, p)
}

// loadSources loads every source description once, by name.
func (ch *checker) loadSources(ctx context.Context) {
	ch.loaded = map[string]*LoadedSource{}
	for _, s := range ch.desc.Sources {
		if s.Name == "" || s.URL == "" {
			continue
		}
		if ch.loaded[s.Name] != nil {
			ch.report(with(s.Path, "name"), "source description name %q is used twice; names must be unique", s.Name)
			continue
		}
		ls := &LoadedSource{Source: s}
		ch.loaded[s.Name] = ls
		doc, err := ch.doc.LoadRelated(ctx, s.URL)
		if err != nil {
			ls.Err = err
			ch.broken(with(s.Path, "url"), "source description %q does not load: %v", s.Name, err)
			continue
		}
		ls.Doc = doc
		want := map[string][]spec.Format{"openapi": {spec.OpenAPI, spec.Swagger}, "asyncapi": {spec.AsyncAPI}, "arazzo": {spec.Arazzo}}
		typ := s.Type
		if typ == "" {
			typ = "openapi"
			switch doc.Format {
			case spec.AsyncAPI:
				typ = "asyncapi"
			case spec.Arazzo:
				typ = "arazzo"
			}
		}
		if formats, ok := want[typ]; ok && !slices.Contains(formats, doc.Format) {
			where := with(s.Path, "type")
			if s.Type == "" {
				where = with(s.Path, "url")
			}
			ch.broken(where, "source description %q is of type %s, but %s is %s", s.Name, typ, doc.Root.Name, doc)
			continue
		}
		if typ == "asyncapi" && ch.desc.Minor < 1 {
			ch.report(with(s.Path, "type"), "AsyncAPI source descriptions need Arazzo 1.1 (this document is %s)", ch.doc.Version)
		}
		if doc.Format == spec.Arazzo {
			ls.Arazzo = Read(doc)
		} else {
			doc.Views()
		}
	}
}

func (ch *checker) checkIDs() {
	seen := map[string]bool{}
	for _, w := range ch.desc.Workflows {
		if w.ID == "" {
			continue
		}
		if seen[w.ID] {
			ch.report(with(w.Path, "workflowId"), "workflowId %q is used by an earlier workflow; ids must be unique", w.ID)
		}
		seen[w.ID] = true
		steps := map[string]bool{}
		for _, s := range w.Steps {
			if s.ID == "" {
				continue
			}
			if steps[s.ID] {
				ch.report(with(s.Path, "stepId"), "stepId %q is used by an earlier step of workflow %q; step ids must be unique in a workflow", s.ID, w.ID)
			}
			steps[s.ID] = true
		}
	}
}

func (ch *checker) workflowIDs() []string {
	var ids []string
	for _, w := range ch.desc.Workflows {
		ids = append(ids, w.ID)
	}
	return ids
}

// checkDependsOn checks that dependsOn names workflows that exist and that
// no workflow depends on itself, directly or through others.
func (ch *checker) checkDependsOn() {
	for _, w := range ch.desc.Workflows {
		for _, d := range w.DependsOn {
			if strings.HasPrefix(d.Value, "$") {
				ch.checkForeignWorkflow(d.Value, d.Path, "dependsOn")
				continue
			}
			if ch.desc.Workflow(d.Value) == nil {
				ch.broken(d.Path, "dependsOn names workflow %q, which does not exist%s", d.Value, suggest.Hint(d.Value, ch.workflowIDs()))
			}
		}
	}
	// A cycle is reported once, at the dependsOn entry that closes it.
	state := map[string]int{} // 0 unseen, 1 on the stack, 2 done
	var stack []string
	var visit func(w *Workflow)
	visit = func(w *Workflow) {
		state[w.ID] = 1
		stack = append(stack, w.ID)
		for _, d := range w.DependsOn {
			next := ch.desc.Workflow(d.Value)
			if next == nil {
				continue
			}
			switch state[next.ID] {
			case 0:
				visit(next)
			case 1:
				i := slices.Index(stack, next.ID)
				cycle := append(slices.Clone(stack[i:]), next.ID)
				ch.report(d.Path, "dependsOn makes a cycle: %s", strings.Join(cycle, " → "))
			}
		}
		stack = stack[:len(stack)-1]
		state[w.ID] = 2
	}
	for _, w := range ch.desc.Workflows {
		if w.ID != "" && state[w.ID] == 0 {
			visit(w)
		}
	}
}

// checkForeignWorkflow checks $sourceDescriptions.<name>.<workflowId>.
func (ch *checker) checkForeignWorkflow(s string, path spec.Path, field string) {
	e, err := ParseExpr(s)
	if err != nil {
		ch.broken(path, "%s: %v", field, err)
		return
	}
	if e.Kind != ExprSourceDescriptions {
		ch.broken(path, "%s %q: a workflow of another document is named $sourceDescriptions.<name>.<workflowId>", field, s)
		return
	}
	ls := ch.source(e.ID, path)
	if ls == nil || ls.Arazzo == nil {
		if ls != nil && ls.Doc != nil {
			ch.broken(path, "%s %q: source description %q is %s, not an Arazzo document", field, s, e.ID, ls.Doc)
		}
		return
	}
	if ls.Arazzo.Workflow(e.Name) == nil {
		var ids []string
		for _, w := range ls.Arazzo.Workflows {
			ids = append(ids, w.ID)
		}
		ch.broken(path, "%s %q: %s has no workflow %q%s", field, s, ls.Doc.Root.Name, e.Name, suggest.Hint(e.Name, ids))
	}
}

// source returns a loaded source by name, reporting one that does not
// exist; nil when it does not, or did not load (reported already).
func (ch *checker) source(name string, path spec.Path) *LoadedSource {
	ls := ch.loaded[name]
	if ls == nil {
		var names []string
		for _, s := range ch.desc.Sources {
			names = append(names, s.Name)
		}
		ch.broken(path, "there is no source description %q%s", name, suggest.Hint(name, names))
		return nil
	}
	if ls.Doc == nil {
		return nil
	}
	return ls
}

func (ch *checker) checkWorkflow(w *Workflow) {
	sc := &scope{w: w}
	for _, p := range w.Parameters {
		ch.checkParameter(sc, p, nil)
	}
	for _, a := range w.SuccessActions {
		ch.checkAction(sc, a, "success")
	}
	for _, a := range w.FailureActions {
		ch.checkAction(sc, a, "failure")
	}
	for _, s := range w.Steps {
		ch.checkStep(w, s)
	}
	for _, o := range w.Outputs {
		ch.checkOutput(&scope{w: w, workflowOutputs: true}, o)
	}
}

// scope is where an expression is written: in a workflow, maybe in one of
// its steps.
type scope struct {
	w    *Workflow
	step *Step
	// workflowOutputs: the workflow's own outputs, where no message is
	// at hand.
	workflowOutputs bool
	// called is the workflow a workflow step calls: $outputs in the step's
	// outputs are that workflow's.
	called *Workflow
}

func (ch *checker) checkStep(w *Workflow, s *Step) {
	sc := &scope{w: w, step: s}
	targets := 0
	for _, f := range []string{s.OperationID, s.OperationPath, s.WorkflowID, s.ChannelPath} {
		if f != "" {
			targets++
		}
	}
	if targets > 1 && !(s.OperationID != "" && s.ChannelPath != "") {
		ch.report(s.Path, "step %q names more than one of operationId, operationPath, workflowId and channelPath", s.ID)
	}
	var op *Target
	switch {
	case s.WorkflowID != "":
		if strings.HasPrefix(s.WorkflowID, "$") {
			ch.checkForeignWorkflow(s.WorkflowID, with(s.Path, "workflowId"), "workflowId")
		} else if t := ch.desc.Workflow(s.WorkflowID); t == nil {
			ch.broken(with(s.Path, "workflowId"), "step %q calls workflow %q, which does not exist%s", s.ID, s.WorkflowID, suggest.Hint(s.WorkflowID, ch.workflowIDs()))
		} else {
			sc.called = t
		}
	case s.OperationID != "" || s.OperationPath != "" || s.ChannelPath != "":
		t, err := resolveTarget(ch.desc, ch.loaded, s)
		if err != nil {
			if te, ok := err.(*targetError); !ok || !te.silent {
				field := "operationId"
				switch {
				case s.OperationPath != "":
					field = "operationPath"
				case s.ChannelPath != "":
					field = "channelPath"
				}
				ch.broken(with(s.Path, field), "step %q: %v", s.ID, err)
			}
		}
		op = t
	}
	for _, p := range s.Parameters {
		ch.checkParameter(sc, p, op)
	}
	if op != nil && op.Operation != nil {
		ch.checkRequired(s, op, w)
	}
	if s.RequestBody != nil {
		if s.WorkflowID != "" {
			ch.report(with(s.RequestBody.Path), "step %q calls a workflow, which takes no request body (pass values as parameters)", s.ID)
		}
		ch.checkValue(sc, s.RequestBody.Payload, with(s.RequestBody.Path, "payload"))
		for _, r := range s.RequestBody.Replacements {
			ch.checkValue(sc, r.Value, with(r.Path, "value"))
			ch.checkTarget(r, s.RequestBody.ContentType)
		}
	}
	for _, c := range s.SuccessCriteria {
		ch.checkCriterion(sc, c)
	}
	for _, a := range s.OnSuccess {
		ch.checkAction(sc, a, "success")
	}
	for _, a := range s.OnFailure {
		ch.checkAction(sc, a, "failure")
	}
	for _, d := range s.DependsOn {
		ch.checkStepDependency(w, d)
	}
	for _, o := range s.Outputs {
		ch.checkOutput(sc, o)
	}
}

// checkTarget checks that a replacement's target parses as what its
// selector type says: a JSON pointer by default, an XPath expression for
// an XML payload of Arazzo 1.0 (which names no type).
func (ch *checker) checkTarget(r *Replacement, contentType string) {
	typ := r.TargetType
	if typ == "" && isXMLType(contentType) {
		typ = "xpath"
	}
	where := with(r.Path, "target")
	switch typ {
	case "", "jsonpointer":
		if r.Target != "" && !strings.HasPrefix(r.Target, "/") {
			ch.broken(where, "replacement target %q is a JSON pointer and must start with /", r.Target)
		}
	case "jsonpath":
		if _, err := jsonpath.Parse(r.Target); err != nil {
			ch.broken(where, "replacement target %q: JSONPath does not parse: %v", r.Target, err)
		}
	case "xpath":
		if _, err := xpath.Compile(r.Target); err != nil {
			ch.broken(where, "replacement target %q: XPath does not compile: %v", r.Target, err)
		}
	}
}

func (ch *checker) checkStepDependency(w *Workflow, d Named) {
	switch {
	case strings.HasPrefix(d.Value, "$workflows."):
		parts := strings.Split(strings.TrimPrefix(d.Value, "$workflows."), ".")
		if len(parts) == 3 {
			if t := ch.desc.Workflow(parts[0]); t == nil {
				ch.broken(d.Path, "dependsOn names workflow %q, which does not exist%s", parts[0], suggest.Hint(parts[0], ch.workflowIDs()))
			} else if t.Step(parts[2]) == nil {
				ch.broken(d.Path, "dependsOn names step %q of workflow %q, which has no such step", parts[2], parts[0])
			}
		}
	case strings.HasPrefix(d.Value, "$"):
	default:
		if w.Step(d.Value) == nil {
			ch.broken(d.Path, "dependsOn names step %q, which workflow %q does not have%s", d.Value, w.ID, suggest.Hint(d.Value, stepIDs(w)))
		}
	}
}

func stepIDs(w *Workflow) []string {
	var ids []string
	for _, s := range w.Steps {
		ids = append(ids, s.ID)
	}
	return ids
}

// checkRequired reports required path parameters of the operation that
// the step (and its workflow) leave unset: the request cannot be built.
func (ch *checker) checkRequired(s *Step, t *Target, w *Workflow) {
	set := map[string]bool{}
	for _, p := range append(slices.Clone(w.Parameters), s.Parameters...) {
		if p.Reference != "" {
			if r := ch.desc.Components.Parameters[strings.TrimPrefix(p.Reference, "$components.parameters.")]; r != nil {
				set[r.In+"\x00"+r.Name] = true
			}
			continue
		}
		set[p.In+"\x00"+p.Name] = true
	}
	for _, p := range t.Operation.Parameters {
		if p.In == "path" && !set["path\x00"+p.Name] {
			ch.report(s.Path, "step %q sets no value for path parameter %q of %s", s.ID, p.Name, t)
		}
	}
}

// checkParameter checks a parameter's value and, for a step that calls an
// operation, that the operation declares it.
func (ch *checker) checkParameter(sc *scope, p *Parameter, op *Target) {
	if p.Reference != "" {
		e, err := ParseExpr(p.Reference)
		switch {
		case err != nil:
			ch.broken(with(p.Path, "reference"), "%v", err)
		case e.Kind != ExprComponents || e.ID != "parameters":
			ch.broken(with(p.Path, "reference"), "a parameter's reference names $components.parameters.<name>, found %q", p.Reference)
		case ch.desc.Components.Parameters[e.Name] == nil:
			ch.broken(with(p.Path, "reference"), "components.parameters has no %q%s", e.Name, suggest.Hint(e.Name, keys(ch.desc.Components.Parameters)))
		}
		if p.Value != nil {
			ch.checkValue(sc, p.Value, with(p.Path, "value"))
		}
		return
	}
	ch.checkValue(sc, p.Value, with(p.Path, "value"))
	if sc.step == nil {
		return
	}
	if sc.called != nil {
		if names := inputNames(sc.called.Inputs); names != nil && !slices.Contains(names, p.Name) {
			ch.broken(with(p.Path, "name"), "workflow %q has no input %q%s", sc.called.ID, p.Name, suggest.Hint(p.Name, names))
		}
		return
	}
	// A query, header or cookie parameter the operation does not declare is
	// sent as given (OpenAPI allows them); the lint rule
	// arazzo-parameter-declared reports it. A path parameter has nowhere to go.
	if op == nil || op.Operation == nil || p.Name == "" || p.In != "path" {
		return
	}
	var names []string
	for _, d := range op.Operation.Parameters {
		if d.In == p.In {
			if d.Name == p.Name {
				return
			}
			names = append(names, d.Name)
		}
	}
	ch.broken(with(p.Path, "name"), "%s has no %s parameter %q%s", op, p.In, p.Name, suggest.Hint(p.Name, names))
}

// inputNames are the properties an inputs schema declares; nil when it
// does not say (no properties, or other properties allowed by a schema
// this check does not read).
func inputNames(schema *spec.Node) []string {
	props := schema.Get("properties")
	if props == nil || props.Kind != spec.Object {
		return nil
	}
	if schema.Get("allOf") != nil || schema.Get("anyOf") != nil || schema.Get("oneOf") != nil || schema.Get("$ref") != nil {
		return nil
	}
	names := []string{}
	for _, f := range props.Fields {
		names = append(names, f.Key)
	}
	return names
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (ch *checker) checkAction(sc *scope, a *Action, which string) {
	if a.Reference != "" {
		e, err := ParseExpr(a.Reference)
		field := which + "Actions"
		comps := ch.desc.Components.SuccessActions
		if which == "failure" {
			comps = ch.desc.Components.FailureActions
		}
		switch {
		case err != nil:
			ch.broken(with(a.Path, "reference"), "%v", err)
		case e.Kind != ExprComponents || e.ID != field:
			ch.broken(with(a.Path, "reference"), "a %s action's reference names $components.%s.<name>, found %q", which, field, a.Reference)
		case comps[e.Name] == nil:
			ch.broken(with(a.Path, "reference"), "components.%s has no %q%s", field, e.Name, suggest.Hint(e.Name, keys(comps)))
		}
		return
	}
	if a.StepID != "" && sc.w != nil && sc.w.Step(a.StepID) == nil {
		ch.broken(with(a.Path, "stepId"), "%s action %q goes to step %q, which workflow %q does not have%s", which, a.Name, a.StepID, sc.w.ID, suggest.Hint(a.StepID, stepIDs(sc.w)))
	}
	if a.WorkflowID != "" {
		if strings.HasPrefix(a.WorkflowID, "$") {
			ch.checkForeignWorkflow(a.WorkflowID, with(a.Path, "workflowId"), "workflowId")
		} else if ch.desc.Workflow(a.WorkflowID) == nil {
			ch.broken(with(a.Path, "workflowId"), "%s action %q names workflow %q, which does not exist%s", which, a.Name, a.WorkflowID, suggest.Hint(a.WorkflowID, ch.workflowIDs()))
		}
	}
	for _, c := range a.Criteria {
		ch.checkCriterion(sc, c)
	}
	for _, p := range a.Parameters {
		ch.checkValue(sc, p.Value, with(p.Path, "value"))
	}
}

// checkComponents checks the reusable objects written under components.
func (ch *checker) checkComponents() {
	sc := &scope{}
	for _, name := range keys(ch.desc.Components.Parameters) {
		p := ch.desc.Components.Parameters[name]
		ch.checkValue(sc, p.Value, with(p.Path, "value"))
	}
	for _, name := range keys(ch.desc.Components.SuccessActions) {
		ch.checkAction(sc, ch.desc.Components.SuccessActions[name], "success")
	}
	for _, name := range keys(ch.desc.Components.FailureActions) {
		ch.checkAction(sc, ch.desc.Components.FailureActions[name], "failure")
	}
}

// checkCriterion checks that a criterion's context and condition parse for
// its type.
func (ch *checker) checkCriterion(sc *scope, c *Criterion) {
	if c.Context != "" {
		e, err := ParseExpr(c.Context)
		if err != nil {
			ch.broken(with(c.Path, "context"), "%v", err)
		} else {
			ch.checkExpr(sc, e, with(c.Path, "context"))
		}
	}
	if _, err := compileCriterion(c); err != nil {
		ch.broken(with(c.Path, "condition"), "%v", err)
		return
	}
	if c.Type == "simple" {
		cond, _ := ParseCondition(c.Condition)
		for _, e := range cond.Exprs() {
			ch.checkExpr(sc, e, with(c.Path, "condition"))
		}
	}
}

// checkOutput checks an output's expression or selector.
func (ch *checker) checkOutput(sc *scope, o *Output) {
	v := o.Value
	switch {
	case v == nil:
	case v.Kind == spec.String:
		e, err := ParseExpr(v.Value)
		if err != nil {
			ch.broken(o.Path, "output %q: %v", o.Name, err)
			return
		}
		ch.checkExpr(sc, e, o.Path)
	case v.Kind == spec.Object:
		ch.checkSelector(sc, v, o.Path)
	}
}

func (ch *checker) checkSelector(sc *scope, v *spec.Node, path spec.Path) {
	if ctx := v.GetStr("context"); ctx != "" {
		if e, err := ParseExpr(ctx); err != nil {
			ch.broken(with(path, "context"), "%v", err)
		} else {
			ch.checkExpr(sc, e, with(path, "context"))
		}
	}
	if _, err := compileSelector(v); err != nil {
		ch.broken(with(path, "selector"), "%v", err)
	}
}

// checkValue checks the runtime expressions in a value: a string that is
// one, strings with embedded ones, recursively through objects and arrays.
func (ch *checker) checkValue(sc *scope, v *spec.Node, path spec.Path) {
	if v == nil {
		return
	}
	switch v.Kind {
	case spec.String:
		whole, tmpl, err := valueExprs(v.Value)
		if err != nil {
			ch.broken(path, "%v", err)
			return
		}
		if whole != nil {
			ch.checkExpr(sc, whole, path)
		}
		if tmpl != nil {
			for _, e := range tmpl.Exprs {
				ch.checkExpr(sc, e, path)
			}
		}
	case spec.Object:
		if isSelector(v) {
			ch.checkSelector(sc, v, path)
			return
		}
		for _, f := range v.Fields {
			ch.checkValue(sc, f.Value, with(path, f.Key))
		}
	case spec.Array:
		for i, it := range v.Items {
			ch.checkValue(sc, it, with(path, i))
		}
	}
}

// isSelector tells a 1.1 Selector Object in a value from a literal object.
func isSelector(v *spec.Node) bool {
	return v.Kind == spec.Object && v.GetStr("context") != "" && v.GetStr("selector") != "" && v.Get("type") != nil && len(v.Fields) <= 3
}

// checkExpr checks that an expression names something that exists.
func (ch *checker) checkExpr(sc *scope, e *Expr, path spec.Path) {
	u := Use{Expr: e, Path: path}
	if sc.w != nil {
		u.Workflow = sc.w.ID
	}
	if sc.step != nil {
		u.Step = sc.step.ID
	}
	ch.uses = append(ch.uses, u)
	switch e.Kind {
	case ExprURL, ExprMethod, ExprStatusCode, ExprRequest, ExprResponse, ExprMessage:
		if sc.workflowOutputs {
			ch.report(path, "%s reads a step's message; a workflow's outputs read steps' outputs ($steps.<stepId>.outputs.<name>)", e.Raw)
		}
	case ExprInputs:
		if sc.w == nil {
			return
		}
		if names := inputNames(sc.w.Inputs); names != nil && !namesOne(names, e.Name) {
			ch.broken(path, "%s: workflow %q has no input %q%s", e.Raw, sc.w.ID, e.Name, suggest.Hint(e.Name, names))
		}
	case ExprOutputs:
		w := sc.w
		if sc.called != nil {
			w = sc.called
		}
		if w == nil || sc.step != nil && sc.called == nil && !sc.workflowOutputs {
			return
		}
		if !hasOutput(w.Outputs, e.Name) {
			ch.broken(path, "%s: workflow %q has no output %q%s", e.Raw, w.ID, e.Name, suggest.Hint(e.Name, outputNames(w.Outputs)))
		}
	case ExprSteps:
		if sc.w == nil {
			return
		}
		s := sc.w.Step(e.ID)
		if s == nil {
			ch.broken(path, "%s: workflow %q has no step %q%s", e.Raw, sc.w.ID, e.ID, suggest.Hint(e.ID, stepIDs(sc.w)))
			return
		}
		if !hasOutput(s.Outputs, e.Name) {
			ch.broken(path, "%s: step %q has no output %q%s", e.Raw, s.ID, e.Name, suggest.Hint(e.Name, outputNames(s.Outputs)))
		}
	case ExprWorkflows:
		w := ch.desc.Workflow(e.ID)
		if w == nil {
			ch.broken(path, "%s: there is no workflow %q%s", e.Raw, e.ID, suggest.Hint(e.ID, ch.workflowIDs()))
			return
		}
		if e.Field == "outputs" && !hasOutput(w.Outputs, e.Name) {
			ch.broken(path, "%s: workflow %q has no output %q%s", e.Raw, w.ID, e.Name, suggest.Hint(e.Name, outputNames(w.Outputs)))
		}
		if e.Field == "inputs" {
			if names := inputNames(w.Inputs); names != nil && !namesOne(names, e.Name) {
				ch.broken(path, "%s: workflow %q has no input %q%s", e.Raw, w.ID, e.Name, suggest.Hint(e.Name, names))
			}
		}
	case ExprSourceDescriptions:
		ch.source(e.ID, path)
	case ExprComponents:
		var names []string
		switch e.ID {
		case "parameters":
			names = keys(ch.desc.Components.Parameters)
		case "inputs":
			names = keys(ch.desc.Components.Inputs)
		case "successActions":
			names = keys(ch.desc.Components.SuccessActions)
		case "failureActions":
			names = keys(ch.desc.Components.FailureActions)
		}
		if !slices.Contains(names, e.Name) {
			ch.broken(path, "%s: components.%s has no %q%s", e.Raw, e.ID, e.Name, suggest.Hint(e.Name, names))
		}
	}
}

// hasOutput reports whether outputs declare name, or a name that a dotted
// name starts with (the rest reads into its value).
func hasOutput(outs []*Output, name string) bool {
	return namesOne(outputNames(outs), name)
}

// namesOne reports whether name is one of names, or starts with one and a
// dot: $inputs.pet.id reads member id of input pet, as the runner does.
func namesOne(names []string, name string) bool {
	for _, n := range names {
		if n == name || strings.HasPrefix(name, n+".") {
			return true
		}
	}
	return false
}

func outputNames(outs []*Output) []string {
	var names []string
	for _, o := range outs {
		names = append(names, o.Name)
	}
	return names
}

// Target is the operation a step calls, in its source description.
type Target struct {
	Source    *LoadedSource
	Operation *spec.Operation      // OpenAPI
	Async     *spec.AsyncOperation // AsyncAPI, by operationId
	Channel   *spec.Channel        // AsyncAPI, by channelPath
}

func (t *Target) String() string {
	switch {
	case t.Operation != nil:
		s := strings.ToUpper(t.Operation.Method) + " " + t.Operation.Path
		if t.Operation.OperationID != "" {
			s += " (" + t.Operation.OperationID + ")"
		}
		return s
	case t.Async != nil:
		return "AsyncAPI operation " + t.Async.ID
	case t.Channel != nil:
		return "AsyncAPI channel " + t.Channel.ID
	}
	return "?"
}

type targetError struct {
	msg    string
	silent bool // the source did not load: reported there
}

func (e *targetError) Error() string { return e.msg }

var operationPathRE = regexp.MustCompile(`^\{(\$sourceDescriptions\.[A-Za-z0-9_\-]+\.url)\}(#.*)?$`)

// resolveTarget finds the operation or channel a step calls.
func resolveTarget(d *Description, loaded map[string]*LoadedSource, s *Step) (*Target, error) {
	switch {
	case s.OperationPath != "" || s.ChannelPath != "":
		ref := s.OperationPath
		field := "operationPath"
		if ref == "" {
			ref, field = s.ChannelPath, "channelPath"
		}
		m := operationPathRE.FindStringSubmatch(ref)
		if m == nil {
			return nil, &targetError{msg: fmt.Sprintf("%s %q must be {$sourceDescriptions.<name>.url}#<JSON pointer>", field, ref)}
		}
		e, _ := ParseExpr(m[1])
		ls := loaded[e.ID]
		if ls == nil {
			return nil, &targetError{msg: fmt.Sprintf("%s names source description %q, which does not exist%s", field, e.ID, suggest.Hint(e.ID, sourceNames(d)))}
		}
		if ls.Doc == nil {
			return nil, &targetError{msg: "source did not load", silent: true}
		}
		ptr := strings.TrimPrefix(m[2], "#")
		if field == "channelPath" {
			for _, c := range ls.Doc.Views().Channels {
				if spec.Pointer(c.Source) == ptr {
					return &Target{Source: ls, Channel: c}, nil
				}
			}
			return nil, &targetError{msg: fmt.Sprintf("channelPath %q points to no channel of %s", ref, ls.Doc.Root.Name)}
		}
		for _, op := range ls.Doc.Views().Operations {
			if spec.Pointer(op.Source) == ptr {
				return &Target{Source: ls, Operation: op}, nil
			}
		}
		for _, pi := range ls.Doc.Views().PathItems {
			if spec.Pointer(pi.Source) == ptr {
				var ms []string
				for _, op := range pi.Operations {
					ms = append(ms, op.Method)
				}
				return nil, &targetError{msg: fmt.Sprintf("operationPath %q points to the path item %s, not to an operation: add its method (%s), e.g. %s/%s",
					ref, pi.Path, strings.Join(ms, ", "), ref, firstOr(ms, "get"))}
			}
		}
		return nil, &targetError{msg: fmt.Sprintf("operationPath %q points to no operation of %s", ref, ls.Doc.Root.Name)}
	case s.OperationID != "":
		id := s.OperationID
		var candidates []*LoadedSource
		if strings.HasPrefix(id, "$") {
			e, err := ParseExpr(id)
			if err != nil {
				return nil, &targetError{msg: err.Error()}
			}
			if e.Kind != ExprSourceDescriptions {
				return nil, &targetError{msg: fmt.Sprintf("operationId %q: an operation of a named source is written $sourceDescriptions.<name>.<operationId>", id)}
			}
			ls := loaded[e.ID]
			if ls == nil {
				return nil, &targetError{msg: fmt.Sprintf("operationId %q names source description %q, which does not exist%s", id, e.ID, suggest.Hint(e.ID, sourceNames(d)))}
			}
			candidates, id = []*LoadedSource{ls}, e.Name
		} else {
			for _, src := range d.Sources {
				if ls := loaded[src.Name]; ls != nil && (ls.Doc == nil || ls.Doc.Format != spec.Arazzo) {
					candidates = append(candidates, ls)
				}
			}
		}
		var found []*Target
		var all []string
		silent := false
		for _, ls := range candidates {
			if ls.Doc == nil {
				silent = true
				continue
			}
			if s.Action != "" || ls.Doc.Format == spec.AsyncAPI {
				for _, op := range ls.Doc.Views().AsyncOperations {
					all = append(all, op.ID)
					if op.ID == id {
						found = append(found, &Target{Source: ls, Async: op})
					}
				}
				continue
			}
			for _, op := range ls.Doc.Views().Operations {
				all = append(all, op.OperationID)
				if op.OperationID == id {
					found = append(found, &Target{Source: ls, Operation: op})
				}
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1:
			var names []string
			for _, t := range found {
				names = append(names, t.Source.Name)
			}
			return nil, &targetError{msg: fmt.Sprintf("operationId %q is in several source descriptions (%s): write $sourceDescriptions.<name>.%s", id, strings.Join(names, ", "), id)}
		case silent && len(candidates) == 1:
			return nil, &targetError{msg: "source did not load", silent: true}
		}
		where := "the source descriptions"
		if len(candidates) == 1 {
			where = candidates[0].Doc.Root.Name
		}
		return nil, &targetError{msg: fmt.Sprintf("no operation of %s has operationId %q%s", where, id, suggest.Hint(id, all))}
	}
	return nil, &targetError{msg: "the step names no operation"}
}

func sourceNames(d *Description) []string {
	var out []string
	for _, s := range d.Sources {
		out = append(out, s.Name)
	}
	return out
}

func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}
